/**
 * One file of the inbox, from `incoming/` to its folder and report (docs/operating.md#the-inbox): the same code for
 * the bucket (`s3-objects.ts`, `handler.ts`) and for the local folder of `npm start -- --inbox`. The import is the
 * CLI's (`lambda/domain/import/`), so a file delivered twice, or put again, changes nothing the second time: every record is
 * then unchanged, and a snapshot has nothing left to close. A failing database is retried here a few times; a file
 * that still cannot be imported goes to `failed/`, and the caller fails the invocation (the `ImportFailing` alarm); so
 * it does for a file whose every record was rejected, which is in `done/` with the outcome `rejected`.
 *
 * A file is read once, as a stream, from the object opened when it was picked up, within the limits of a file
 * (docs/design.md#hostile-files): whatever its bytes, it ends in `done/`, `failed/` or `held/` with a report written
 * under the name it was picked up by.
 */
import { createHash, type Hash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ImportFileError } from '../../domain/import/errors';
import { type ImportLimits, readImportFile } from '../../domain/import/file';
import {
  type CheckedRecords,
  checkRecords,
  type ImportReport,
  importVacancies,
} from '../../domain/import/import';
import { importSnapshot, type SnapshotReport } from '../../domain/import/snapshot';
import type { TableNames } from '../../domain/schema/tables';
import type { SummaryGuardTimer } from '../../domain/store/summary-guard';
import type { ZoneClock } from '../../platform/time/zone-clock';
import { ObjectReadError } from './errors';
import { type FileOutcomeFolder, type InboxFile, inboxKey, outcomeKey, reportKey } from './layout';
import { type FileOutcome, type FileReport, fileReport, outcomeFolder } from './report';

/**
 * An object of the inbox opened for reading: the very bytes picked up, read once, whatever happens to its name
 * meanwhile (docs/operating.md#reports).
 */
export interface OpenedObject {
  /** Its bytes, as they are read. */
  readonly body: AsyncIterable<Uint8Array>;
  /** What tells this object apart from another put under the same name, or the same one put again. */
  readonly version: string;
  /** Lets go of it; called once the body is read, or given up. */
  close(): Promise<void>;
}

/** Where the inbox's files are: an S3 bucket, or a folder. */
export interface InboxObjects {
  /**
   * Opens an object: undefined when there is none (another delivery has moved it); `refused` when it is not a file
   * the inbox reads (locally: anything but a regular file), with why.
   */
  open(key: string): Promise<OpenedObject | { readonly refused: string } | undefined>;
  write(key: string, body: string): Promise<void>;
  /** Moves an object; false when it was not there (another delivery has moved it, or it was renamed). */
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
  /** Setting `jobCountry`: in the EU, a listable vacancy without pay is warned of in the report. */
  readonly jobCountry?: string;
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
  /** Stops the import cleanly (the process is stopping): the file stays in `incoming/` for the next start. */
  readonly signal?: AbortSignal;
  /** The limits of a file; `IMPORT_LIMITS` unless a test shortens them. */
  readonly limits?: ImportLimits;

  /** The timer of the summary leases' guards (`lambda/domain/store/summary-guard.ts`). */
  readonly guard?: SummaryGuardTimer;
}

/**
 * What became of a key: handled (the file's report), not a file of the inbox, already handled by another delivery, or
 * to be tried again (the time ran out, or the process is stopping, with the import unfinished: the file stays in
 * `incoming/`).
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
  records: ReadRecords,
  signal: AbortSignal,
): Promise<ImportReport | SnapshotReport> {
  const options = {
    clock: context.clock,
    signal,
    mark: records.mark,
    jobCountry: context.jobCountry,
    ...(context.concurrency !== undefined && { concurrency: context.concurrency }),
    ...(context.guard && { guard: context.guard }),
  };
  return file.snapshotOf === undefined
    ? importVacancies(context.client, context.tables, records.checked, options)
    : importSnapshot(context.client, context.tables, records.checked, {
        ...options,
        vendorId: file.snapshotOf,
        maxClosePercent: context.maxClosePercent,
      });
}

/** A signal that aborts when the time left falls to the reserve, or the process stops. */
function timeSignal(context: InboxContext): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const signal = context.signal ? AbortSignal.any([controller.signal, context.signal]) : controller.signal;
  const { remainingMs } = context;
  if (!remainingMs) return { signal, stop: () => {} };
  const left = Math.max(0, remainingMs() - (context.reserveMs ?? 0));
  const timer = setTimeout(() => controller.abort(), left);
  return { signal, stop: () => clearTimeout(timer) };
}

/**
 * Imports the file's records, retrying while the database fails and time is left. Every try carries the file's mark,
 * so each counts as written what the tries before it wrote (and what an earlier run, interrupted, did); what the
 * snapshot's tries closed adds up.
 */
async function importWithRetries(
  context: InboxContext,
  file: InboxFile,
  records: ReadRecords,
): Promise<{ report: ImportReport | SnapshotReport; closed: number; outOfTime: boolean }> {
  const delays = context.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let closed = 0;
  for (let attempt = 0; ; attempt += 1) {
    const time = timeSignal(context);
    let report: ImportReport | SnapshotReport;
    try {
      report = await runImport(context, file, records, time.signal);
    } finally {
      time.stop();
    }
    closed += 'closed' in report ? report.closed : 0;
    const outOfTime = time.signal.aborted;
    const delay = delays[attempt];
    const timeLeft = () => (context.remainingMs?.() ?? Number.POSITIVE_INFINITY) - (context.reserveMs ?? 0);
    if (!report.interrupted || outOfTime || delay === undefined || timeLeft() < delay * 2) {
      return { report, closed, outOfTime };
    }
    await sleep(delay);
  }
}

