/**
 * The vacancy import (docs/design.md#writes-the-import). Its guarantees: every record is checked before anything is
 * written, and a rejected record is reported with its line while every other valid one is still imported; an id
 * belongs to the vendor that first stored it, even when two imports race (a conditional put claims it); an
 * interrupted import says what it wrote and which lines it did not, and running the file again completes it;
 * every write stamps when the vacancy changed and moves its vendor's summary; nothing reads the whole table.
 */
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { awsFailure } from '../../platform/aws/failure';
import type { RetryPolicy } from '../../platform/dynamodb/backoff';
import { batchGetItems } from '../../platform/dynamodb/batch-get';
import type { ZoneClock } from '../../platform/time/zone-clock';
import { ITEM, type TableNames } from '../schema/tables';
import type { Vacancy } from '../schema/vacancy';
import { expiredIfPast, type StoredItem, sameContent, toVacancyItem } from '../schema/vacancy-item';
import { vendorItemKey } from '../schema/vendors';
import { SummaryLeaseLostError } from '../store/errors';
import { inPool } from '../store/pool';
import type { SummaryGuardTimer } from '../store/summary-guard';
import { type Decide, isMarkedWrite, VacancyWriters } from '../store/writers';
import type { SourceRecord } from './file';
import { validateVacancyRecord } from './record';
import { payWarnings, type Warning } from './warnings';

/** A record that was not imported, and why. */
export interface Rejection {
  readonly line: number;
  readonly reasons: readonly string[];
}

/** What an import did (or, with `dryRun`, would do). */
export interface ImportReport {
  /** Records written (or, on a dry run, that would be). */
  readonly imported: number;
  /** Valid records identical to what is stored: not written again. */
  readonly unchanged: number;
  readonly rejected: readonly Rejection[];
  /** What the import took but warns of (a listable vacancy without pay in the EU): never a refusal. */
  readonly warnings: readonly Warning[];
  /** Lines of valid records that were not written because the import stopped; running it again writes them. */
  readonly notWritten: readonly number[];
  /** Why the import stopped before the end (a database failure, an interruption); absent when it finished. */
  readonly interrupted?: string;
  readonly dryRun: boolean;
  /** Capacity units DynamoDB reported for the import's writes and reads. */
  readonly writeUnits: number;
  readonly readUnits: number;
  /** Updates of vendors' summaries among the writes: a few per vendor, however many records. */
  readonly summaryWrites: number;
}

/** How an import runs. */
export interface ImportOptions {
  /**
   * The service zone's clock: reads `created_at` without an offset (absent, such records are refused), and says
   * what day it is (an active record past its deadline is stored expired).
   */
  readonly clock?: ZoneClock | undefined;
  readonly dryRun?: boolean;
  /** Writes done so far, of how many. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops the import cleanly: no new write starts, those under way finish, the report says what is left. */
  readonly signal?: AbortSignal;
  /** Writes in flight at once. */
  readonly concurrency?: number;
  /** The clock of change times (ms); the writers' own (`lambda/domain/store/clock.ts`) unless given. */
  readonly now?: () => number;
  /**
   * The file's mark (docs/design.md#hostile-files): every write of the import carries it, and a record found as an
   * earlier attempt at the same file wrote it counts as written, not unchanged — so that an import resumed after an
   * interruption reports all that the file changed. Absent, `written` is what this run wrote.
   */
  readonly mark?: string;
  /** The timer of the summary leases' guards (`lambda/domain/store/summary-guard.ts`). */
  readonly guard?: SummaryGuardTimer | undefined;
  /** The deployment's `jobCountry`: in the EU, a listable vacancy without pay is warned of. None when unknown. */
  readonly jobCountry?: string | undefined;
}

/** A valid record and the line it came from. */
export interface LinedVacancy {
  readonly line: number;
  readonly vacancy: Vacancy;
}

// As many writes in flight as the SDK's connection pool has sockets (50): an import is bound by the CPU the SDK
// spends per request, and more requests in flight amortise it better (`npm run bench`).
const DEFAULT_CONCURRENCY = 50;
const DAY_MS = 86_400_000;
/** Retries of unprocessed keys when reading what is stored: patient, since nobody waits on a request. */
const OPERATOR_RETRY: RetryPolicy = { maxStalls: 8, baseDelayMs: 50, maxDelayMs: 2_000 };

/** Whether a vendor exists: read strongly, as an operator who just added it expects. */
export async function vendorExists(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
): Promise<boolean> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: vendorItemKey(vendorId),
      ConsistentRead: true,
      ProjectionExpression: 'vendorId',
    }),
  );
  return Item !== undefined;
}

