/**
 * One file of the inbox, from `incoming/` to its folder and report (docs/operating.md#the-inbox): the same code for
 * the bucket (`s3-objects.ts`, `handler.ts`) and for the local folder of `npm start -- --inbox`. The import is the
 * CLI's (`lambda/import/`), so a file delivered twice, or put again, changes nothing the second time: every record is
 * then unchanged, and a snapshot has nothing left to close. A failing database is retried here a few times; a file
 * that still cannot be imported goes to `failed/`, and the caller fails the invocation (the `ImportFailing` alarm).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  ImportFileError,
  importFileBytes,
  MAX_FILE_RECORDS,
  parseImportFile,
  type SourceRecord,
} from '../import/file';
import { type ImportReport, importVacancies } from '../import/import';
import { importSnapshot, type SnapshotReport } from '../import/snapshot';
import type { TableNames } from '../schema/tables';
import type { SummaryGuardTimer } from '../store/summary-guard';
import type { ZoneClock } from '../time/zone-clock';
import { type FileOutcomeFolder, type InboxFile, inboxKey, outcomeKey, reportKey } from './layout';
import { type FileReport, fileReport } from './report';

/** Where the inbox's files are: an S3 bucket, or a folder. */
export interface InboxObjects {
  /** An object's bytes; undefined when there is none (another delivery has moved it). */
  read(key: string): Promise<Uint8Array | undefined>;
  write(key: string, body: string): Promise<void>;
  /** Moves an object; false when it was not there (another delivery has moved it). */
  move(from: string, to: string): Promise<boolean>;
}

/** What the inbox works with. */
export interface InboxContext {
  readonly objects: InboxObjects;
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly clock: ZoneClock;
  /** Setting `snapshotMaxClose`, in percent. */
  readonly maxClosePercent: number;
  /** Time left to work (ms): the import stops cleanly before it runs out. Unbounded when absent. */
  readonly remainingMs?: () => number;
  /** Kept back from the remaining time: the file is moved and its report written in it. */
  readonly reserveMs?: number;
  /** Waits before each retry of a failing database; their number is the retries. */
  readonly retryDelaysMs?: readonly number[];
  /** The line logged for each file handled. */
  readonly log?: (report: FileReport) => void;
  /** Writes in flight at once. */
  readonly concurrency?: number;
  /** The timer of the summary leases' guards (`lambda/store/summary-guard.ts`). */
  readonly guard?: SummaryGuardTimer;
}

/**
 * What became of a key: handled (the file's report), not a file of the inbox, already handled by another delivery, or
 * to be tried again by the caller (the time ran out with the import unfinished: the file stays in `incoming/`).
 */
export type InboxOutcome =
  | { readonly handled: FileReport }
  | { readonly ignored: string }
  | { readonly gone: true }
  | { readonly unfinished: FileReport };

/** The retries of a failing database: after 2 s, then 10 s (the SDK has already retried each call). */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An import of the file's records: as a snapshot of its vendor, or a delta. */
function runImport(
  context: InboxContext,
  file: InboxFile,
  sources: readonly SourceRecord[],
  signal: AbortSignal,
): Promise<ImportReport | SnapshotReport> {
  const options = {
    clock: context.clock,
    signal,
    ...(context.concurrency !== undefined && { concurrency: context.concurrency }),
    ...(context.guard && { guard: context.guard }),
  };
  return file.snapshotOf === undefined
    ? importVacancies(context.client, context.tables, sources, options)
    : importSnapshot(context.client, context.tables, sources, {
        ...options,
        vendorId: file.snapshotOf,
        maxClosePercent: context.maxClosePercent,
      });
}

/** A signal that aborts when the time left falls to the reserve. */
function timeSignal(context: InboxContext): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const { remainingMs } = context;
  if (!remainingMs) return { signal: controller.signal, stop: () => {} };
  const left = Math.max(0, remainingMs() - (context.reserveMs ?? 0));
  const timer = setTimeout(() => controller.abort(), left);
  return { signal: controller.signal, stop: () => clearTimeout(timer) };
}

