/**
 * A vendor's listable vacancies (docs/api.md's rule: active, deadline today or later), every one, in the listing's
 * order — what a feed holds — read once: the active index call by call (ids only, today's deadline as its filter),
 * each call's ids then read in BatchGetItems (`domain/reads/item-reader.ts`, a feed's view), each item checked to be
 * the vendor's. It yields a call's vacancies at a time, so a build holds one call's worth whatever the vendor's
 * size, and adds what each read cost to the build's meter.
 */

import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type FedItem, ITEM_VIEWS, type ItemReaderTarget, readItems } from '../../domain/reads/item-reader';
import { activeIndexCondition } from '../../domain/schema/active-index';
import type { ReadCost } from '../../platform/dynamodb/capacity';
import { type MeteredQueryTarget, queryCalls } from '../../platform/dynamodb/metered-query';

/** Index entries a call of the walk reads at most: what a BatchGetItem takes, so each call's ids are one read. */
export const WALK_CALL_ENTRIES = 100;

/** What a walk has cost so far. */
export interface WalkMeter {
  add(read: ReadCost): void;
}

/** The vendor's listable vacancies on `today` (`YYYY-MM-DD` in the service zone), newest first, a call's at a time. */
export async function* listableVacancies(
  index: MeteredQueryTarget,
  items: ItemReaderTarget,
  vendorId: string,
  today: string,
  meter: WalkMeter,
  signal?: AbortSignal,
): AsyncGenerator<FedItem[]> {
  const condition = activeIndexCondition(vendorId, {}, today);
  const calls = queryCalls(
    index,
    () => ({
      ...condition,
      ScanIndexForward: false,
      ProjectionExpression: '#id',
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#id': 'id' },
      Limit: Math.min(WALK_CALL_ENTRIES, index.queryPageSize ?? WALK_CALL_ENTRIES),
    }),
    signal,
  );
  for await (const call of calls) {
    meter.add(call);
    const ids = (call.Items ?? []).map((entry) => unmarshall(entry).id as number);
    if (ids.length === 0) continue;
    const read = await readItems<FedItem>(items, vendorId, ids, ITEM_VIEWS.fed, signal);
    meter.add(read);
    if (read.items.length > 0) yield read.items;
  }
}