/** Why a failure stops the import, in one line for the operator (no raw message). */
function describeFailure(error: unknown): string {
  if (error instanceof SummaryLeaseLostError) {
    return `DynamoDB was too slow to keep vendor ${error.vendorId}'s counts (its lease ran out); nothing more was written`;
  }
  const name = error instanceof Error ? error.name : 'Error';
  return `DynamoDB failed (${name}); nothing more was written`;
}

/**
 * What a record makes of the item stored under its id: refused when the id is another vendor's (a tombstone keeps
 * it its vendor's), unchanged when nothing a client can see would change, else written — as `expired` when it is
 * active and its deadline has passed already.
 */
function importDecision(vacancy: Vacancy, today: string): Decide {
  return (current, updatedAt) => {
    if (current && current[ITEM.vendor] !== vacancy.vendor_id) {
      return { refuse: `id ${vacancy.id} belongs to vendor ${current[ITEM.vendor]}` };
    }
    const next = toVacancyItem(expiredIfPast(vacancy, today), updatedAt);
    return current && sameContent(current, next) ? { unchanged: true } : { put: next };
  };
}

/**
 * Imports validated vacancies: checks that their vendors exist (one read per distinct vendor), reads what is stored
 * under their ids, skips those identical to it, and writes the rest through the writers (`lambda/domain/store/writers.ts`)
 * — each write on the condition that the item is as read, so that an id is claimed by exactly one vendor and every
 * vendor's summary moves by exactly what was written — `concurrency` at a time (the SDK backs off on throttling). A
 * database failure stops the import cleanly, what was written is still counted, and the report lists the lines
 * not written.
 */
export async function writeVacancies(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  entries: readonly LinedVacancy[],
  options: ImportOptions = {},
): Promise<Omit<ImportReport, 'dryRun'>> {
  const rejected: Rejection[] = [];
  let readUnits = 0;
  const stopped = (reason: string) => ({
    imported: 0,
    unchanged: 0,
    rejected,
    warnings: [],
    notWritten: entries.map(({ line }) => line),
    interrupted: reason,
    readUnits,
    writeUnits: 0,
    summaryWrites: 0,
  });

  let known: Map<string, boolean>;
  let stored: Map<number, StoredItem>;
  try {
    const vendorIds = [...new Set(entries.map(({ vacancy }) => vacancy.vendor_id))];
    known = new Map(
      await Promise.all(
        vendorIds.map(async (id) => [id, await vendorExists(client, tables.vendors, id)] as const),
      ),
    );
    const result = await batchGetItems(
      client,
      tables.vacancies,
      entries.map(({ vacancy }) => ({ id: vacancy.id })),
      { retry: OPERATOR_RETRY, concurrency: 8 },
    );
    readUnits += result.readUnits;
    stored = new Map(result.items.map((item) => [item.id as number, item as unknown as StoredItem]));
  } catch (error) {
    return stopped(describeFailure(error));
  }

  const now = options.now ?? Date.now;
  // Without the service zone, the day before today in UTC: a deadline before it has passed in every zone.
  const today = options.clock?.today(new Date(now())) ?? new Date(now() - DAY_MS).toISOString().slice(0, 10);
  let unchanged = 0;
  /** Records an earlier attempt at the same file wrote: written, by the file. */
  let writtenBefore = 0;
  const writes: { line: number; vacancy: Vacancy; decide: Decide }[] = [];
  const taken: LinedVacancy[] = [];
  for (const { line, vacancy } of entries) {
    if (!known.get(vacancy.vendor_id)) {
      rejected.push({ line, reasons: [`vendor ${vacancy.vendor_id} does not exist`] });
      continue;
    }
    const decide = importDecision(vacancy, today);
    // Decided here on what was read; decided again at the write if the item changed meanwhile.
    const decision = decide(stored.get(vacancy.id), now());
    if ('refuse' in decision) {
      rejected.push({ line, reasons: [decision.refuse] });
      continue;
    }
    taken.push({ line, vacancy });
    if ('unchanged' in decision) {
      if (options.mark !== undefined && isMarkedWrite(stored.get(vacancy.id), options.mark))
        writtenBefore += 1;
      else unchanged += 1;
    } else writes.push({ line, vacancy, decide });
  }
  const warnings = payWarnings(taken, options.jobCountry, today);
  if (options.dryRun) {
    return {
      imported: writes.length + writtenBefore,
      unchanged,
      rejected,
      warnings,
      notWritten: [],
      readUnits,
      writeUnits: 0,
      summaryWrites: 0,
    };
  }

  const outcome = await runWrites(
    client,
    tables,
    writes.map(({ line, vacancy, decide }) => ({
      key: line,
      id: vacancy.id,
      decide,
      current: stored.get(vacancy.id) ?? null,
    })),
    options,
  );
  for (const { key, reason } of outcome.refused) rejected.push({ line: key, reasons: [reason] });
  const refusedAtWrite = new Set(outcome.refused.map(({ key }) => key));
  return {
    imported: writtenBefore + outcome.written,
    unchanged: unchanged + outcome.unchanged,
    rejected,
    warnings: warnings.filter(({ line }) => !refusedAtWrite.has(line)),
    notWritten: outcome.notWritten,
    ...(outcome.interrupted && { interrupted: outcome.interrupted }),
    readUnits: readUnits + outcome.readUnits,
    writeUnits: outcome.writeUnits,
    summaryWrites: outcome.summaryWrites,
  };
}