/**
 * Imports the file's records, retrying while the database fails and time is left; the counts add up over the tries
 * (what one try wrote, the next finds unchanged).
 */
async function importWithRetries(
  context: InboxContext,
  file: InboxFile,
  sources: readonly SourceRecord[],
): Promise<{ report: ImportReport | SnapshotReport; written: number; closed: number; outOfTime: boolean }> {
  const delays = context.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let written = 0;
  let closed = 0;
  for (let attempt = 0; ; attempt += 1) {
    const time = timeSignal(context);
    let report: ImportReport | SnapshotReport;
    try {
      report = await runImport(context, file, sources, time.signal);
    } finally {
      time.stop();
    }
    // What earlier tries wrote, this one finds unchanged.
    const unchanged = Math.max(0, report.unchanged - written);
    written += report.imported;
    closed += 'closed' in report ? report.closed : 0;
    const outOfTime = time.signal.aborted;
    const delay = delays[attempt];
    const timeLeft = () => (context.remainingMs?.() ?? Number.POSITIVE_INFINITY) - (context.reserveMs ?? 0);
    if (!report.interrupted || outOfTime || delay === undefined || timeLeft() < delay * 2) {
      return { report: { ...report, unchanged }, written, closed, outOfTime };
    }
    await sleep(delay);
  }
}

/** Moves the file to its folder and writes its report; `gone` when another delivery moved it first. */
async function finish(
  context: InboxContext,
  file: { readonly key: string; readonly path: string },
  folder: FileOutcomeFolder,
  report: FileReport,
): Promise<InboxOutcome> {
  if (!(await context.objects.move(file.key, outcomeKey(folder, file.path)))) return { gone: true };
  await context.objects.write(reportKey(file.path), `${JSON.stringify(report, null, 2)}\n`);
  context.log?.(report);
  return { handled: report };
}

/**
 * The records of a file; undefined when it is gone (another delivery moved it), or why it cannot be read. Its bytes
 * are let go of here, before the import: a file of 100,000 records is hundreds of megabytes.
 */
async function readSources(
  context: InboxContext,
  file: InboxFile,
): Promise<SourceRecord[] | { readonly failed: string } | undefined> {
  const bytes = await context.objects.read(file.key);
  if (!bytes) return undefined;
  try {
    const sources = parseImportFile(importFileBytes(bytes, file.compressed));
    if (sources.length > MAX_FILE_RECORDS) {
      return { failed: `the file has ${sources.length} records, more than ${MAX_FILE_RECORDS}: split it` };
    }
    return sources;
  } catch (error) {
    if (error instanceof ImportFileError) return { failed: error.message };
    throw error;
  }
}

/** Handles one key of the inbox: see the module's comment. */
export async function handleInboxKey(context: InboxContext, key: string): Promise<InboxOutcome> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 10) / 100;
  const read = inboxKey(key);
  if ('ignored' in read) return { ignored: read.ignored };
  if ('refused' in read) {
    return finish(
      context,
      { key, path: read.path },
      'failed',
      fileReport({ path: read.path, failed: read.refused, seconds: seconds() }),
    );
  }
  const { file } = read;
  const sources = await readSources(context, file);
  if (sources === undefined) return { gone: true };
  if (!Array.isArray(sources)) {
    return finish(
      context,
      file,
      'failed',
      fileReport({ path: file.path, file, failed: sources.failed, seconds: seconds() }),
    );
  }

  const { report, written, closed, outOfTime } = await importWithRetries(context, file, sources);
  const folder: FileReport['outcome'] =
    'held' in report && report.held
      ? 'held'
      : !report.interrupted
        ? 'done'
        : outOfTime
          ? 'incoming'
          : 'failed';
  const outcome = fileReport({
    path: file.path,
    file,
    outcome: folder,
    read: sources.length,
    report,
    written,
    closed,
    seconds: seconds(),
  });
  if (folder !== 'incoming') return finish(context, file, folder, outcome);
  // Left in incoming/ for the next try, which writes only what this one did not.
  context.log?.(outcome);
  return { unfinished: outcome };
}
