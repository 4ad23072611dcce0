/**
 * An API key by its hash: a key's SHA-256 (`hashApiKey`: the vendors table stores only that, and the ops CLI hashes
 * the keys it issues with it), and the authorizer's read of the key item under that hash, within the request's
 * deadline.
 */
import { createHash } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type ApiKey, apiKeyItemKey } from '../../domain/schema/vendors';
import { underDeadline } from '../../platform/dynamodb/deadline';
import { attributeValues, type ReadClient } from '../../platform/dynamodb/read-client';

/** SHA-256 of a key, hex. A plain fast hash is right here: the key is random, not a password to stretch. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** The stored key with this hash, or undefined. */
export async function findApiKey(
  client: ReadClient,
  tableName: string,
  keyHash: string,
  signal?: AbortSignal,
): Promise<ApiKey | undefined> {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: attributeValues(apiKeyItemKey(keyHash)),
      ProjectionExpression: 'keyId, vendorId, label, createdAt, revokedAt, keyKind, origins',
    }),
    underDeadline(signal),
  );
  return Item && (unmarshall(Item) as ApiKey);
}
