import { createHash, randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, scanAll } from '../shared/dynamodb';
import type { ApiKey, IssuedApiKey } from './types';
import { getVendor, ITEM_KIND } from './vendor-store';

/**
 * Every key starts with this prefix, so secret scanners (GitHub's, for one) can be taught to recognise a
 * leaked key. After it: 32 bytes of randomness, base64url — 256 bits, well past the 128 the contract asks.
 */
export const API_KEY_PREFIX = 'vvk_';
const KEY_RANDOM_BYTES = 32;

/** A new API key; shown once to the operator, then only its hash exists. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
}

/** SHA-256 of a key, hex. A plain fast hash is right here: the key is random, not a password to stretch. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** The public id of a key: derived from its hash, so re-loading a seed file gives the same id. */
export function keyIdOf(keyHash: string): string {
  return `key_${keyHash.slice(0, 12)}`;
}

/** Partition key of a key item: the key's hash, so the authorizer finds it with one GetItem. */
export const apiKeyItemKey = (keyHash: string) => ({ pk: `key#${keyHash}` });

/** The stored key with this hash, or undefined. */
export async function findApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  keyHash: string,
): Promise<ApiKey | undefined> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: apiKeyItemKey(keyHash),
      ProjectionExpression: 'keyId, vendorId, label, createdAt, revokedAt',
    }),
  );
  return Item as ApiKey | undefined;
}

/**
 * Stores a key's hash for a vendor. With `replace`, an existing item for the same key is overwritten (seed
 * files are loaded again at every start); otherwise a duplicate is an error.
 */
export async function storeApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  key: { apiKey: string; vendorId: string; label: string },
  options: { replace?: boolean; now?: Date } = {},
): Promise<ApiKey> {
  const keyHash = hashApiKey(key.apiKey);
  const stored: ApiKey = {
    keyId: keyIdOf(keyHash),
    vendorId: key.vendorId,
    label: key.label,
    createdAt: (options.now ?? new Date()).toISOString(),
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

/** Issues a new key for an existing vendor; undefined when the vendor does not exist. */
export async function issueApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  label: string,
): Promise<IssuedApiKey | undefined> {
  if (!(await getVendor(client, tableName, vendorId))) return undefined;
  const apiKey = generateApiKey();
  return { ...(await storeApiKey(client, tableName, { apiKey, vendorId, label })), apiKey };
}

/** The public fields of a key item (its hash and item bookkeeping left out). */
function toApiKey(item: Record<string, unknown>): ApiKey {
  const { keyId, vendorId, label, createdAt, revokedAt } = item as unknown as ApiKey;
  return { keyId, vendorId, label, createdAt, ...(revokedAt && { revokedAt }) };
}

/** A vendor's keys, live and revoked, oldest first; never the keys themselves. */
export async function listApiKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<ApiKey[]> {
  const items = await scanAll(client, {
    TableName: tableName,
    FilterExpression: 'kind = :kind AND vendorId = :vendorId',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.apiKey, ':vendorId': vendorId },
  });
  return items.map(toApiKey).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** What revoking a key did. */
export type RevokeOutcome = { revoked: ApiKey } | { notFound: true } | { alreadyRevoked: ApiKey };

/**
 * Revokes a key by its public id. It stops authenticating as soon as the authorizer's cached answer for it
 * expires (300 s by default; at once on the local server).
 */
export async function revokeApiKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  keyId: string,
  now = new Date(),
): Promise<RevokeOutcome> {
  const [item] = await scanAll(client, {
    TableName: tableName,
    FilterExpression: 'kind = :kind AND keyId = :keyId',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.apiKey, ':keyId': keyId },
  });
  if (!item) return { notFound: true };
  const key = toApiKey(item);
  if (key.revokedAt) return { alreadyRevoked: key };
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk },
        UpdateExpression: 'SET revokedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { revoked: toApiKey(Attributes ?? {}) };
  } catch (error) {
    if (isConditionFailed(error)) return { alreadyRevoked: key };
    throw error;
  }
}
