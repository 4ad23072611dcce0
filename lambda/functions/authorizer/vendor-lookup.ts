/**
 * The authorizer's read of a vendor: the vendor item's fields its answer needs — status, rate tier, usage keys, and
 * what the context carries — read eventually consistent, within the request's deadline.
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type Vendor, vendorItemKey } from '../../domain/schema/vendors';
import { underDeadline } from '../../platform/dynamodb/deadline';
import { attributeValues, type ReadClient } from '../../platform/dynamodb/read-client';

/** A vendor by id, or undefined. Eventually consistent: changes reach the authorizer within a second. */
export async function getVendor(
  client: ReadClient,
  tableName: string,
  vendorId: string,
  signal?: AbortSignal,
): Promise<Vendor | undefined> {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: attributeValues(vendorItemKey(vendorId)),
      ProjectionExpression:
        'vendorId, company, #status, rateTier, usageKey, browserUsageKey, website, logo, createdAt, updatedAt',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
    underDeadline(signal),
  );
  return Item && (unmarshall(Item) as Vendor);
}
