/**
 * Reads of vacancy items by id (docs/design.md#how-a-listing-reads): one BatchGetItem (retrying what DynamoDB left
 * unprocessed) of the ids a page named, projected to what the page shows, each item checked to be the vendor's; and
 * one GetItem of the one vacancy a job page shows. Each item comes with its cities read back (`withCities`).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { RetryPolicy } from '../../platform/dynamodb/backoff';
import { batchGetItems } from '../../platform/dynamodb/batch-get';
import { capacityUnits, type ReadCost } from '../../platform/dynamodb/capacity';
import { underDeadline } from '../../platform/dynamodb/deadline';
import { attributeValues, type ReadClient } from '../../platform/dynamodb/read-client';
import { ITEM } from '../schema/tables';
import { PAY_AND_PLACE_FIELDS, VACANCY_FIELDS } from '../schema/vacancy';
import { type ListedVacancy, type StoredItem, type StoredVacancy, withCities } from '../schema/vacancy-item';

/**
 * An item as the one-vacancy route reads it: the vacancy object's fields, the vendor, the status and when it last
 * changed (a closed vacancy's 410 says when).
 */
export type ShownItem = Partial<ListedVacancy> &
  Pick<StoredItem, 'id' | 'status' | typeof ITEM.vendor | typeof ITEM.updatedAt>;

/**
 * An item as a feed reads it: a listed vacancy, its experience range (Indeed's `<experience>`) and when it last
 * changed (a sitemap's `lastmod`).
 */
export type FedItem = ListedVacancy &
  Pick<StoredVacancy, 'experience_min' | 'experience_max' | typeof ITEM.updatedAt>;

/** An item as a sync reads it: the vacancy object's fields, the vendor, the status and when it changed. */
export type SyncedItem = Partial<ListedVacancy> &
  Pick<StoredItem, 'id' | 'status' | typeof ITEM.vendor | typeof ITEM.updatedAt>;

/** A ProjectionExpression of attributes; several (`type`, `url`, `status`, …) are DynamoDB reserved words. */
const projection = (attributes: readonly string[]) => ({
  ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
});

/** What every view reads of a vacancy: the vacancy object's fields, and pay and place (absent on most items). */
const SHOWN_FIELDS = [...VACANCY_FIELDS, ...PAY_AND_PLACE_FIELDS];

/** What a page reads of an item. */
export const ITEM_VIEWS = {
  /** A listing's: the vacancy object's fields and the owner. */
  listed: projection([...SHOWN_FIELDS, ITEM.vendor]),
  /** The one-vacancy route's: that, its status and when it changed (the 410 of a closed one says when). */
  shown: projection([...SHOWN_FIELDS, ITEM.vendor, 'status', ITEM.updatedAt]),
  /** A feed's: a listing's, and when it changed. */
  fed: projection([...SHOWN_FIELDS, 'experience_min', 'experience_max', ITEM.vendor, ITEM.updatedAt]),
  /** A sync's: the one-vacancy route's. */
  synced: projection([...SHOWN_FIELDS, ITEM.vendor, 'status', ITEM.updatedAt]),
} as const;

/** Where items are read, and how. */
export interface ItemReaderTarget {
  readonly client: ReadClient;
  readonly tableName: string;
  readonly retry: RetryPolicy;
  /** Waits between BatchGetItem retries; replaceable so tests need not wait. */
  readonly sleep?: ((milliseconds: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** Items by id, the vendor's only, in the order of `ids` (a vacancy gone since the index was read is left out). */
export async function readItems<
  T extends { readonly id: number; readonly [ITEM.vendor]?: string; readonly city?: string },
>(
  target: ItemReaderTarget,
  vendorId: string,
  ids: readonly number[],
  view: (typeof ITEM_VIEWS)[keyof typeof ITEM_VIEWS],
  signal: AbortSignal | undefined,
): Promise<ReadCost & { items: T[]; foreignItems: number }> {
  if (ids.length === 0) return { items: [], readUnits: 0, calls: 0, foreignItems: 0 };
  const { items, readUnits, calls } = await batchGetItems(
    target.client,
    target.tableName,
    // Each id once: an index may show one item twice — at its old key and its new one, while it follows a move
    // (docs/design.md#a-kill-timeline) — and a batch read refuses a key twice.
    [...new Set(ids)].map((id) => ({ id })),
    {
      retry: target.retry,
      projection: view,
      ...(target.sleep && { sleep: target.sleep }),
      ...(signal && { signal }),
    },
  );
  // BatchGetItem answers in any order; one that is not the vendor's is left out (the indexes are keyed by
  // vendor, so that would be a bug: defence in depth).
  const found = new Map<number, T>();
  let foreignItems = 0;
  for (const item of items as unknown as T[]) {
    if (item[ITEM.vendor] === vendorId) found.set(item.id, withCities(item));
    else foreignItems += 1;
  }
  return { items: ids.flatMap((id) => found.get(id) ?? []), readUnits, calls, foreignItems };
}

/**
 * One item by id, as the one-vacancy route shows it, if it is the vendor's (another's is `undefined`, as a missing
 * one: the caller cannot tell them apart, and neither can its client). Eventually consistent: half a unit for an item
 * of up to 4 KB (what a projection leaves out costs the same: DynamoDB charges by the item's size).
 */
export async function readItem(
  target: Pick<ItemReaderTarget, 'client' | 'tableName'>,
  vendorId: string,
  id: number,
  signal: AbortSignal | undefined,
): Promise<ReadCost & { item: ShownItem | undefined }> {
  const { Item, ConsumedCapacity } = await target.client.send(
    new GetItemCommand({
      TableName: target.tableName,
      Key: attributeValues({ id }),
      ...ITEM_VIEWS.shown,
      ReturnConsumedCapacity: 'TOTAL',
    }),
    underDeadline(signal),
  );
  const item = Item && withCities(unmarshall(Item) as ShownItem);
  return {
    item: item?.[ITEM.vendor] === vendorId ? item : undefined,
    readUnits: capacityUnits(ConsumedCapacity),
    calls: 1,
  };
}
