import type { Command } from 'commander';
import {
  MAX_ENDPOINTS_PER_VENDOR,
  MAX_WEBHOOK_URL_LENGTH,
  MIN_WEBHOOK_PORT,
  signingSecrets,
} from '../../../lambda/domain/webhook-registry/endpoint';
import { attemptDelivery } from '../../../lambda/functions/webhooks/delivery';
import { newEventId, testEventBody } from '../../../lambda/functions/webhooks/event';
import { signedHeaders } from '../../../lambda/functions/webhooks/signature';
import { UserError } from '../errors';
import type { Target } from '../target';
import { requireVendor } from '../vendors';
import {
  addEndpoint,
  disableEndpoint,
  type EndpointView,
  enableEndpoint,
  endpointView,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
} from '../webhooks';
import { action, parse } from './program';

/** `http://127.0.0.1:<port>` receivers are allowed by the local server only (docs/api.md#webhooks). */
export const urlRules = (target: Target) => ({ allowLoopbackHttp: target.local });

function describe(view: EndpointView): string {
  const state =
    view.status === 'enabled'
      ? 'enabled'
      : `disabled (${view.disabledReason ?? 'disabled'}${view.disabledAt ? `, ${view.disabledAt}` : ''})`;
  const last = view.lastAttempt
    ? `last attempt ${view.lastAttempt.at}: ${view.lastAttempt.outcome}`
    : 'no attempt yet';
  // The next try's time: the endpoint's later changes wait behind the event being retried (one at a time, in order).
  const retrying = view.pendingAttempts
    ? `, retrying after ${view.pendingAttempts} failed, next attempt ${view.nextAttemptAt}`
    : '';
  return `${view.endpointId}  ${view.vendorId}  ${view.url}  ${state}  ${last}${retrying}`;
}

const secretLines = (secret: string) => [
  '',
  `  ${secret}`,
  '',
  'Store it now: it cannot be shown again. Verify each delivery with it (docs/api.md#webhooks).',
];

/** `webhook add|list|enable|disable|remove|rotate-secret|test` (docs/operating.md#webhooks). */
export function addWebhookCommands(program: Command): void {
  const webhook = program
    .command('webhook')
    .description("manage vendors' webhook endpoints: signed events when their vacancies change");

  webhook
    .command('add')
    .description(
      `add an endpoint for a vendor (at most ${MAX_ENDPOINTS_PER_VENDOR}); its secret is shown once`,
    )
    .argument('<vendorId>', 'vendor id', parse.vendorId)
    .requiredOption(
      '--url <url>',
      `where events are sent: https:// to a public host, port 443 or ${MIN_WEBHOOK_PORT}–65535, at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString('en')} characters (the local server also takes http://127.0.0.1:<port>)`,
    )
    .action(
      action(async (target, options, vendorId: string) => {
        await requireVendor(target.documentClient, target.tables.vendors, vendorId);
        const endpoint = await addEndpoint(
          target.documentClient,
          target.tables.vendors,
          vendorId,
          options.url ?? '',
          urlRules(target),
        );
        return {
          data: { ...endpointView(endpoint), secret: endpoint.secret },
          text: [
            `webhook endpoint ${endpoint.endpointId} added for ${vendorId}: ${endpoint.url}`,
            ...secretLines(endpoint.secret),
          ],
        };
      }),
    );

  webhook
    .command('list')
    .description('list endpoints: url, enabled or disabled and why, the last attempt (never the secret)')
    .option('--vendor <vendorId>', "only this vendor's", parse.vendorId)
    .action(
      action(async (target, options) => {
        const views = (
          await listEndpoints(
            target.documentClient,
            target.tables.vendors,
            options.vendor as string | undefined,
          )
        ).map(endpointView);
        return { data: views, text: views.length > 0 ? views.map(describe) : 'no webhook endpoints' };
      }),
    );

  webhook
    .command('enable <endpointId>')
    .description('enable an endpoint: it receives every change since the last one delivered to it')
    .action(
      action(async (target, _options, endpointId: string) => {
        const view = endpointView(
          await enableEndpoint(target.documentClient, target.tables.vendors, endpointId),
        );
        // On AWS nothing else would wake the dispatch before the vendor's next change.
        await target.wakeWebhooks?.(view.vendorId);
        return {
          data: view,
          text: `webhook endpoint ${endpointId} enabled; it resumes from the first change not delivered`,
        };
      }),
    );

  webhook
    .command('disable <endpointId>')
    .description('disable an endpoint: nothing is sent to it until it is enabled again')
    .action(
      action(async (target, _options, endpointId: string) => {
        const view = endpointView(
          await disableEndpoint(target.documentClient, target.tables.vendors, endpointId),
        );
        return { data: view, text: `webhook endpoint ${endpointId} disabled` };
      }),
    );

  webhook
    .command('remove <endpointId>')
    .description('remove an endpoint and its secret')
    .action(
      action(async (target, _options, endpointId: string) => {
        const removed = await removeEndpoint(target.documentClient, target.tables.vendors, endpointId);
        if (!removed) throw new UserError(`webhook endpoint "${endpointId}" does not exist.`);
        return { data: endpointView(removed), text: `webhook endpoint ${endpointId} removed` };
      }),
    );

  webhook
    .command('rotate-secret <endpointId>')
    .description('a new secret; for 24 hours every delivery is signed with both the new and the old')
    .action(
      action(async (target, _options, endpointId: string) => {
        const endpoint = await rotateSecret(target.documentClient, target.tables.vendors, endpointId);
        return {
          data: { ...endpointView(endpoint), secret: endpoint.secret },
          text: [
            `webhook endpoint ${endpointId}: new secret (the previous one also signs for 24 hours):`,
            ...secretLines(endpoint.secret),
          ],
        };
      }),
    );

  webhook
    .command('test <endpointId>')
    .description('send a webhook.test event to an endpoint and print the answer')
    .action(
      action(async (target, _options, endpointId: string) => {
        const [endpoint] = (await listEndpoints(target.documentClient, target.tables.vendors)).filter(
          (e) => e.endpointId === endpointId,
        );
        if (!endpoint) throw new UserError(`webhook endpoint "${endpointId}" does not exist.`);
        const now = Date.now();
        const id = newEventId();
        const body = testEventBody(endpointId, now);
        const result = await attemptDelivery(
          endpoint.url,
          signedHeaders(id, Math.floor(now / 1000), body, signingSecrets(endpoint, now)),
          body,
          urlRules(target),
        );
        const outcome = result.ok ? String(result.status) : result.outcome;
        if (!result.ok) throw new UserError(`the test event ${id} to ${endpoint.url} failed: ${outcome}.`);
        return {
          data: { endpointId, eventId: id, status: result.status },
          text: `${endpoint.url} answered ${outcome} to the test event ${id}`,
        };
      }),
    );
}
