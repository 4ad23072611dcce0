/**
 * The operator's writes of webhook endpoints (docs/operating.md#webhooks): add, list, enable, disable, remove,
 * rotate the secret. The dispatch's own reads and writes are the runtime's (`lambda/functions/webhooks/endpoint-store.ts`).
 * A secret is returned by `addEndpoint` and `rotateSecret` only, to be shown once; `listEndpoints` never has it.
 */

import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { settledBefore } from '../../lambda/domain/change-feed/settle';
import { changeKey } from '../../lambda/domain/schema/change-index';
import { VENDOR_INDEXES } from '../../lambda/domain/schema/tables';
import { ITEM_KIND } from '../../lambda/domain/schema/vendors';
import { serverClock } from '../../lambda/domain/store/clock';
import {
  MAX_ENDPOINTS_PER_VENDOR,
  PREVIOUS_SECRET_MS,
  type UrlRules,
  type WebhookEndpoint,
  webhookItemKey,
  webhookUrlProblem,
} from '../../lambda/functions/webhooks/endpoint';
import { SECRET_PREFIX } from '../../lambda/functions/webhooks/signature';
import { isConditionFailed } from '../../lambda/platform/aws/failure';
import { queryAll } from '../../lambda/platform/dynamodb/query-all';
import { UserError } from './errors';

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

/**
 * Key of the item that holds a vendor's places for endpoints: a map from endpoint id to when its place was taken
 * (ms), at most `MAX_ENDPOINTS_PER_VENDOR` entries. An `add` takes a place by a conditional update of this one item
 * before it writes the endpoint, so that the limit holds however many `add`s race (docs/operating.md#webhooks).
 */
export const webhookPlacesKey = (vendorId: string) => ({ pk: `webhook-places#${vendorId}` });

/**
 * How long a place may stand without its endpoint before an `add` that finds the vendor full frees it: an `add`
 * killed between taking the place and writing the endpoint (or a `remove` killed between its two writes) leaves one.
 */
export const ABANDONED_PLACE_MS = 60_000;

/** Tries of an `add` whose place was freed under it (it came back after `ABANDONED_PLACE_MS`). */
const PLACE_TRIES = 3;

/** The vendor's places as stored (strong read); undefined when the vendor has never had a place item. */
async function readPlaces(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<Record<string, number> | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: webhookPlacesKey(vendorId), ConsistentRead: true }),
  );
  return Item ? ((Item.places ?? {}) as Record<string, number>) : undefined;
}

/**
 * Takes a place for `endpointId`; false when the vendor has its `MAX_ENDPOINTS_PER_VENDOR`. The first `add` of a
 * vendor writes the place item with the endpoints it already has (made before places were kept); a full vendor's
 * abandoned places (no endpoint, older than `ABANDONED_PLACE_MS`) are freed, and the place tried once more.
 */
async function takePlace(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  endpointId: string,
  now: () => number,
): Promise<boolean> {
  for (let round = 0; round < 3; round += 1) {
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: webhookPlacesKey(vendorId),
          UpdateExpression: 'SET places.#id = :at',
          ConditionExpression: 'attribute_exists(places) AND size(places) < :max',
          ExpressionAttributeNames: { '#id': endpointId },
          ExpressionAttributeValues: { ':at': now(), ':max': MAX_ENDPOINTS_PER_VENDOR },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    const places = await readPlaces(client, tableName, vendorId);
    if (places === undefined) {
      const existing = await listEndpoints(client, tableName, vendorId);
      const seeded = Object.fromEntries(
        existing.map((endpoint) => [endpoint.endpointId, endpoint.createdAt]),
      );
      await client
        .send(
          new PutCommand({
            TableName: tableName,
            Item: { ...webhookPlacesKey(vendorId), vendorId, places: seeded },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailed(error)) throw error;
        });
      continue;
    }
    if (Object.keys(places).length < MAX_ENDPOINTS_PER_VENDOR) continue;
    const abandoned = await abandonedPlaces(client, tableName, places, now());
    if (abandoned.length === 0) return false;
    for (const [id, at] of abandoned) await freePlace(client, tableName, vendorId, id, at);
  }
  return false;
}

/** The places, among `places`, older than `ABANDONED_PLACE_MS` whose endpoint does not exist. */
async function abandonedPlaces(
  client: DynamoDBDocumentClient,
  tableName: string,
  places: Record<string, number>,
  now: number,
): Promise<[string, number][]> {
  const old = Object.entries(places).filter(([, at]) => at < now - ABANDONED_PLACE_MS);
  const found = await Promise.all(
    old.map(async ([id]) => {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: webhookItemKey(id), ConsistentRead: true }),
      );
      return Item !== undefined;
    }),
  );
  return old.filter((_, index) => !found[index]);
}

/** Frees an endpoint's place; `at`, when given, only if it is still the place taken then. */
async function freePlace(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  endpointId: string,
  at?: number,
): Promise<void> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: webhookPlacesKey(vendorId),
        UpdateExpression: 'REMOVE places.#id',
        ConditionExpression: at === undefined ? 'attribute_exists(places.#id)' : 'places.#id = :at',
        ExpressionAttributeNames: { '#id': endpointId },
        ...(at !== undefined && { ExpressionAttributeValues: { ':at': at } }),
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/**
 * Adds an endpoint for a vendor: its URL checked (one line when refused), a place taken among the vendor's
 * `MAX_ENDPOINTS_PER_VENDOR` (atomically: `takePlace`), a new secret, and its position the moment it was added by the
 * service's clock — DynamoDB's, as bounded from its answers (`lambda/domain/store/clock.ts`), whatever the operator's
 * clock says (`localNow`, which tests skew). The first event has the changes after it, and those of the few seconds
 * before.
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
  for (let tries = 0; tries < PLACE_TRIES; tries += 1) {
    const endpointId = `ep_${randomBytes(9).toString('base64url')}`;
    if (!(await takePlace(client, tableName, vendorId, endpointId, now)))
      throw new UserError(
        `vendor "${vendorId}" has ${MAX_ENDPOINTS_PER_VENDOR} webhook endpoints, the most it may have; remove one first.`,
      );
    // Read after DynamoDB has answered: the service's time.
    const at = now();
    const endpoint: WebhookEndpoint = {
      endpointId,
      vendorId,
      url,
      secret: newWebhookSecret(),
      status: 'enabled',
      // The moment it was added, less the index's settle window: a change written just after the add may carry a
      // stamp a second earlier (lambda/domain/store/clock.ts). It is sent rather than missed — at least once, as a sync
      // delivers.
      position: changeKey(settledBefore(at), 0),
      createdAt: at,
    };
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...webhookItemKey(endpoint.endpointId), kind: ITEM_KIND.webhook, ...endpoint },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    // A place freed as abandoned while this add was slow: the endpoint goes, and the add takes a place again.
    if ((await readPlaces(client, tableName, vendorId))?.[endpointId] !== undefined) return endpoint;
    await client.send(new DeleteCommand({ TableName: tableName, Key: webhookItemKey(endpointId) }));
  }
  throw new UserError(`vendor "${vendorId}"'s webhook endpoints are changing too fast; try again.`);
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
  const { Attributes } = await client.send(
    new DeleteCommand({ TableName: tableName, Key: webhookItemKey(endpointId), ReturnValues: 'ALL_OLD' }),
  );
  const removed = Attributes as WebhookEndpoint | undefined;
  if (removed) await freePlace(client, tableName, removed.vendorId, endpointId);
  return removed;
}
