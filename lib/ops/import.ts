import { isDeepStrictEqual } from 'node:util';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../../lambda/shared/dynamodb';
import { toVacancyItem, validateVacancyRecord } from '../../lambda/vacancies/record';
import type { VacancyRecord } from '../../lambda/vacancies/types';
import type { TableNames } from '../create-tables';
import { OPERATOR_RETRY } from './batch-write';
import { putVacancyRecords, vendorsOfVacancyIds } from './vacancies';

/** One record of an import file and the line it starts on. */
export interface SourceRecord {
  readonly line: number;
  /** The parsed value, or the JSON syntax error of that line (NDJSON). */
  readonly value?: unknown;
  readonly syntaxError?: string;
}

/** A record that was not imported, and why. */
export interface Rejection {
  readonly line: number;
  readonly reasons: readonly string[];
}

/** What an import did (or, with `dryRun`, would do). */
export interface ImportReport {
  readonly imported: number;
  readonly unchanged: number;
  readonly rejected: readonly Rejection[];
  readonly dryRun: boolean;
}

/** Line (from 1) at each offset where a top-level array element starts, found by scanning the JSON text. */
function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectingValue = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\n') line += 1;
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue;
    if (depth === 1 && expectingValue && char !== ']') {
      lines.push(line);
      expectingValue = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth += 1;
      if (depth === 1) expectingValue = true;
    } else if (char === ']' || char === '}') depth -= 1;
    else if (char === ',' && depth === 1) expectingValue = true;
  }
  return lines;
}

/**
 * The records of an import file: a JSON array (each element with the line it starts on), or NDJSON — one
 * record a line, blank lines skipped, a line that is not JSON reported as such. A file that starts like an
 * array but is not valid JSON is rejected as a whole.
 */
export function parseImportFile(text: string): SourceRecord[] {
  if (text.trimStart().startsWith('[')) {
    let values: unknown;
    try {
      values = JSON.parse(text);
    } catch (error) {
      throw new Error(`The file is not a valid JSON array: ${(error as Error).message}`);
    }
    const lines = arrayElementLines(text);
    return (values as unknown[]).map((value, i) => ({ line: lines[i] ?? 1, value }));
  }
  return text.split('\n').flatMap((content, i): SourceRecord[] => {
    if (content.trim() === '') return [];
    try {
      return [{ line: i + 1, value: JSON.parse(content) as unknown }];
    } catch (error) {
      return [{ line: i + 1, syntaxError: `not valid JSON: ${(error as Error).message}` }];
    }
  });
}

/** The stored items of these records' keys, by id. */
async function storedItems(
  client: DynamoDBDocumentClient,
  tableName: string,
  records: readonly VacancyRecord[],
) {
  const { items } = await batchGetItems(
    client,
    tableName,
    records.map((record) => ({ vendorId: record.vendor_id, id: record.id })),
    { retry: OPERATOR_RETRY },
  );
  return new Map(items.map((item) => [item.id as number, item]));
}

/**
 * Imports vacancy records (CONTRACT §4). Every record is checked against every rule, ids are unique in the file
 * and across vendors (an id that belongs to another vendor is refused); a rejected record is reported with its
 * line and reasons and nothing of it is written. Valid records are upserted by id, skipping those whose stored
 * item is already identical; a status other than `active` leaves the active index in the same write.
 */
export async function importVacancies(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  sources: readonly SourceRecord[],
  options: { timeZone: string; dryRun?: boolean; onProgress?: (done: number, total: number) => void },
): Promise<ImportReport> {
  const rejected: Rejection[] = [];
  const valid: { line: number; record: VacancyRecord }[] = [];
  const lineOfId = new Map<number, number>();
  for (const source of sources) {
    if (source.syntaxError) {
      rejected.push({ line: source.line, reasons: [source.syntaxError] });
      continue;
    }
    const result = validateVacancyRecord(source.value, options.timeZone);
    if (!result.ok) {
      rejected.push({ line: source.line, reasons: result.reasons });
      continue;
    }
    const earlier = lineOfId.get(result.record.id);
    if (earlier !== undefined) {
      rejected.push({
        line: source.line,
        reasons: [`id ${result.record.id} is already given on line ${earlier}`],
      });
      continue;
    }
    lineOfId.set(result.record.id, source.line);
    valid.push({ line: source.line, record: result.record });
  }

  const owners = await vendorsOfVacancyIds(
    client,
    tables.vacancies,
    new Set(valid.map(({ record }) => record.id)),
  );
  const accepted = valid.filter(({ line, record }) => {
    const owner = owners.get(record.id);
    if (owner === undefined || owner === record.vendor_id) return true;
    rejected.push({ line, reasons: [`id ${record.id} belongs to vendor ${owner}`] });
    return false;
  });

  const stored = await storedItems(
    client,
    tables.vacancies,
    accepted.map(({ record }) => record),
  );
  const changed = accepted
    .map(({ record }) => record)
    .filter((record) => !isDeepStrictEqual(stored.get(record.id), toVacancyItem(record)));

  if (!options.dryRun) {
    await putVacancyRecords(client, tables.vacancies, changed, (done) =>
      options.onProgress?.(done, changed.length),
    );
  }
  return {
    imported: changed.length,
    unchanged: accepted.length - changed.length,
    rejected: rejected.sort((a, b) => a.line - b.line),
    dryRun: Boolean(options.dryRun),
  };
}
