/**
 * The per-vendor summary (docs/design.md#the-summary): an item of the vendors table that counts a vendor's listable
 * vacancies by what the filters need, carries a version that every write of the vendor's vacancies changes, and
 * says whether it can be trusted. Writers keep it with deltas, under a lease each (`domain/store/writers.ts`); readers use
 * it only when it is provably current, and count as before otherwise.
 *
 * This module is the record — its attributes, parsing, and the pure rules of trust; every read and write of the items
 * is in `domain/store/summary-store.ts`, and the protocols that use them are the writers' leases (`domain/store/summary-leases.ts`)
 * and the recount (`domain/store/recount.ts`).
 *
 * Its attributes: `version`; `releasedAt` (stored as `settledAt`), when the last writer let go (ms); `purgedBefore`, the vendor's purge
 * horizon (ms); `broken`, set when a writer lost track; and three families named by prefix — `c<type>.<min>.<max>`
 * counts of active vacancies by type and experience range (max empty when open-ended), `d<day>` counts of active
 * vacancies by deadline day, and `L<writer>` one lease per writer at work, its value when the lease runs out (ms).
 */
import type { VacancyFilters } from './active-index';
import { dayNumber } from './active-index';
import { isTombstone, type StoredItem } from './vacancy-item';

const SUMMARY_KEY_PREFIX = 'summary#';

/** Key of a vendor's summary item. */
export const summaryItemKey = (vendorId: string) => ({ pk: `${SUMMARY_KEY_PREFIX}${vendorId}` });

/** The summary items' keys as an IAM `dynamodb:LeadingKeys` pattern: a grant of them, and of no other item. */
export const SUMMARY_KEY_PATTERN = `${SUMMARY_KEY_PREFIX}*`;

/** The vendor of a summary item, from its key. */
export const vendorOfSummary = (item: { readonly pk?: unknown }) =>
  String(item.pk).slice(SUMMARY_KEY_PREFIX.length);

/** The summary's attributes of one value. */
export const SUMMARY = {
  version: 'version',
  // Stored as `settledAt` (the name of the first data model): when the last writer let go.
  releasedAt: 'settledAt',
  purgedBefore: 'purgedBefore',
  broken: 'broken',
  /**
   * The latest `updated_at` any writer stamped on the vendor's vacancies (ms), raised — never lowered — by each
   * writer before it lets go: what an empty sync is answered from (`nothingSince`), whatever the writers' clocks.
   */
  latestStamp: 'latest',
} as const;

const COUNT = 'c';
const DAY = 'd';
const LEASE = 'L';
const SEQUENCE = 'Q';
const BEGAN = 'B';

/** The count attribute of active vacancies of a type and experience range. */
export const countAttribute = (type: number, min: number, max: number | undefined) =>
  `${COUNT}${type}.${min}.${max ?? ''}`;

/** The count attribute of active vacancies whose deadline is a day (a day number). */
export const dayAttribute = (day: number) => `${DAY}${day}`;

/** The lease attribute of a writer. */
export const leaseAttribute = (writer: string) => `${LEASE}${writer}`;

/** When a writer took its lease (ms, by its clock): its stamps are not earlier (`earliestLeaseStart`). */
export const leaseStartAttribute = (writer: string) => `${BEGAN}${writer}`;

/**
 * The sequence attribute of a writer's lease: how many updates the lease has made (docs/design.md#the-summary).
 * Each update is conditioned on it and moves it on, so an update DynamoDB applied but whose answer came too late —
 * and which the SDK then sent again — is refused the second time, and known by it as applied.
 */
export const sequenceAttribute = (writer: string) => `${SEQUENCE}${writer}`;

/** Changes to a summary's counts, by attribute. */
export type Counts = Map<string, number>;

/**
 * What an item adds to its vendor's counts: one to its type and experience range and one to its deadline day while
 * its status is `active` (listable as long as its deadline has not passed); nothing otherwise.
 */
export function contribution(item: StoredItem | undefined): Counts {
  if (!item || isTombstone(item) || item.status !== 'active') return new Map();
  return new Map([
    [countAttribute(item.type, item.experience_min, item.experience_max), 1],
    [dayAttribute(dayNumber(item.deadline)), 1],
  ]);
}

/** What writing `after` in place of `before` changes in the counts (no zeros). */
export function countsDelta(before: StoredItem | undefined, after: StoredItem | undefined): Counts {
  const delta = new Map(contribution(after));
  for (const [name, value] of contribution(before)) delta.set(name, (delta.get(name) ?? 0) - value);
  for (const [name, value] of delta) if (value === 0) delta.delete(name);
  return delta;
}

/** Adds `more` into `into`. */
export function addCounts(into: Counts, more: Counts): void {
  for (const [name, value] of more) into.set(name, (into.get(name) ?? 0) + value);
}

/** The counts of active vacancies by type and experience range. */
export interface RangeCount {
  readonly type: number;
  readonly min: number;
  /** Undefined: open-ended. */
  readonly max: number | undefined;
  readonly count: number;
}

/** A summary item, read. */
export interface Summary {
  readonly version: number;
  /** When the last writer let go of its lease (ms). */
  readonly releasedAt: number | undefined;
  readonly purgedBefore: number | undefined;
  readonly broken: boolean;
  /** Each lease: its writer and when it runs out (ms). */
  readonly leases: ReadonlyMap<string, number>;
  /** Each writer's update sequence (`sequenceAttribute`), also after it let go, until pruned. */
  readonly sequences: ReadonlyMap<string, number>;
  /** When each lease was taken (ms), while it is there. */
  readonly leaseStarts: ReadonlyMap<string, number>;
  /** The latest stamp written (`SUMMARY.latestStamp`); undefined before any writer recorded one. */
  readonly latestStamp: number | undefined;
  readonly ranges: readonly RangeCount[];
  /** Active vacancies by deadline day (day numbers). */
  readonly days: ReadonlyMap<number, number>;
}

