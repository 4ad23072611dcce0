/**
 * A webhook endpoint, the record (docs/design.md#webhooks): one item of the vendors table per endpoint, holding
 * everything its deliveries need — the URL and secrets, its position in the vendor's change index (the last change
 * delivered), the event being delivered while it is, and the lease of the one dispatch that may deliver it. Its
 * persistence is `endpoint-store.ts`; the dispatch built on it, `dispatcher.ts`.
 */
import { isIP } from 'node:net';
import { isPublicAddress } from './address-guard';

/** Key of an endpoint's item. */
export const webhookItemKey = (endpointId: string) => ({ pk: `webhook#${endpointId}` });

/** Endpoints a vendor may have (docs/api.md#webhooks). */
export const MAX_ENDPOINTS_PER_VENDOR = 5;

/** Changes in one event, at most. */
export const MAX_CHANGES_PER_EVENT = 100;

/** How long after a rotation the previous secret still signs every delivery (ms). */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/** Why an endpoint was disabled: its retries ran out, it answered 410 Gone, or an operator disabled it. */
export type DisabledReason = 'retries exhausted' | 'gone (410)' | 'disabled by an operator';

/** The event an endpoint is being sent, kept as sent so that every retry sends the same id and body. */
export interface PendingEvent {
  readonly id: string;
  readonly body: string;
  /** The change key of its last change: the endpoint's position once it is delivered. */
  readonly through: Uint8Array;
  /** Attempts made so far. */
  readonly attempts: number;
  /** When the next attempt is due (ms). */
  readonly dueAt: number;
}

/** The last attempt of a delivery, for `webhook list`. */
export interface LastAttempt {
  readonly at: number;
  /** The HTTP status, or what went wrong before one (`timeout`, `refused: …`, `connection failed`). */
  readonly outcome: string;
}

/** An endpoint as stored. */
export interface WebhookEndpoint {
  readonly endpointId: string;
  readonly vendorId: string;
  readonly url: string;
  /** `whsec_` and the base64 of its random bytes; never printed after `add` and `rotate-secret`, never logged. */
  readonly secret: string;
  /** The secret before the last rotation, which also signs until `previousSecretUntil` (ms). */
  readonly previousSecret?: string;
  readonly previousSecretUntil?: number;
  readonly status: EndpointStatus;
  readonly disabledReason?: DisabledReason;
  readonly disabledAt?: number;
  /** The change key of the last change delivered (at first: the moment the endpoint was added). */
  readonly position: Uint8Array;
  readonly pending?: PendingEvent;
  readonly lastAttempt?: LastAttempt;
  readonly createdAt: number;
}

/** The secrets that sign a delivery at `now`: the current one, and the previous one for a day after a rotation. */
export function signingSecrets(endpoint: WebhookEndpoint, now: number): string[] {
  return endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > now
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];
}

/** Whether URLs may be `http://` on loopback: only in the local server, so that receivers can be tested. */
export interface UrlRules {
  readonly allowLoopbackHttp: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** Whether a URL is `http://127.0.0.1:<port>` or `http://localhost:<port>` (allowed by the local server only). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.port !== '';
}

/**
 * Why a URL may not be an endpoint's, in one line; undefined when it may. `https://` only (and loopback `http://`
 * where allowed), no credentials, and a host that is not an IP literal in a non-public range. (A host name is
 * resolved and checked at every delivery, not here: what it resolves to may change.)
 */
export function webhookUrlProblem(text: string, rules: UrlRules): string | undefined {
  if (!URL.canParse(text)) return 'not a URL';
  const url = new URL(text);
  if (rules.allowLoopbackHttp && isLoopbackHttp(url)) return undefined;
  if (url.protocol !== 'https:')
    return rules.allowLoopbackHttp
      ? 'only https:// URLs (and http://127.0.0.1:<port> or http://localhost:<port> here) are allowed'
      : 'only https:// URLs are allowed';
  if (url.username || url.password) return 'a URL with credentials is not allowed';
  if (url.hash) return 'a URL with a fragment is not allowed';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0 && !isPublicAddress(host)) return `${url.hostname} is not a public address`;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${url.hostname} is not a public address`;
  return undefined;
}
