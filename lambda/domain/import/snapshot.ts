/**
 * Snapshots (docs/operating.md#snapshots): a file that is a vendor's complete set. Its records are imported as
 * usual; then every vacancy of the vendor that is not in it and is `active`, `inactive` or `draft` is closed, through
 * the writers like any change, so a sync sees each closure. The vendor's vacancies are found on the change index
 * (its partition holds every item of the vendor, with its status), never by reading the table.
 *
 * The closing limit keeps a truncated export from emptying a career page: a snapshot that would close more than
 * `maxClosePercent` of the vendor's active vacancies, and more than `HOLD_FLOOR` of them, is held — nothing written.
 * Run again after an interruption, a snapshot ends where an uninterrupted one would: the records already written are
 * unchanged, the vacancies already closed are no longer closable, and the closing limit only gets easier to pass
 * (fewer to close, of at least as many active).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryPages } from '../../platform/dynamodb/query-all';
import { CHANGE_INDEX, ITEM, type TableNames } from '../schema/tables';
import type { VacancyStatus } from '../schema/vacancy';
import { fromVacancyItem, isTombstone, toVacancyItem } from '../schema/vacancy-item';
import {
  checkedRecords,
  type ImportOptions,
  type ImportRecords,
  type ImportReport,
  type LinedVacancy,
  type Rejection,
  runWrites,
  vendorExists,
  writeVacancies,
} from './import';

/** The statuses a snapshot closes when their vacancy is absent from it. */
export const CLOSABLE_STATUSES: ReadonlySet<string> = new Set<VacancyStatus>(['active', 'inactive', 'draft']);
/** A snapshot may always close this many active vacancies, whatever the percentage. */
export const HOLD_FLOOR = 10;

/** How a snapshot runs. */
export interface SnapshotOptions extends ImportOptions {
  /** The vendor whose complete set the file is. */
  readonly vendorId: string;
  /** The most of the vendor's active vacancies it may close, in percent (setting `snapshotMaxClose`). */
  readonly maxClosePercent: number;
}

/** What the closing limit was checked on: how many active vacancies the snapshot closes, of how many, and the limit. */
export interface ClosingLimitCheck {
  readonly activeNow: number;
  readonly activeToClose: number;
  /** Every vacancy it closes: active, inactive and draft ones. */
  readonly toClose: number;
  readonly maxClosePercent: number;
}

/** A snapshot's report: the import's, what it closed, and why it was held when it was. */
export interface SnapshotReport extends ImportReport {
  readonly closed: number;
  /**
   * The closing limit as checked. Named `guard` where it is shown — the inbox's reports and log line, the CLI's
   * `--json` — which platforms and operators read (docs/operating.md#reports).
   */
  readonly guard: ClosingLimitCheck;
  /** Why nothing was written: the closing limit held it. */
  readonly held?: string;
}

/** Whether the closing limit holds a snapshot that closes `activeToClose` of `activeNow` active vacancies. */
export function isHeld(activeToClose: number, activeNow: number, maxClosePercent: number): boolean {
  return activeToClose > HOLD_FLOOR && activeToClose * 100 > activeNow * maxClosePercent;
}

/** The smallest `--max-close` that lets a held snapshot through. */
export function maxCloseNeeded(check: ClosingLimitCheck): number {
  return check.activeNow === 0 ? 100 : Math.ceil((check.activeToClose * 100) / check.activeNow);
}

/** The vendor's vacancies that a snapshot of `ids` would close, and how many of the vendor's are active. */
async function absentVacancies(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
  ids: ReadonlySet<number>,
): Promise<{ absent: { id: number; status: string }[]; activeNow: number }> {
  const absent: { id: number; status: string }[] = [];
  let activeNow = 0;
  const pages = queryPages(client, {
    TableName: tables.vacancies,
    IndexName: CHANGE_INDEX.name,
    KeyConditionExpression: '#vendor = :vendor',
    ProjectionExpression: 'id, #status',
    ExpressionAttributeNames: { '#vendor': CHANGE_INDEX.partitionKey, '#status': 'status' },
    ExpressionAttributeValues: { ':vendor': vendorId },
  });
  for await (const entries of pages) {
    for (const { id, status } of entries as { id: number; status: string }[]) {
      if (status === 'active') activeNow += 1;
      if (CLOSABLE_STATUSES.has(status) && !ids.has(id)) absent.push({ id, status });
    }
  }
  // The index is eventually consistent: a vacancy it does not show yet is closed by the next snapshot.
  return { absent, activeNow };
}

