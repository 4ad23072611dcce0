/**
 * Incremental sync (docs/api.md#incremental-sync, docs/design.md#incremental-sync): the answer to a sync question
 * (the listing's is `listing.ts`) — what changed in a window of the vendor's change
 * index, from `updated_since` to the walk's snapshot time, oldest change first: active vacancies in full and every
 * other one as a tombstone.
 *
 * Every page reads the vendor's summary: it says whether changes from `updated_since` on are still kept
 * (`ChangesPurgedError` if not, on any page of a walk). On the first page it also says — when no writer has let go since `updated_since` and
 * none is at work — that there is nothing to read at all; otherwise the first page counts the window (its `total`)
 * and reads its entries; the cursor of the next page carries the position, the snapshot and the total to the
 * next pages.
 */

import { formatRfc3339 } from '../../platform/time/rfc3339';
import type { ChangeEntry } from '../change-feed/change-index-reader';
import { settledUntil } from '../change-feed/settle';
import type { SyncedItem } from '../reads/item-reader';
import { ReadMeter } from '../reads/read-meter';
import { dayNumber } from '../schema/active-index';
import { changeKey, justAfter, LAST_ID, readChangeKey } from '../schema/change-index';
import { nothingSince } from '../schema/summary';
import { ITEM } from '../schema/tables';
import type { StoredStatus } from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';
import { includedFields } from '../vacancy/pay-and-place';
import { type ShownVacancy, toVacancyObjects } from '../vacancy/presenter';
import { encodeSyncCursor, type SyncCursor } from './cursor';
import { ChangesPurgedError } from './errors';
import { inclusion } from './inclusion';
import type { AnswerCost, AnswerSources, Asked } from './listing';
import { lastPage, type PageFigures, type PageLink } from './pages';
import { type SyncQuery, syncBinding } from './query';

/** An active vacancy in a sync: the vacancy object, then its status and when it last changed, then what `include` asked for. */
export type SyncedVacancy = ShownVacancy & { status: 'active'; updated_at: string };

/** A vacancy a sync reports as no longer listable: deleted, expired, or not active. */
export interface SyncTombstone {
  id: number;
  status: Exclude<StoredStatus, 'active'>;
  updated_at: string;
}

/** A sync's answer: the page's changes, its figures, the next page of the walk, and where the next sync starts. */
export interface SyncAnswer extends PageFigures {
  readonly company: string;
  readonly changes: (SyncedVacancy | SyncTombstone)[];
  /** The next page of the walk, or null on its last. */
  readonly next: PageLink | null;
  /** The walk's snapshot time (ms): the next sync's `updated_since`. */
  readonly snapshot: number;
  readonly locale: Asked['locale'];
  readonly cost: AnswerCost;
}

/** One change as a sync shows it, or undefined when the item has changed again after the snapshot. */
function present(
  entry: ChangeEntry,
  item: SyncedItem | undefined,
  snapshot: number,
  today: number,
): { tombstone: SyncTombstone } | { active: SyncedItem } | undefined {
  if (entry.status !== 'active') {
    const { updatedAt } = readChangeKey(entry.change);
    return { tombstone: { id: entry.id, status: entry.status, updated_at: formatRfc3339(updatedAt) } };
  }
  // Gone (purged), or changed again since this window: the next sync has it.
  if (!item || item[ITEM.updatedAt] > snapshot) return undefined;
  const updatedAt = formatRfc3339(item[ITEM.updatedAt]);
  if (item.status !== 'active') {
    return { tombstone: { id: item.id, status: item.status, updated_at: updatedAt } };
  }
  // Past its deadline and not yet recorded as expired by the job: not listable, so reported expired.
  if (item.deadline === undefined || dayNumber(item.deadline) < today) {
    return { tombstone: { id: item.id, status: 'expired', updated_at: updatedAt } };
  }
  return { active: item };
}

