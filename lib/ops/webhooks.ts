/**
 * The operator's writes of webhook endpoints (docs/operating.md#webhooks): add, list, enable, disable, remove,
 * rotate the secret. The dispatch's own reads and writes are the runtime's (`lambda/functions/webhooks/endpoint-store.ts`).
 * A secret is returned by `addEndpoint` and `rotateSecret` only, to be shown once; `listEndpoints` never has it.
 */

import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { settledBefore } from '../../lambda/domain/change-feed/settle';
import { changeKey } from '../../lambda/domain/schema/change-index';
import { VENDOR_INDEXES } from '../../lambda/domain/schema/tables';
import { ITEM_KIND } from '../../lambda/domain/schema/vendors';
import { serverClock } from '../../lambda/domain/store/clock';
import { type PlacedKind, VendorPlaces } from '../../lambda/domain/store/vendor-places';
import {
  MAX_ENDPOINTS_PER_VENDOR,
  PREVIOUS_SECRET_MS,
  type UrlRules,
  type WebhookEndpoint,
  webhookItemKey,
  webhookUrlProblem,
} from '../../lambda/functions/webhooks/endpoint';
import { SECRET_PREFIX } from '../../lambda/functions/webhooks/signature';
import { queryAll } from '../../lambda/platform/dynamodb/query-all';
import { UserError } from './errors';
import { placeRefused } from './vendors';

/** A new secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks allows 24 to 64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** An endpoint as `webhook list` shows it: everything but its secrets and its position's bytes. */
export interface EndpointView {
  readonly endpointId: string;
  readonly vendorId: string;
  readonly url: string;
  readonly status: WebhookEndpoint['status'];
  readonly disabledReason?: string;
  readonly disabledAt?: string;
  readonly lastAttempt?: { readonly at: string; readonly outcome: string };
  readonly pendingAttempts?: number;
  /**
   * When the event being retried is tried next (ISO 8601): until then the endpoint's later changes wait behind it,
   * since an endpoint's events go one at a time, in order.
   */
  readonly nextAttemptAt?: string;
  readonly createdAt: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function endpointView(endpoint: WebhookEndpoint): EndpointView {
  return {
    endpointId: endpoint.endpointId,
    vendorId: endpoint.vendorId,
    url: endpoint.url,
    status: endpoint.status,
    ...(endpoint.disabledReason && { disabledReason: endpoint.disabledReason }),
    ...(endpoint.disabledAt !== undefined && { disabledAt: iso(endpoint.disabledAt) }),
    ...(endpoint.lastAttempt && {
      lastAttempt: { at: iso(endpoint.lastAttempt.at), outcome: endpoint.lastAttempt.outcome },
    }),
    ...(endpoint.pending && {
      pendingAttempts: endpoint.pending.attempts,
      nextAttemptAt: iso(endpoint.pending.dueAt),
    }),
    createdAt: iso(endpoint.createdAt),
  };
}

/** Endpoints of a vendor, or of every vendor, oldest first. */
export async function listEndpoints(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId?: string,
): Promise<WebhookEndpoint[]> {
  const items = await queryAll(client, {
    TableName: tableName,
    IndexName: VENDOR_INDEXES.byKind,
    KeyConditionExpression: vendorId ? 'kind = :kind AND vendorId = :vendorId' : 'kind = :kind',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.webhook, ...(vendorId && { ':vendorId': vendorId }) },
  });
  return (items as unknown as WebhookEndpoint[]).sort((a, b) => a.createdAt - b.createdAt);
}

/** How much of a refused URL its refusal repeats: enough to recognise it, and the line stays a line. */
const SHOWN_URL_LENGTH = 200;

const shownUrl = (url: string) =>
  url.length > SHOWN_URL_LENGTH ? `${url.slice(0, SHOWN_URL_LENGTH)}…` : url;

/** A vendor's places for endpoints (`webhook-places#<vendor>`): `MAX_ENDPOINTS_PER_VENDOR`, whatever the timing. */
const ENDPOINT_PLACES: PlacedKind = {
  places: 'webhook-places',
  kind: ITEM_KIND.webhook,
  idAttribute: 'endpointId',
  itemKey: webhookItemKey,
  max: MAX_ENDPOINTS_PER_VENDOR,
};

