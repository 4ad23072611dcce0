/**
 * The operator's changes to vacancies (docs/operating.md#the-ops-cli, #upkeep): a status, a deletion — addressed by id, the
 * table's key — and the purge of old tombstones, addressed through the change index. Each goes through the writers
 * (`lambda/domain/store/writers.ts`), so it stamps when the vacancy changed and moves its vendor's summary. No Scan, ever.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { settledBefore } from '../../lambda/domain/change-feed/settle';
import { changeKey } from '../../lambda/domain/schema/change-index';
import { CHANGE_INDEX, ITEM, type TableNames } from '../../lambda/domain/schema/tables';
import type { VacancyStatus } from '../../lambda/domain/schema/vacancy';
import {
  expiredIfPast,
  fromVacancyItem,
  isTombstone,
  type StoredItem,
  sameContent,
  toTombstone,
  toVacancyItem,
  type VacancyItem,
} from '../../lambda/domain/schema/vacancy-item';
import type { SummaryGuardTimer } from '../../lambda/domain/store/summary-guard';
import { SummaryStore } from '../../lambda/domain/store/summary-store';
import { VacancyWriters } from '../../lambda/domain/store/writers';
import { queryPages } from '../../lambda/platform/dynamodb/query-all';
import type { ZoneClock } from '../../lambda/platform/time/zone-clock';

/** What a change found and did. */
export type VacancyChange =
  /** Changed: the vacancy as it was, and as it is now. */
  | { readonly changed: VacancyItem; readonly now: StoredItem }
  /** Already so: nothing to write. */
  | { readonly unchanged: VacancyItem }
  | { readonly notFound: true }
  | { readonly otherVendor: string };

/** How a change is made. */
export interface ChangeOptions {
  /** Only if the vacancy is this vendor's. */
  readonly vendorId?: string | undefined;
  /** The service zone's clock: an `active` vacancy past its deadline is recorded `expired`. */
  readonly clock?: ZoneClock | undefined;
  /** The clock of change times (ms); the writers' own unless given. */
  readonly now?: () => number;
  /** The timer of the summary leases' guards (`lambda/domain/store/summary-guard.ts`). */
  readonly guard?: SummaryGuardTimer | undefined;
}

const NOT_FOUND = 'not-found';
const OTHER_VENDOR = 'other-vendor';

/** Runs one decided change of one vacancy through the writers. */
async function change(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  id: number,
  options: ChangeOptions,
  next: (current: VacancyItem, updatedAt: number) => StoredItem,
): Promise<VacancyChange> {
  const writers = new VacancyWriters({
    client,
    tables,
    ...(options.now && { now: options.now }),
    ...(options.guard && { guard: options.guard }),
  });
  try {
    const outcome = await writers.write(id, (current, updatedAt) => {
      if (!current || isTombstone(current)) return { refuse: NOT_FOUND };
      if (options.vendorId !== undefined && current[ITEM.vendor] !== options.vendorId)
        return { refuse: OTHER_VENDOR };
      const after = next(current, updatedAt);
      return !isTombstone(after) && sameContent(current, after) ? { unchanged: true } : { put: after };
    });
    if ('written' in outcome) return { changed: outcome.before as VacancyItem, now: outcome.written };
    if ('unchanged' in outcome) return { unchanged: outcome.unchanged as VacancyItem };
    if ('refused' in outcome && outcome.refused === OTHER_VENDOR) {
      return { otherVendor: (outcome.current as StoredItem)[ITEM.vendor] };
    }
    return { notFound: true };
  } finally {
    await writers.close();
  }
}

/**
 * Changes a vacancy's status; any status but `active` takes it out of the listing, `active` puts it back (as
 * `expired`, when its deadline has passed). With `vendorId`, only that vendor's vacancy is changed.
 */
export function setVacancyStatus(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  id: number,
  status: VacancyStatus,
  options: ChangeOptions = {},
): Promise<VacancyChange> {
  const today = options.clock?.today(new Date());
  return change(client, tables, id, options, (current, updatedAt) => {
    const vacancy = { ...fromVacancyItem(current), status };
    return toVacancyItem(today ? expiredIfPast(vacancy, today) : vacancy, updatedAt);
  });
}

/**
 * Deletes a vacancy, leaving its tombstone: the id stays its vendor's, a sync reports the deletion, and importing it
 * again brings it back. With `vendorId`, only that vendor's.
 */
export function deleteVacancy(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  id: number,
  options: ChangeOptions = {},
): Promise<VacancyChange> {
  return change(client, tables, id, options, (current, updatedAt) =>
    toTombstone(current.id, current[ITEM.vendor], updatedAt),
  );
}

/** What a purge did for one vendor. */
export interface PurgeReport {
  readonly vendorId: string;
  readonly removed: number;
  /** The vendor's purge horizon now (ms): a sync from before it gets 410. */
  readonly purgedBefore: number;
}

/**
 * Removes a vendor's tombstones that changed before `before` (ms), found on the change index (its entries before
 * that time, deletions among them) — never a Scan — and records the vendor's purge horizon: a sync asking for
 * changes from before it is told to start over (410). Each tombstone is removed only if it is still the same
 * tombstone. A later horizon than `before` already recorded is kept.
 *
 * The horizon is at most the index's settle window before now: a sync's snapshot is that far back, and a horizon
 * past it would send the full sync that starts over after a 410 straight to another 410.
 */
export async function purgeTombstones(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
  asked: number,
  options: { readonly now?: () => number; readonly guard?: SummaryGuardTimer | undefined } = {},
): Promise<PurgeReport> {
  // Never before 1970: no change is stamped there, and a change key cannot hold it.
  const before = Math.max(0, Math.min(asked, settledBefore((options.now ?? Date.now)())));
  // The horizon first, then the removals: a sync walking meanwhile is answered 410 on its next page rather than
  // missing a tombstone it was about to read (docs/design.md#incremental-sync). Recorded even where nothing is
  // removed: the vendor's changes before it are gone as far as a sync can tell.
  const horizon = await new SummaryStore(client, tables.vendors).raisePurgeHorizon(vendorId, before);
  const writers = new VacancyWriters({
    client,
    tables,
    ...(options.now && { now: options.now }),
    ...(options.guard && { guard: options.guard }),
  });
  let removed = 0;
  try {
    const tombstones = queryPages(client, {
      TableName: tables.vacancies,
      IndexName: CHANGE_INDEX.name,
      KeyConditionExpression: '#vendor = :vendor AND #change < :before',
      FilterExpression: '#status = :deleted',
      ExpressionAttributeNames: {
        '#vendor': CHANGE_INDEX.partitionKey,
        '#change': CHANGE_INDEX.sortKey,
        '#status': 'status',
      },
      ExpressionAttributeValues: {
        ':vendor': vendorId,
        ':before': changeKey(before, 0),
        ':deleted': 'deleted',
      },
    });
    for await (const entries of tombstones) {
      for (const entry of entries) {
        const outcome = await writers.write(entry.id as number, (current) =>
          current && isTombstone(current) && current[ITEM.updatedAt] < before
            ? { remove: true }
            : { unchanged: true },
        );
        if ('removed' in outcome) removed += 1;
      }
    }
    return { vendorId, removed, purgedBefore: horizon };
  } finally {
    await writers.close();
  }
}
