/** The operator's writes and listings of vendors (docs/operating.md#vendors-and-keys). Each addresses what it touches by key. */
import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { VENDOR_INDEXES } from '../../lambda/domain/schema/tables';
import {
  ITEM_KIND,
  type Vendor,
  type VendorStatus,
  type VendorUsageKeyRecord,
  vendorItemKey,
} from '../../lambda/domain/schema/vendors';
import { DEFAULT_RATE_TIER } from '../../lambda/domain/settings/rate-tiers';
import { SummaryStore } from '../../lambda/domain/store/summary-store';
import { isConditionFailed } from '../../lambda/platform/aws/failure';
import { queryAll } from '../../lambda/platform/dynamodb/query-all';
import { UserError } from './errors';

/** A vendor as the ops CLI sees it: with what it keeps about the vendor's API Gateway key. */
export type VendorRecord = Vendor & VendorUsageKeyRecord;

/**
 * A new usage key value: 160 random bits as 40 hex digits (API Gateway takes 20 to 128 alphanumeric characters).
 * It identifies the vendor to its usage plan; it is not a secret the vendor holds, and never shown to it.
 */
export function generateUsageKey(): string {
  return randomBytes(20).toString('hex');
}

/** The fields of a vendor item the CLI shows and works with. */
function toVendorRecord(item: Record<string, unknown>): VendorRecord {
  const {
    vendorId,
    company,
    status,
    rateTier,
    usageKey,
    usageKeyId,
    retiredUsageKeys,
    browserUsageKey,
    browserUsageKeyId,
    website,
    logo,
    createdAt,
    updatedAt,
  } = item as unknown as VendorRecord;
  return {
    vendorId,
    company,
    status,
    rateTier,
    ...(website && { website }),
    ...(logo && { logo }),
    ...(usageKey && { usageKey }),
    ...(usageKeyId && { usageKeyId }),
    ...(browserUsageKey && { browserUsageKey }),
    ...(browserUsageKeyId && { browserUsageKeyId }),
    ...(retiredUsageKeys && retiredUsageKeys.length > 0 && { retiredUsageKeys }),
    createdAt,
    updatedAt,
  };
}

/**
 * Creates a vendor or changes its company name, keeping its status, tier, usage key and creation time. A new
 * vendor is active, on `rateTier` (the deployment's default tier unless said otherwise) and gets its usage key
 * value, and the value of its publishable keys' usage key (the browser tier's); a vendor without them (an older
 * item) gets them too. `status` and `rateTier` given are set; `website` and
 * `logo` given are set, or removed when empty, and kept when not given.
 */
export async function putVendor(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendor: {
    vendorId: string;
    company: string;
    status?: VendorStatus;
    rateTier?: string;
    website?: string;
    logo?: string;
  },
  options: { defaultRateTier?: string; now?: Date } = {},
): Promise<VendorRecord> {
  const timestamp = (options.now ?? new Date()).toISOString();
  const keep = (name: string, placeholder: string, given: boolean) =>
    given ? placeholder : `if_not_exists(${name}, ${placeholder})`;
  const links = (['website', 'logo'] as const).filter((name) => vendor[name] !== undefined);
  const set = links.filter((name) => vendor[name] !== '');
  const removed = links.filter((name) => vendor[name] === '');
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: vendorItemKey(vendor.vendorId),
      UpdateExpression: [
        [
          'SET kind = :kind, vendorId = :id, company = :company',
          `#status = ${keep('#status', ':status', vendor.status !== undefined)}`,
          `rateTier = ${keep('rateTier', ':tier', vendor.rateTier !== undefined)}`,
          'usageKey = if_not_exists(usageKey, :usageKey)',
          'browserUsageKey = if_not_exists(browserUsageKey, :browserUsageKey)',
          'createdAt = if_not_exists(createdAt, :now), updatedAt = :now',
          ...set.map((name) => `${name} = :${name}`),
        ].join(', '),
        ...(removed.length > 0 ? [`REMOVE ${removed.join(', ')}`] : []),
      ].join(' '),
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':kind': ITEM_KIND.vendor,
        ':id': vendor.vendorId,
        ':company': vendor.company,
        ':status': vendor.status ?? 'active',
        ':tier': vendor.rateTier ?? options.defaultRateTier ?? DEFAULT_RATE_TIER,
        ':usageKey': generateUsageKey(),
        ':browserUsageKey': generateUsageKey(),
        ':now': timestamp,
        ...Object.fromEntries(set.map((name) => [`:${name}`, vendor[name]])),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await new SummaryStore(client, tableName).bumpVersion(vendor.vendorId);
  return toVendorRecord(Attributes ?? {});
}