/**
 * Moves the file to its folder and writes its report, under the name it was picked up by: also when it is no longer
 * there to move (renamed or removed while it was imported), which the report then says.
 */
async function finish(
  context: InboxContext,
  file: { readonly key: string; readonly path: string },
  folder: FileOutcomeFolder,
  report: FileReport,
): Promise<InboxOutcome> {
  const moved = await context.objects.move(file.key, outcomeKey(folder, file.path));
  const written: FileReport = moved
    ? report
    : {
        ...report,
        notMoved: `the file was no longer under incoming/ when it was imported (renamed or removed meanwhile): it is not in ${folder}/`,
      };
  await context.objects.write(reportKey(file.path), `${JSON.stringify(written, null, 2)}\n`);
  context.log?.(written);
  return { handled: written };
}

/** The file's records, checked as they were read, and the file's mark (`ImportOptions.mark`). */
interface ReadRecords {
  readonly checked: CheckedRecords;
  readonly mark: string;
}

/** The body's bytes as they are read, added to `hash`; a failure to read them is an `ObjectReadError`. */
async function* hashedBody(body: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  let ended = false;
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        ended = true;
        throw new ObjectReadError('The object could not be read', { cause: error });
      }
      if (next.done) {
        ended = true;
        return;
      }
      hash.update(next.value);
      yield next.value;
    }
  } finally {
    // The reading stopped early (a limit): the body is let go of at once, not read to its end.
    if (!ended) await chunks.return?.();
  }
}

/**
 * Reads and checks the records of an opened file, streaming (docs/design.md#hostile-files): its bytes and parsed
 * records are let go of as each is checked. This is the file's error boundary: a file past a limit, or whose bytes
 * break the reading in any way, is refused (`failed`), whatever it holds; only a failure to read the object is thrown.
 */
async function readRecords(
  context: InboxContext,
  file: InboxFile,
  opened: OpenedObject,
): Promise<ReadRecords | { readonly failed: string }> {
  const hash = createHash('sha256');
  try {
    const sources = readImportFile(hashedBody(opened.body, hash), {
      compressed: file.compressed,
      ...(context.limits && { limits: context.limits }),
    });
    const checked = await checkRecords(sources, context.clock);
    // The file as picked up: its name, its version, its bytes. Another attempt at the same file has the same mark.
    const mark = createHash('sha256')
      .update(`${file.key}\n${opened.version}\n${hash.digest('hex')}`)
      .digest('base64url')
      .slice(0, 16);
    return { checked, mark };
  } catch (error) {
    if (error instanceof ImportFileError) return { failed: error.message };
    if (error instanceof ObjectReadError) throw error.cause;
    return { failed: `the file could not be read (${error instanceof Error ? error.name : 'an error'})` };
  }
}

/** Handles one key of the inbox: see the module's comment. */
export async function handleInboxKey(context: InboxContext, key: string): Promise<InboxOutcome> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 10) / 100;
  const read = inboxKey(key);
  if ('ignored' in read) return { ignored: read.ignored };
  if ('refused' in read) {
    // Nothing was picked up: when the file is gone, another delivery has reported it.
    if (!(await context.objects.move(key, outcomeKey('failed', read.path)))) return { gone: true };
    const report = fileReport({ path: read.path, failed: read.refused, seconds: seconds() });
    await context.objects.write(reportKey(read.path), `${JSON.stringify(report, null, 2)}\n`);
    context.log?.(report);
    return { handled: report };
  }
  const { file } = read;
  const opened = await context.objects.open(key);
  if (opened === undefined) return { gone: true };
  if ('refused' in opened) {
    return finish(
      context,
      file,
      'failed',
      fileReport({ path: file.path, file, failed: opened.refused, seconds: seconds() }),
    );
  }
  let records: ReadRecords | { readonly failed: string };
  try {
    records = await readRecords(context, file, opened);
  } finally {
    await opened.close();
  }
  if ('failed' in records) {
    return finish(
      context,
      file,
      'failed',
      fileReport({ path: file.path, file, failed: records.failed, seconds: seconds() }),
    );
  }

  const { report, closed, outOfTime } = await importWithRetries(context, file, records);
  const { read: recordsRead } = records.checked;
  const outcome: FileOutcome =
    'held' in report && report.held
      ? 'held'
      : report.interrupted
        ? outOfTime
          ? 'incoming'
          : 'failed'
        : recordsRead > 0 && report.rejected.length === recordsRead
          ? 'rejected'
          : 'done';
  const folder = outcomeFolder(outcome);
  const fileOutcome = fileReport({
    path: file.path,
    file,
    outcome,
    read: recordsRead,
    report,
    written: report.imported,
    closed,
    seconds: seconds(),
  });
  if (folder !== 'incoming') return finish(context, file, folder, fileOutcome);
  // Left in incoming/ for the next try, which writes only what this one did not (and counts it all written).
  context.log?.(fileOutcome);
  return { unfinished: fileOutcome };
}