const endpointPlaces = (client: DynamoDBDocumentClient, tableName: string) =>
  new VendorPlaces(client, tableName, ENDPOINT_PLACES);

/**
 * Adds an endpoint for a vendor: its URL checked (one line when refused), a place taken among the vendor's
 * `MAX_ENDPOINTS_PER_VENDOR` (atomically: `lambda/domain/store/vendor-places.ts`), a new secret, and its position the
 * moment it was added by the service's clock — DynamoDB's, as bounded from its answers
 * (`lambda/domain/store/clock.ts`), whatever the operator's clock says (`localNow`, which tests skew). The first event
 * has the changes after it, and those of the few seconds before.
 */
export async function addEndpoint(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  url: string,
  rules: UrlRules,
  localNow: () => number = Date.now,
): Promise<WebhookEndpoint> {
  const problem = webhookUrlProblem(url, rules);
  if (problem) throw new UserError(`--url ${JSON.stringify(shownUrl(url))} is refused: ${problem}.`);
  const now = serverClock(client, localNow);
  const placed = await endpointPlaces(client, tableName).add(
    vendorId,
    () => `ep_${randomBytes(9).toString('base64url')}`,
    (endpointId): WebhookEndpoint => {
      // Read after DynamoDB has answered: the service's time.
      const at = now();
      return {
        endpointId,
        vendorId,
        url,
        secret: newWebhookSecret(),
        status: 'enabled',
        // The moment it was added, less the index's settle window: a change written just after the add may carry a
        // stamp a second earlier (lambda/domain/store/clock.ts). It is sent rather than missed — at least once, as a
        // sync delivers.
        position: changeKey(settledBefore(at), 0),
        createdAt: at,
      };
    },
    now,
  );
  if ('added' in placed) return placed.added;
  throw placeRefused(vendorId, placed.refused, MAX_ENDPOINTS_PER_VENDOR, 'webhook endpoints');
}

/** An update of an existing endpoint; `UserError` when there is none. Returns the endpoint as it now is. */
async function updateEndpoint(
  client: DynamoDBDocumentClient,
  tableName: string,
  endpointId: string,
  update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key' | 'ConditionExpression'>,
): Promise<WebhookEndpoint> {
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: webhookItemKey(endpointId),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
        ...update,
      }),
    );
    return Attributes as WebhookEndpoint;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new UserError(`webhook endpoint "${endpointId}" does not exist.`);
    throw error;
  }
}

/** Enables an endpoint: it resumes from its position, the first change it was not delivered. */
export const enableEndpoint = (client: DynamoDBDocumentClient, tableName: string, endpointId: string) =>
  updateEndpoint(client, tableName, endpointId, {
    UpdateExpression: 'SET #status = :enabled REMOVE disabledReason, disabledAt, pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':enabled': 'enabled' },
  });

/** Disables an endpoint; nothing is sent to it until it is enabled again (and then nothing is lost). */
export const disableEndpoint = (
  client: DynamoDBDocumentClient,
  tableName: string,
  endpointId: string,
  now = Date.now(),
) =>
  updateEndpoint(client, tableName, endpointId, {
    UpdateExpression: 'SET #status = :disabled, disabledReason = :reason, disabledAt = :at REMOVE pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':disabled': 'disabled', ':reason': 'disabled by an operator', ':at': now },
  });

/** A new secret; the previous one keeps signing every delivery, next to it, for 24 hours. */
export const rotateSecret = (
  client: DynamoDBDocumentClient,
  tableName: string,
  endpointId: string,
  now = Date.now(),
) =>
  updateEndpoint(client, tableName, endpointId, {
    UpdateExpression: 'SET previousSecret = secret, previousSecretUntil = :until, secret = :secret',
    ExpressionAttributeValues: { ':until': now + PREVIOUS_SECRET_MS, ':secret': newWebhookSecret() },
  });

/** Removes an endpoint and frees its place; undefined when there was none. */
export async function removeEndpoint(
  client: DynamoDBDocumentClient,
  tableName: string,
  endpointId: string,
): Promise<WebhookEndpoint | undefined> {
  return (await endpointPlaces(client, tableName).remove(endpointId)) as WebhookEndpoint | undefined;
}