/** One write to make: `key` names it in the outcome (a line of the file, or an id). */
export interface PlannedWrite {
  readonly key: number;
  readonly id: number;
  readonly decide: Decide;
  /** The item as last read (null: none); read at the write when undefined. */
  readonly current?: StoredItem | null;
}

/** What a run of planned writes did. */
export interface WritesOutcome {
  /** Writes made; with a `mark`, also the items found as an earlier run under the same mark wrote them. */
  readonly written: number;
  readonly unchanged: number;
  /** Writes refused: by their decision (the item had become another vendor's), or by DynamoDB. */
  readonly refused: readonly { readonly key: number; readonly reason: string }[];
  /** Keys of writes not made because the run stopped, sorted. */
  readonly notWritten: readonly number[];
  readonly interrupted?: string;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly summaryWrites: number;
}

/**
 * Makes planned writes through one run of the writers (`lambda/domain/store/writers.ts`), `concurrency` at a time (the SDK
 * backs off on throttling). A database failure, or the signal, stops the run cleanly: no new write starts, what was
 * written is still counted in its vendors' summaries, and the outcome lists what was not written.
 */
export async function runWrites(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  planned: readonly PlannedWrite[],
  options: Pick<ImportOptions, 'now' | 'concurrency' | 'signal' | 'onProgress' | 'mark' | 'guard'> = {},
): Promise<WritesOutcome> {
  const { mark } = options;
  const writers = new VacancyWriters({
    client,
    tables,
    ...(options.now && { now: options.now }),
    ...(mark !== undefined && { mark }),
    ...(options.guard && { guard: options.guard }),
  });
  let written = 0;
  let unchanged = 0;
  let done = 0;
  let interrupted: string | undefined;
  const refused: { key: number; reason: string }[] = [];
  const failed: number[] = [];
  const started = new Set<number>();
  try {
    await inPool(
      planned,
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async ({ key, id, decide, current }) => {
        started.add(key);
        try {
          const outcome = await writers.write(id, decide, current);
          if ('written' in outcome || 'removed' in outcome) written += 1;
          // Found as an earlier attempt at the same file wrote it: the file's write.
          else if ('unchanged' in outcome && mark !== undefined && isMarkedWrite(outcome.unchanged, mark))
            written += 1;
          else if ('unchanged' in outcome) unchanged += 1;
          else refused.push({ key, reason: outcome.refused });
        } catch (error) {
          if (awsFailure(error) === 'refused') {
            refused.push({ key, reason: `DynamoDB refused the record (${(error as Error).name})` });
          } else {
            failed.push(key);
            interrupted ??= describeFailure(error);
          }
        }
        done += 1;
        options.onProgress?.(done, planned.length);
      },
      () => interrupted !== undefined || options.signal?.aborted === true,
    );
  } finally {
    try {
      // What was written is counted in its vendors' summaries, whatever stopped the run.
      await writers.close();
    } catch (error) {
      interrupted ??= describeFailure(error);
    }
  }
  if (interrupted === undefined && options.signal?.aborted)
    interrupted = 'interrupted; nothing more was written';
  const notWritten = [...failed, ...planned.filter(({ key }) => !started.has(key)).map(({ key }) => key)];
  return {
    written,
    unchanged,
    refused,
    notWritten: notWritten.sort((a, b) => a - b),
    ...(interrupted && { interrupted }),
    readUnits: writers.readUnits,
    writeUnits: writers.writeUnits,
    summaryWrites: writers.summaryWrites,
  };
}

/** The records of a file, checked: the valid ones, the rejected ones, and every id the file names. */
export interface CheckedRecords {
  /** Records read (every record of the file, readable or not). */
  readonly read: number;
  readonly valid: LinedVacancy[];
  readonly rejected: Rejection[];
  /** The ids of every record that gives one as an integer, valid or not. */
  readonly namedIds: number[];
}

