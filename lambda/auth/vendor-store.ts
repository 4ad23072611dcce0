import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, scanAll } from '../shared/dynamodb';
import type { Vendor, VendorStatus } from './types';

/** Partition key of a vendor item in the vendors table. */
export const vendorKey = (vendorId: string) => ({ pk: `vendor#${vendorId}` });

/** Item kinds of the vendors table, so admin listings can tell vendors and keys apart. */
export const ITEM_KIND = { vendor: 'vendor', apiKey: 'key' } as const;

/** A vendor by id, or undefined. Eventually consistent: changes reach the authorizer within a second. */
export async function getVendor(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<Vendor | undefined> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: vendorKey(vendorId),
      ProjectionExpression: 'vendorId, company, #status, createdAt, updatedAt',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
  );
  return Item as Vendor | undefined;
}

/** Creates a vendor or changes its company name (keeping its status and creation time). */
export async function putVendor(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendor: { vendorId: string; company: string; status?: VendorStatus },
  now = new Date(),
): Promise<Vendor> {
  const timestamp = now.toISOString();
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: vendorKey(vendor.vendorId),
      UpdateExpression:
        'SET kind = :kind, vendorId = :id, company = :company, #status = ' +
        (vendor.status ? ':status' : 'if_not_exists(#status, :status)') +
        ', createdAt = if_not_exists(createdAt, :now), updatedAt = :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':kind': ITEM_KIND.vendor,
        ':id': vendor.vendorId,
        ':company': vendor.company,
        ':status': vendor.status ?? 'active',
        ':now': timestamp,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as Vendor;
}

/** Suspends or reactivates an existing vendor; false when there is no such vendor. */
export async function setVendorStatus(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  status: VendorStatus,
  now = new Date(),
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: vendorKey(vendorId),
        UpdateExpression: 'SET #status = :status, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Every vendor (an operator's listing: a Scan of the small vendors table, never on a request path). */
export async function listVendors(client: DynamoDBDocumentClient, tableName: string): Promise<Vendor[]> {
  const items = await scanAll(client, {
    TableName: tableName,
    FilterExpression: 'kind = :kind',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.vendor },
  });
  return (items as unknown as Vendor[])
    .map(({ vendorId, company, status, createdAt, updatedAt }) => ({
      vendorId,
      company,
      status,
      createdAt,
      updatedAt,
    }))
    .sort((a, b) => a.vendorId.localeCompare(b.vendorId));
}
