/**
 * The webhooks function's errors (docs/design.md#webhooks): a run that disabled an endpoint. (A dispatch whose lease
 * on an endpoint ran out, and a host a webhook may not be sent to, are the endpoints' own: `domain/webhook-registry/`.)
 */

/**
 * One or more endpoints were disabled in the run (their failures ran past the retries). Thrown by the function's
 * entry point (`handler.ts`) once everything the run had to do is done and stored: the invocation fails so that
 * the function's free `Errors` metric counts it, which the `WebhookEndpointDisabled` alarm watches
 * (docs/operating.md#alarms). What to do is the operator's: `webhook list` says why, `webhook enable` resumes it.
 */
export class EndpointDisabledError extends Error {
  override readonly name = 'EndpointDisabledError';
}
