/**
 * The vacancy import, the only write path of vacancies (docs/design.md#writes-the-import). Its guarantees: every
 * record is checked before anything is written, and a rejected record is reported with its line while every
 * other valid one is still imported; an id belongs to the vendor that first stored it, even when two imports
 * race (a conditional put claims it); an interrupted import says what it wrote and which lines it did not, and
 * running the file again completes it; nothing reads the whole table.
 */
import { isDeepStrictEqual } from 'node:util';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { awsFailure, isConditionFailed } from '../../lambda/aws/failure';
import { batchGetItems, capacityUnits, type RetryPolicy } from '../../lambda/dynamodb/batch-get';
import type { TableNames } from '../../lambda/schema/tables';
import type { Vacancy } from '../../lambda/schema/vacancy';
import { toVacancyItem, type VacancyItem } from '../../lambda/schema/vacancy-item';
import type { ZoneClock } from '../../lambda/time/zone-clock';
import type { SourceRecord } from './import-file';
import { validateVacancyRecord } from './vacancy-record';
import { getVendorRecord } from './vendors';

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
  /** Lines of valid records that were not written because the import stopped; running it again writes them. */
  readonly notWritten: readonly number[];
  /** Why the import stopped before the end (a database failure, an interruption); absent when it finished. */
  readonly interrupted?: string;
  readonly dryRun: boolean;
  /** Capacity units DynamoDB reported for the import's writes and reads. */
  readonly writeUnits: number;
  readonly readUnits: number;
}

/** How an import runs. */
export interface ImportOptions {
  /** Reads `created_at` without an offset; absent, such records are refused (the zone is unknown). */
  readonly clock?: ZoneClock | undefined;
  readonly dryRun?: boolean;
  /** Writes done so far, of how many. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops the import cleanly: no new write starts, those under way finish, the report says what is left. */
  readonly signal?: AbortSignal;
  /** Writes in flight at once. */
  readonly concurrency?: number;
}

/** A valid record and the line it came from. */
export interface LinedVacancy {
  readonly line: number;
  readonly vacancy: Vacancy;
}

// As many writes in flight as the SDK's connection pool has sockets (50): an import is bound by the CPU the SDK
// spends per request, and more requests in flight amortise it better (`npm run bench`).
const DEFAULT_CONCURRENCY = 50;
/** Retries of unprocessed keys when reading what is stored: patient, since nobody waits on a request. */
const OPERATOR_RETRY: RetryPolicy = { maxStalls: 8, baseDelayMs: 50, maxDelayMs: 2_000 };

/** Runs `work` over `items` with at most `concurrency` at once; stops starting new ones once `stop()` is true. */
async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Why a failure of DynamoDB stops the import, in one line for the operator (no raw message). */
function describeFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : 'Error';
  return `DynamoDB failed (${name}); nothing more was written`;
}

/**
 * Imports validated vacancies: checks that their vendors exist (one read per distinct vendor) and that no id
 * belongs to another vendor, skips those identical to what is stored, and writes the rest with conditional
 * puts, `concurrency` at a time (the SDK backs off on throttling). A database failure stops the import
 * cleanly; the report lists the lines not written.
 */
