import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { underDeadline } from '../dynamodb/deadline';
import { type Vendor, vendorItemKey } from '../schema/vendors';

/** A vendor by id, or undefined. Eventually consistent: changes reach the authorizer within a second. */
export async function getVendor(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  signal?: AbortSignal,
): Promise<Vendor | undefined> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: vendorItemKey(vendorId),
      ProjectionExpression:
        'vendorId, company, #status, rateTier, usageKey, browserUsageKey, website, logo, createdAt, updatedAt',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
    underDeadline(signal),
  );
  return Item as Vendor | undefined;
}