const RANGE = /^c([0-9]+)\.([0-9]+)\.([0-9]*)$/;
const DAY_NAME = /^d([0-9]+)$/;

/** A summary item as read from the table, parsed. */
export function parseSummary(item: Readonly<Record<string, unknown>>): Summary {
  const leases = new Map<string, number>();
  const sequences = new Map<string, number>();
  const leaseStarts = new Map<string, number>();
  const ranges: RangeCount[] = [];
  const days = new Map<number, number>();
  for (const [name, value] of Object.entries(item)) {
    if (typeof value !== 'number') continue;
    if (name.startsWith(LEASE)) {
      leases.set(name.slice(LEASE.length), value);
      continue;
    }
    if (name.startsWith(SEQUENCE)) {
      sequences.set(name.slice(SEQUENCE.length), value);
      continue;
    }
    if (name.startsWith(BEGAN)) {
      leaseStarts.set(name.slice(BEGAN.length), value);
      continue;
    }
    const range = RANGE.exec(name);
    if (range) {
      const [, type, min, max] = range;
      ranges.push({ type: Number(type), min: Number(min), max: max ? Number(max) : undefined, count: value });
      continue;
    }
    const day = DAY_NAME.exec(name);
    if (day) days.set(Number(day[1]), value);
  }
  const number = (name: string) => (typeof item[name] === 'number' ? (item[name] as number) : undefined);
  return {
    version: number(SUMMARY.version) ?? 0,
    releasedAt: number(SUMMARY.releasedAt),
    purgedBefore: number(SUMMARY.purgedBefore),
    broken: item[SUMMARY.broken] === true,
    leases,
    sequences,
    leaseStarts,
    latestStamp: number(SUMMARY.latestStamp),
    ranges,
    days,
  };
}

/**
 * Whether a summary is provably current — its counts exactly the vendor's listable vacancies — at `now` (ms) on
 * the day `today` (`YYYY-MM-DD` in the service zone): no writer at work (no lease, even one run out: its counts may
 * be short), nothing marked broken, the last write older than the index's settle window (so the indexes have it
 * too), and no counted vacancy whose deadline is before today (the expiry job has recorded every expiry).
 */
export function isCurrent(summary: Summary, now: number, today: string, settleMs: number): boolean {
  if (summary.broken || summary.leases.size > 0 || summary.releasedAt === undefined) return false;
  if (summary.releasedAt + settleMs > now) return false;
  const todayNumber = dayNumber(today);
  for (const [day, count] of summary.days) if (day < todayNumber && count !== 0) return false;
  return true;
}

/** How many counted vacancies match a listing's filters (the rules of docs/api.md#query-parameters). */
export function countMatching(summary: Summary, filters: VacancyFilters): number {
  let total = 0;
  for (const { type, min, max, count } of summary.ranges) {
    if (filters.type !== undefined && type !== filters.type) continue;
    if (filters.experienceMin !== undefined && min < filters.experienceMin) continue;
    if (filters.experienceMax !== undefined && (max === undefined || max > filters.experienceMax)) continue;
    total += count;
  }
  return total;
}

/**
 * Whether a summary needs a recount: broken, holding leases that have run out, or never settled by a writer (a
 * vendor nothing has been written for yet — or none at all, when there is no summary).
 */
export function needsRecount(summary: Summary | undefined, now: number, lateWriteMs: number): boolean {
  if (!summary || summary.broken) return true;
  const leases = [...summary.leases.values()];
  if (leases.some((expires) => leaseTakenOver(expires, now, lateWriteMs))) return true;
  return summary.releasedAt === undefined && leases.length === 0;
}

/**
 * Whether a summary proves that no change of the vendor's is stamped at or after `since`: no writer at work, none
 * lost track, and the latest stamp any writer wrote is before `since`. (Not when the last writer let go: writers'
 * clocks differ, and one that let go last may have a clock behind the stamps of one that let go before it.)
 */
export function nothingSince(summary: Summary | undefined, since: number): boolean {
  return (
    summary !== undefined &&
    !summary.broken &&
    summary.leases.size === 0 &&
    summary.latestStamp !== undefined &&
    summary.latestStamp < since
  );
}

/**
 * Whether a lease that runs out at `expires` may be taken over at `now`: once it has run out and every write sent
 * under it has landed or never will (`lateWriteMs`: `LATE_WRITE_MS` of `domain/settings/recovery-waits.ts`).
 */
export function leaseTakenOver(expires: number, now: number, lateWriteMs: number): boolean {
  return expires + lateWriteMs <= now;
}

/**
 * The earliest time a writer at work — or one that stopped without letting go — may still stamp a change that has
 * not reached the index: the start of its lease (undefined when no lease is there). A sync hands out no snapshot
 * after it (docs/design.md#incremental-sync), so a write that lands late is in a later sync's window, never behind
 * one already handed out.
 */
export function earliestLeaseStart(summary: Summary | undefined): number | undefined {
  if (!summary || summary.leases.size === 0) return undefined;
  const starts = [...summary.leases.keys()].map((writer) => summary.leaseStarts.get(writer) ?? 0);
  return Math.min(...starts);
}