export async function writeVacancies(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  entries: readonly LinedVacancy[],
  options: Omit<ImportOptions, 'clock'> = {},
): Promise<Omit<ImportReport, 'dryRun'>> {
  const rejected: Rejection[] = [];
  let readUnits = 0;
  let writeUnits = 0;
  const stopped = (reason: string) => ({
    imported: 0,
    unchanged: 0,
    rejected,
    notWritten: entries.map(({ line }) => line),
    interrupted: reason,
    readUnits,
    writeUnits,
  });

  let known: Map<string, boolean>;
  let stored: Map<number, VacancyItem>;
  try {
    const vendorIds = [...new Set(entries.map(({ vacancy }) => vacancy.vendor_id))];
    known = new Map(
      await Promise.all(
        vendorIds.map(
          async (id) => [id, (await getVendorRecord(client, tables.vendors, id)) !== undefined] as const,
        ),
      ),
    );
    const result = await batchGetItems(
      client,
      tables.vacancies,
      entries.map(({ vacancy }) => ({ id: vacancy.id })),
      { retry: OPERATOR_RETRY, concurrency: 8 },
    );
    readUnits += result.readUnits;
    stored = new Map(result.items.map((item) => [item.id as number, item as unknown as VacancyItem]));
  } catch (error) {
    return stopped(describeFailure(error));
  }

  let unchanged = 0;
  const writes: { line: number; vacancy: Vacancy; item: VacancyItem }[] = [];
  for (const { line, vacancy } of entries) {
    if (!known.get(vacancy.vendor_id)) {
      rejected.push({ line, reasons: [`vendor ${vacancy.vendor_id} does not exist`] });
      continue;
    }
    const current = stored.get(vacancy.id);
    if (current && current.vendorId !== vacancy.vendor_id) {
      rejected.push({ line, reasons: [`id ${vacancy.id} belongs to vendor ${current.vendorId}`] });
      continue;
    }
    const item = toVacancyItem(vacancy);
    if (current && isDeepStrictEqual(current, item)) unchanged += 1;
    else writes.push({ line, vacancy, item });
  }
  if (options.dryRun) {
    return { imported: writes.length, unchanged, rejected, notWritten: [], readUnits, writeUnits };
  }

  let imported = 0;
  let done = 0;
  let interrupted: string | undefined;
  const failed: number[] = [];
  const started = new Set<number>();
  await inPool(
    writes,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async ({ line, vacancy, item }) => {
      started.add(line);
      try {
        // The document client's own PutCommand would marshal the item in a middleware of each call; marshalled
        // here and sent as the plain PutItem, a write costs about a fifth less CPU (`npm run bench`).
        const output = await client.send(
          new PutItemCommand({
            TableName: tables.vacancies,
            Item: marshall(item, { removeUndefinedValues: true }),
            // The claim: a new id, or one this vendor already holds. Atomic, so racing imports cannot both win.
            ConditionExpression: 'attribute_not_exists(id) OR vendorId = :vendor',
            ExpressionAttributeValues: { ':vendor': { S: vacancy.vendor_id } },
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        writeUnits += capacityUnits(output.ConsumedCapacity);
        imported += 1;
      } catch (error) {
        if (isConditionFailed(error)) {
          rejected.push({ line, reasons: [await ownerReason(client, tables.vacancies, vacancy.id)] });
        } else if (awsFailure(error) === 'refused') {
          rejected.push({ line, reasons: [`DynamoDB refused the record (${(error as Error).name})`] });
        } else {
          failed.push(line);
          interrupted ??= describeFailure(error);
        }
      }
      done += 1;
      options.onProgress?.(done, writes.length);
    },
    () => interrupted !== undefined || options.signal?.aborted === true,
  );
  if (interrupted === undefined && options.signal?.aborted)
    interrupted = 'interrupted; nothing more was written';

  const notWritten = [...failed, ...writes.filter(({ line }) => !started.has(line)).map(({ line }) => line)];
  return {
    imported,
    unchanged,
    rejected,
    notWritten: notWritten.sort((a, b) => a - b),
    ...(interrupted && { interrupted }),
    readUnits,
    writeUnits,
  };
}

/** The reason a claim failed: the id was taken by another vendor in the meantime (named when still there). */
async function ownerReason(client: DynamoDBDocumentClient, tableName: string, id: number): Promise<string> {
  try {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: { id }, ProjectionExpression: 'vendorId' }),
    );
    if (Item) return `id ${id} belongs to vendor ${Item.vendorId as string}`;
  } catch {
    // The reason stays less specific; the record is rejected all the same.
  }
  return `id ${id} belongs to another vendor`;
}

/**
 * Imports the records of a file: each is checked against every rule (and ids must be unique within the file);
 * the valid ones go to `writeVacancies`.
 */
export async function importVacancies(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  sources: readonly SourceRecord[],
  options: ImportOptions = {},
): Promise<ImportReport> {
  const rejected: Rejection[] = [];
  const valid: LinedVacancy[] = [];
  const lineOfId = new Map<number, number>();
  for (const source of sources) {
    if (source.unreadable) {
      rejected.push({ line: source.line, reasons: [source.unreadable] });
      continue;
    }
    const result = validateVacancyRecord(source.value, options.clock);
    if (!result.ok) {
      rejected.push({ line: source.line, reasons: result.reasons });
      continue;
    }
    const earlier = lineOfId.get(result.vacancy.id);
    if (earlier !== undefined) {
      rejected.push({
        line: source.line,
        reasons: [`id ${result.vacancy.id} is already given on line ${earlier}`],
      });
      continue;
    }
    lineOfId.set(result.vacancy.id, source.line);
    valid.push({ line: source.line, vacancy: result.vacancy });
  }
  const written = await writeVacancies(client, tables, valid, options);
  return {
    ...written,
    rejected: [...rejected, ...written.rejected].sort((a, b) => a.line - b.line),
    dryRun: Boolean(options.dryRun),
  };
}