/** Answers a sync question; see the module's comment. Throws `ChangesPurgedError` for changes no longer kept. */
export async function syncVacancies(
  query: SyncQuery,
  asked: Asked,
  sources: AnswerSources,
): Promise<SyncAnswer> {
  const { repository, settings } = sources;
  const { since, vendorId } = query;
  const perPage = query.perPage ?? settings.defaultPerPage;
  const signal = asked.signal;
  const meter = new ReadMeter();
  const cost = meter.add.bind(meter);

  let walk: Omit<SyncCursor, 'position'> & { readonly from: Uint8Array };
  // Every page reads the summary: a purge that started after the walk did — it records its horizon before it
  // removes anything — makes the rest of the walk refused, never a walk that silently misses a deletion.
  const { summary } = cost(await repository.readSummary(vendorId, signal));
  // The full sync's value is never too old; any other from before the vendor's last purge is.
  if (since !== 0 && summary?.purgedBefore !== undefined && since < summary.purgedBefore) {
    throw new ChangesPurgedError(formatRfc3339(summary.purgedBefore));
  }
  if (query.cursor) {
    const { position, snapshot, total } = query.cursor.at;
    walk = { snapshot, total, from: justAfter(position) };
  } else {
    // What may still be reaching the index is left to the next sync: the snapshot is 4 to 5 seconds back, on a whole
    // second, so that polls within a second get the same snapshot (and a poll of it, with nothing changed, the same
    // answer).
    // And while a writer is at work (or one stopped without letting go), not after its lease began: a write of its
    // that lands late — up to the 5 minutes a signed request is valid — is then in a later window, never behind
    // this one (docs/design.md#incremental-sync).
    const snapshot = Math.max(since, settledUntil(asked.now.getTime(), summary));
    const from = changeKey(Math.max(since, 0), 0);
    const total = nothingSince(summary, since)
      ? 0
      : cost(await repository.countChanges({ vendorId, from, to: changeKey(snapshot, LAST_ID), signal }))
          .total;
    walk = { snapshot, total, from };
  }

  const to = changeKey(walk.snapshot, LAST_ID);
  const changes =
    walk.total === 0 && !query.cursor
      ? { entries: [], more: false }
      : cost(await repository.readChanges({ vendorId, from: walk.from, to, limit: perPage, signal }));
  const activeIds = changes.entries.filter((entry) => entry.status === 'active').map((entry) => entry.id);
  const fetched = cost(await repository.readItems(vendorId, activeIds, signal));
  const items = new Map(fetched.items.map((item) => [item.id, item]));

  const today = dayNumber(settings.clock.today(asked.now));
  const shown = changes.entries.flatMap((entry) => {
    const shownAs = present(entry, items.get(entry.id), walk.snapshot, today);
    return shownAs ? [shownAs] : [];
  });
  // The active ones in full: the vacancy object, then the status and when it changed.
  const active = shown.flatMap((one) => ('active' in one ? [one.active as ListedVacancy] : []));
  const objects = toVacancyObjects(active, asked.locale, settings.clock);
  // What `include` asks for comes after the status and when it changed (docs/api.md#pay-and-place).
  const included = inclusion(query.include, settings);
  let next = 0;
  const data = shown.map((one): SyncedVacancy | SyncTombstone => {
    if ('tombstone' in one) return one.tombstone;
    const vacancy = active[next] as ListedVacancy;
    const object = objects[next++];
    return {
      ...object,
      status: 'active',
      updated_at: formatRfc3339(one.active[ITEM.updatedAt]),
      ...(included && includedFields(vacancy, included.include, included.defaults, asked.locale)),
    } as SyncedVacancy;
  });

  const last = changes.entries.at(-1);
  const nextCursor =
    changes.more && last
      ? encodeSyncCursor(
          { position: last.change, snapshot: walk.snapshot, total: walk.total },
          syncBinding(vendorId, since),
        )
      : undefined;
  return {
    company: asked.company,
    changes: data,
    page: query.page,
    perPage,
    total: walk.total,
    lastPage: lastPage(walk.total, perPage),
    next: nextCursor === undefined ? null : { page: query.page + 1, cursor: nextCursor },
    snapshot: walk.snapshot,
    locale: asked.locale,
    cost: { readUnits: meter.readUnits, calls: meter.calls, foreignItems: fetched.foreignItems },
  };
}