/** Why the closing limit held a snapshot, and how to apply it, in one sentence. */
export function heldReason(vendorId: string, check: ClosingLimitCheck): string {
  const percent = check.activeNow === 0 ? 100 : Math.round((check.activeToClose * 100) / check.activeNow);
  return (
    `this snapshot would close ${check.activeToClose} of ${vendorId}'s ${check.activeNow} active vacancies ` +
    `(${percent} %), more than snapshotMaxClose allows (${check.maxClosePercent} %, and more than ${HOLD_FLOOR}); ` +
    `nothing was written. If the file is complete, apply it with --max-close ${maxCloseNeeded(check)}`
  );
}

/**
 * Applies a snapshot of one vendor: checks every record (one of another vendor is rejected), finds what it would
 * close, holds it if the closing limit says so, else imports its records and closes the absent vacancies. With
 * `dryRun`, says what it would do.
 */
export async function importSnapshot(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  records: ImportRecords,
  options: SnapshotOptions,
): Promise<SnapshotReport> {
  const { vendorId, maxClosePercent } = options;
  const checked = checkedRecords(records, options.clock);
  // Its own list: the same checked records may be imported again (a retry), each time from the file's rejections.
  const fileRejected: Rejection[] = [...checked.rejected];
  const valid: LinedVacancy[] = [];
  // A snapshot's vendor comes from its folder (or --vendor): one that does not exist is said on every line, never
  // left to look like a file of another vendor's records.
  const exists = await vendorExists(client, tables.vendors, vendorId);
  for (const entry of checked.valid) {
    if (!exists)
      fileRejected.push({
        line: entry.line,
        reasons: [`vendor ${vendorId} does not exist: a snapshot of ${vendorId} can import nothing`],
      });
    else if (entry.vacancy.vendor_id === vendorId) valid.push(entry);
    else
      fileRejected.push({
        line: entry.line,
        reasons: [
          `vendor_id is ${entry.vacancy.vendor_id}: a snapshot of ${vendorId} takes only its vacancies`,
        ],
      });
  }
  // Every id the file names (valid or not) is kept: a record refused for a typo must not close its vacancy.
  const named = new Set<number>(checked.namedIds);
  const { absent, activeNow } = await absentVacancies(client, tables, vendorId, named);
  const closingLimit: ClosingLimitCheck = {
    activeNow,
    activeToClose: absent.filter(({ status }) => status === 'active').length,
    toClose: absent.length,
    maxClosePercent,
  };
  const rejected = () => [...fileRejected].sort((a, b) => a.line - b.line);
  if (isHeld(closingLimit.activeToClose, activeNow, maxClosePercent)) {
    return {
      imported: 0,
      unchanged: 0,
      rejected: rejected(),
      warnings: [],
      notWritten: [],
      dryRun: Boolean(options.dryRun),
      readUnits: 0,
      writeUnits: 0,
      summaryWrites: 0,
      closed: 0,
      guard: closingLimit,
      held: heldReason(vendorId, closingLimit),
    };
  }

  const imported = await writeVacancies(client, tables, valid, options);
  const report = { ...imported, rejected: [...fileRejected, ...imported.rejected] };
  if (options.dryRun || imported.interrupted) {
    return {
      ...report,
      rejected: report.rejected.sort((a, b) => a.line - b.line),
      dryRun: Boolean(options.dryRun),
      closed: options.dryRun ? absent.length : 0,
      guard: closingLimit,
    };
  }
  const closing = await runWrites(
    client,
    tables,
    absent.map(({ id }) => ({
      key: id,
      id,
      decide: (current, updatedAt) =>
        current &&
        !isTombstone(current) &&
        current[ITEM.vendor] === vendorId &&
        CLOSABLE_STATUSES.has(current.status)
          ? { put: toVacancyItem({ ...fromVacancyItem(current), status: 'closed' }, updatedAt) }
          : { unchanged: true },
    })),
    options,
  );
  return {
    ...report,
    rejected: report.rejected.sort((a, b) => a.line - b.line),
    dryRun: false,
    readUnits: report.readUnits + closing.readUnits,
    writeUnits: report.writeUnits + closing.writeUnits,
    summaryWrites: report.summaryWrites + closing.summaryWrites,
    closed: closing.written,
    guard: closingLimit,
    ...(closing.interrupted && {
      interrupted: `${closing.interrupted} (while closing absent vacancies: ${closing.notWritten.length} left)`,
    }),
  };
}
