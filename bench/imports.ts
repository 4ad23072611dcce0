/**
 * The import's throughput and cost: 10,000 records through the real import (parse, validate, vendor check,
 * pre-read, one conditional put per record) next to the bare loader writing the same items the way the first
 * version's import did — BatchWriteItem, 25 a call, one call at a time — into fresh tables of the same engine,
 * in the same run.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toVacancyItem } from '../lambda/schema/vacancy-item';
import { createTables, localTableNames } from '../lib/create-tables';
import { importVacancies } from '../lib/ops/import';
import { parseImportFile } from '../lib/ops/import-file';
import { validateVacancyRecord } from '../lib/ops/vacancy-record';
import { putVendor } from '../lib/ops/vendors';
import { vacancyRecords } from './dataset';
import { itemSize, putWriteUnits } from './item-size';
import { loadItems } from './loader';
import { CLOCK, indexEntrySizes } from './reads';
import { round } from './stats';

export interface ImportResult {
  records: number;
  import_s: number;
  import_per_s: number;
  loader_s: number;
  loader_per_s: number;
  /** The import's rate over the loader's. */
  rate_ratio: number;
  /** Write units of the import's puts, by DynamoDB's rules (table item plus index entry). */
  write_units: number;
  /** What the engine reported (the embedded engine counts the table, not the index). */
  write_units_reported: number;
  read_units: number;
}

/** Imports `count` records of a new vendor, and loads the same items with the bare loader. */
export async function measureImport(
  client: DynamoDBClient,
  documentClient: DynamoDBDocumentClient,
  count: number,
): Promise<ImportResult> {
  const vendorId = 'importer';
  // The data set's mix: active vacancies, 10% with another status, 5% expired.
  const records = vacancyRecords(vendorId, 1, Math.ceil(count / 1.15), 7).slice(0, count);
  const text = records.map((record) => JSON.stringify(record)).join('\n');
  const items = records.map((input) => {
    const validated = validateVacancyRecord(input, CLOCK);
    if (!validated.ok) throw new Error(validated.reasons.join('; '));
    return toVacancyItem(validated.vacancy) as unknown as Record<string, unknown>;
  });

  // Two rounds each, alternating, into fresh tables; the better round of each counts, so that one noisy moment
  // of a shared machine does not decide the comparison.
  let loaderSeconds = Number.POSITIVE_INFINITY;
  let importSeconds = Number.POSITIVE_INFINITY;
  let report: Awaited<ReturnType<typeof importVacancies>> | undefined;
  for (let round = 1; round <= 2; round += 1) {
    const loaderTables = localTableNames(`bench-loader-${round}-`);
    const importTables = localTableNames(`bench-import-${round}-`);
    await createTables(client, loaderTables);
    await createTables(client, importTables);
    await putVendor(documentClient, importTables.vendors, { vendorId, company: 'Importer' });

    process.stderr.write(`round ${round}: loading ${count} vacancies with the bare loader…\n`);
    let started = performance.now();
    await loadItems(documentClient, loaderTables.vacancies, items, 1);
    loaderSeconds = Math.min(loaderSeconds, (performance.now() - started) / 1000);

    process.stderr.write(`round ${round}: importing ${count} vacancies…\n`);
    started = performance.now();
    report = await importVacancies(documentClient, importTables, parseImportFile(text), { clock: CLOCK });
    importSeconds = Math.min(importSeconds, (performance.now() - started) / 1000);
    if (report.imported !== count) throw new Error(`The import wrote ${report.imported} of ${count} records`);
  }
  if (!report) throw new Error('No import ran');

  const entrySizes = new Map(items.map((item) => [item.id, indexEntrySizes([item])]));
  const writeUnits = items.reduce(
    (sum, item) => sum + putWriteUnits(itemSize(item), entrySizes.get(item.id) ?? []),
    0,
  );
  return {
    records: count,
    import_s: round(importSeconds),
    import_per_s: Math.round(count / importSeconds),
    loader_s: round(loaderSeconds),
    loader_per_s: Math.round(count / loaderSeconds),
    rate_ratio: round(loaderSeconds / importSeconds),
    write_units: writeUnits,
    write_units_reported: report.writeUnits,
    read_units: report.readUnits,
  };
}
