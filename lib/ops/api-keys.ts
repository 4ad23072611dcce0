/**
 * Issuing, listing and revoking API keys (docs/operating.md#vendors-and-keys): the operator's side of the keys the
 * authorizer checks. Each command addresses the items it touches through a key or an index, never a Scan.
 */

import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { VENDOR_INDEXES } from '../../lambda/domain/schema/tables';
import { type ApiKey, apiKeyItemKey, ITEM_KIND, type KeyKind } from '../../lambda/domain/schema/vendors';
import { hashApiKey } from '../../lambda/functions/authorizer/key-lookup';
import { isConditionFailed } from '../../lambda/platform/aws/failure';
import { queryAll } from '../../lambda/platform/dynamodb/query-all';
import { getVendorRecord } from './vendors';

/**
 * Every key starts with its kind's prefix, so secret scanners (GitHub's, for one) can be taught to recognise a
 * leaked secret key — and tell it from a publishable one, which is meant to be seen. After it: 32 bytes of
 * randomness, base64url — 256 bits, well past the 128 asked for.
 */
export const API_KEY_PREFIXES: Readonly<Record<KeyKind, string>> = { secret: 'vvk_', publishable: 'vvp_' };
export const API_KEY_PREFIX = API_KEY_PREFIXES.secret;
const KEY_RANDOM_BYTES = 32;

/** A new API key of a kind; shown once to the operator, then only its hash exists. */
export function generateApiKey(kind: KeyKind = 'secret'): string {
  return API_KEY_PREFIXES[kind] + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
}

/** The public id of a key: derived from its hash, so re-loading a seed file gives the same id. */
export function keyIdOf(keyHash: string): string {
  return `key_${keyHash.slice(0, 12)}`;
}

/** A newly issued key: the only moment the key itself exists outside its holder. */
export interface IssuedApiKey extends ApiKey {
  readonly apiKey: string;
}

/**
 * Stores a key's hash for a vendor. With `replace`, an existing item for the same key is overwritten (seed
 * files are loaded again at every start); otherwise a duplicate is an error.
 */
export async function storeApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  key: { apiKey: string; vendorId: string; label: string; origins?: readonly string[] },
  options: { replace?: boolean; now?: Date } = {},
): Promise<ApiKey> {
  const keyHash = hashApiKey(key.apiKey);
  const stored: ApiKey = {
    keyId: keyIdOf(keyHash),
    vendorId: key.vendorId,
    label: key.label,
    createdAt: (options.now ?? new Date()).toISOString(),
    // A key with origins is publishable (docs/api.md#from-a-web-page); one without, secret.
    keyKind: key.origins ? 'publishable' : 'secret',
    ...(key.origins && { origins: [...key.origins] }),
  };
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...apiKeyItemKey(keyHash), kind: ITEM_KIND.apiKey, ...stored },
      ...(!options.replace && { ConditionExpression: 'attribute_not_exists(pk)' }),
    }),
  );
  return stored;
}

/**
 * Issues a new key for an existing vendor — publishable, for these origins, when `origins` is given (checked by the
 * caller); undefined when the vendor does not exist.
 */
export async function issueApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  label: string,
  origins?: readonly string[],
): Promise<IssuedApiKey | undefined> {
  if (!(await getVendorRecord(client, tableName, vendorId))) return undefined;
  const apiKey = generateApiKey(origins ? 'publishable' : 'secret');
  return {
    ...(await storeApiKey(client, tableName, { apiKey, vendorId, label, ...(origins && { origins }) })),
    apiKey,
  };
}

/** The public fields of a key item (its hash and item bookkeeping left out). */
function toApiKey(item: Record<string, unknown>): ApiKey {
  const { keyId, vendorId, label, createdAt, revokedAt, keyKind, origins } = item as unknown as ApiKey;
  return {
    keyId,
    vendorId,
    label,
    createdAt,
    ...(revokedAt && { revokedAt }),
    keyKind: keyKind ?? 'secret',
    ...(origins && { origins }),
  };
}

/** A vendor's keys, live and revoked, oldest first; never the keys themselves. */
export async function listApiKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<ApiKey[]> {
  const items = await queryAll(client, {
    TableName: tableName,
    IndexName: VENDOR_INDEXES.byKind,
    KeyConditionExpression: 'kind = :kind AND vendorId = :vendorId',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.apiKey, ':vendorId': vendorId },
  });
  return items.map(toApiKey).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** What revoking a key did. */
export type RevokeOutcome = { revoked: ApiKey } | { notFound: true } | { alreadyRevoked: ApiKey };

/**
 * Revokes a key by its public id (found through the `by-key-id` index). It stops authenticating as soon as
 * the authorizer's cached answer for it expires (300 s by default; at once on the local server).
 */
export async function revokeApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  keyId: string,
  now = new Date(),
): Promise<RevokeOutcome> {
  const [found] = await queryAll(client, {
    TableName: tableName,
    IndexName: VENDOR_INDEXES.byKeyId,
    KeyConditionExpression: 'keyId = :keyId',
    ExpressionAttributeValues: { ':keyId': keyId },
  });
  if (!found) return { notFound: true };
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: found.pk },
        UpdateExpression: 'SET revokedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { revoked: toApiKey(Attributes ?? {}) };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    // Already revoked (or deleted) since the index was read: say which, from the item itself.
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { pk: found.pk } }));
    return Item ? { alreadyRevoked: toApiKey(Item) } : { notFound: true };
  }
}