/**
 * How much of a rejection's reasons is kept: a line may break a rule thousands of times (a record of a million unknown
 * fields), and every rejection is held until the report is written (docs/design.md#hostile-files).
 */
const KEPT_REASON_CHARACTERS = 1_000;
/** Distinct reasons shared rather than repeated: a file of the same bad line 100,000 times holds its reasons once. */
const SHARED_REASONS = 10_000;

/** Keeps rejections' reasons small: at most `KEPT_REASON_CHARACTERS` of them, and the same reasons held once. */
class ReasonsKept {
  readonly #shared = new Map<string, readonly string[]>();

  kept(reasons: readonly string[]): readonly string[] {
    const kept: string[] = [];
    let room = KEPT_REASON_CHARACTERS;
    for (const reason of reasons) {
      if (room <= 0) {
        kept.push(`and ${reasons.length - kept.length} more`);
        break;
      }
      kept.push(reason.length > room ? `${reason.slice(0, room)}…` : reason);
      room -= reason.length;
    }
    const key = kept.join('\n');
    const shared = this.#shared.get(key);
    if (shared) return shared;
    if (this.#shared.size < SHARED_REASONS) this.#shared.set(key, kept);
    return kept;
  }
}

/**
 * Checks records one at a time, as they are read, against every rule (ids must be unique within the file), keeping
 * only what the import needs: each valid vacancy and each rejection — never a record's parsed value.
 */
export class RecordChecker {
  readonly #clock: ZoneClock | undefined;
  readonly #lineOfId = new Map<number, number>();
  readonly #reasons = new ReasonsKept();
  readonly #checked = {
    read: 0,
    valid: [] as LinedVacancy[],
    rejected: [] as Rejection[],
    namedIds: [] as number[],
  };

  constructor(clock?: ZoneClock) {
    this.#clock = clock;
  }

  /** Checks the next record of the file. */
  add(source: SourceRecord): void {
    const { valid, rejected, namedIds } = this.#checked;
    this.#checked.read += 1;
    if (source.unreadable) {
      rejected.push({ line: source.line, reasons: this.#reasons.kept([source.unreadable]) });
      return;
    }
    const id = (source.value as { id?: unknown } | null)?.id;
    if (Number.isSafeInteger(id)) namedIds.push(id as number);
    const result = validateVacancyRecord(source.value, this.#clock);
    if (!result.ok) {
      rejected.push({ line: source.line, reasons: this.#reasons.kept(result.reasons) });
      return;
    }
    const earlier = this.#lineOfId.get(result.vacancy.id);
    if (earlier !== undefined) {
      rejected.push({
        line: source.line,
        reasons: [`id ${result.vacancy.id} is already given on line ${earlier}`],
      });
      return;
    }
    this.#lineOfId.set(result.vacancy.id, source.line);
    valid.push({ line: source.line, vacancy: result.vacancy });
  }

  /** What the records checked so far came to. */
  get checked(): CheckedRecords {
    return this.#checked;
  }
}

/** Checks each record against every rule; ids must be unique within the file. */
export function validateRecords(sources: Iterable<SourceRecord>, clock?: ZoneClock): CheckedRecords {
  const checker = new RecordChecker(clock);
  for (const source of sources) checker.add(source);
  return checker.checked;
}

/**
 * Checks the records of a file as they are read (`readImportFile`): the file's bytes and parsed records are let go
 * of as soon as each is checked. Throws what the reading throws (an `ImportFileError` for a file past a limit).
 */
export async function checkRecords(
  sources: AsyncIterable<SourceRecord>,
  clock?: ZoneClock,
): Promise<CheckedRecords> {
  const checker = new RecordChecker(clock);
  for await (const source of sources) checker.add(source);
  return checker.checked;
}

/** Records as an import takes them: read into memory, or already checked as they were read (`checkRecords`). */
export type ImportRecords = readonly SourceRecord[] | CheckedRecords;

/** The records checked: checked here when they are not yet. */
export const checkedRecords = (records: ImportRecords, clock?: ZoneClock): CheckedRecords =>
  'valid' in records ? records : validateRecords(records, clock);

/**
 * Imports the records of a file: each is checked against every rule (and ids must be unique within the file);
 * the valid ones go to `writeVacancies`.
 */
export async function importVacancies(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  records: ImportRecords,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const { valid, rejected } = checkedRecords(records, options.clock);
  const written = await writeVacancies(client, tables, valid, options);
  return {
    ...written,
    rejected: [...rejected, ...written.rejected].sort((a, b) => a.line - b.line),
    dryRun: Boolean(options.dryRun),
  };
}