/** A vendor with what the CLI keeps about its usage key, or undefined. */
export async function getVendorRecord(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<VendorRecord | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: vendorItemKey(vendorId), ConsistentRead: true }),
  );
  return Item ? toVendorRecord(Item) : undefined;
}

/** A vendor that must exist for what a command makes of it (a key, an endpoint, a feed): one line when it does not. */
export async function requireVendor(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<VendorRecord> {
  const vendor = await getVendorRecord(client, tableName, vendorId);
  if (!vendor)
    throw new UserError(
      `vendor "${vendorId}" does not exist (create it with "vendor put ${vendorId} --company …").`,
    );
  return vendor;
}

/**
 * Why an add of something a vendor may have only `max` of was refused (`lambda/domain/store/vendor-places.ts`), in
 * one line: the vendor has them all, or its adds and removes race too fast to get a place.
 */
export const placeRefused = (vendorId: string, refused: 'full' | 'busy', max: number, things: string) =>
  new UserError(
    refused === 'full'
      ? `vendor "${vendorId}" has ${max} ${things}, the most it may have; remove one first.`
      : `vendor "${vendorId}"'s ${things} are changing too fast; try again.`,
  );

/**
 * Records a vendor's tier and usage key (and the keys it retired), for an existing vendor; false when there is
 * no such vendor. With `expectedUsageKey`, only if the key has not changed since it was read.
 */
export async function saveVendorUsage(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  usage: Required<Pick<VendorRecord, 'rateTier' | 'usageKey'>> & VendorUsageKeyRecord,
  options: { expectedUsageKey?: string; now?: Date } = {},
): Promise<boolean> {
  return updateIfCondition(client, {
    TableName: tableName,
    Key: vendorItemKey(vendorId),
    UpdateExpression:
      'SET rateTier = :tier, usageKey = :usageKey, retiredUsageKeys = :retired, updatedAt = :now' +
      (usage.usageKeyId ? ', usageKeyId = :usageKeyId' : ' REMOVE usageKeyId'),
    ConditionExpression:
      options.expectedUsageKey === undefined
        ? 'attribute_exists(pk)'
        : 'attribute_exists(pk) AND usageKey = :expected',
    ExpressionAttributeValues: {
      ':tier': usage.rateTier,
      ':usageKey': usage.usageKey,
      ':retired': usage.retiredUsageKeys ?? [],
      ':now': (options.now ?? new Date()).toISOString(),
      ...(usage.usageKeyId && { ':usageKeyId': usage.usageKeyId }),
      ...(options.expectedUsageKey !== undefined && { ':expected': options.expectedUsageKey }),
    },
  });
}

/** Records a vendor's browser usage key (the value its publishable keys count under) and its id; false if none. */
export async function saveVendorBrowserUsage(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  usage: { readonly browserUsageKey: string; readonly browserUsageKeyId: string },
  now = new Date(),
): Promise<boolean> {
  return updateIfCondition(client, {
    TableName: tableName,
    Key: vendorItemKey(vendorId),
    UpdateExpression: 'SET browserUsageKey = :value, browserUsageKeyId = :id, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: {
      ':value': usage.browserUsageKey,
      ':id': usage.browserUsageKeyId,
      ':now': now.toISOString(),
    },
  });
}

/** Suspends or reactivates an existing vendor; false when there is no such vendor. */
export async function setVendorStatus(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  status: VendorStatus,
  now = new Date(),
): Promise<boolean> {
  const updated = await updateIfCondition(client, {
    TableName: tableName,
    Key: vendorItemKey(vendorId),
    UpdateExpression: 'SET #status = :status, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':status': status, ':now': now.toISOString() },
  });
  if (updated) await new SummaryStore(client, tableName).bumpVersion(vendorId);
  return updated;
}

/** Sends a conditional update: false when its condition fails (no such vendor, or changed meanwhile). */
async function updateIfCondition(
  client: DynamoDBDocumentClient,
  input: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<boolean> {
  try {
    await client.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Every vendor, by id: a Query of the vendor items (the `by-kind` index), never of keys or vacancies. */
export async function listVendors(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<VendorRecord[]> {
  const items = await queryAll(client, {
    TableName: tableName,
    IndexName: VENDOR_INDEXES.byKind,
    KeyConditionExpression: 'kind = :kind',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.vendor },
  });
  return items.map(toVendorRecord);
}
