/**
 * The import's throughput and cost: 10,000 records through the real import (parse, validate, vendor check,
 * pre-read, one conditional put per record) next to the bare loader writing the same items the way the first
 * version's import did — BatchWriteItem, 25 a call, one call at a time — into fresh tables of the same engine,
 * in the same run, interleaved over several rounds and compared by median.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseImportFile } from '../lambda/domain/import/file';
import { importVacancies } from '../lambda/domain/import/import';
import { ITEM } from '../lambda/domain/schema/tables';
import { createTables, localTableNames } from '../lib/create-tables';
import { putVendor } from '../lib/ops/vendors';
import { storedItems, vacancyRecords } from '../testkit/dataset';
import { loadItems } from '../testkit/loader';
import { indexEntries, itemSize, putWriteUnits } from './item-size';
import { CLOCK } from './reads';
import { percentile, round } from './stats';

export interface ImportResult {
  records: number;
  /** Rounds of each writer, interleaved; the figures are each side's median. */
  rounds: number;
  import_s: number;
  import_per_s: number;
  loader_s: number;
  loader_per_s: number;
  /** The import's rate over the loader's. */
  rate_ratio: number;
  /** Write units of the import's puts, by DynamoDB's rules (table item plus its index entries). */
  write_units: number;
  /** The same, per record. */
  write_units_per_record: number;
  /** Per record, for the items of the data model before v3 (`itemBeforeV3`). */
  write_units_per_record_before_v3: number;
  /** Updates of the vendor's summary the import made, in all (their units are in the engine's report). */
  summary_writes: number;
  /** What the engine reported (the embedded engine counts the table, not the index). */
  write_units_reported: number;
  read_units: number;
}

/**
 * A new item as data model v2 stored it, for the "before" of the write cost: without its change time, change key
 * and expiry shard, so in the active index only, and with its vendor as `vendorId` (and `v` while active).
 */
function itemBeforeV3(item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const {
    [ITEM.updatedAt]: _at,
    [ITEM.change]: _change,
    [ITEM.expiryShard]: _shard,
    [ITEM.vendor]: vendor,
    ...rest
  } = item;
  return { ...rest, vendorId: vendor, ...(ITEM.order in item && { [ITEM.vendor]: vendor }) };
}

/** Write units of putting a new item: the item, and an entry in each index it is in. */
const newItemWriteUnits = (item: Readonly<Record<string, unknown>>) =>
  putWriteUnits(
    itemSize(item),
    [...indexEntries(item).values()].map((entry) => itemSize(entry)),
  );

/** Imports `count` records of a new vendor, and loads the same items with the bare loader. */
export async function measureImport(
  client: DynamoDBClient,
  documentClient: DynamoDBDocumentClient,
  count: number,
  rounds: number,
): Promise<ImportResult> {
  const vendorId = 'importer';
  // The data set's mix: active vacancies, 10% with another status, 5% expired.
  const records = vacancyRecords(vendorId, 1, Math.ceil(count / 1.15), 7).slice(0, count);
  const text = records.map((record) => JSON.stringify(record)).join('\n');
  const items = storedItems(records);

  // Several rounds, each writing both into fresh tables, the order alternating from one round to the next; each
  // side's median round counts. So a busy moment of a shared machine weighs on both alike, and no single round
  // decides.
  const loaderTimes: number[] = [];
  const importTimes: number[] = [];
  let report: Awaited<ReturnType<typeof importVacancies>> | undefined;
  for (let pass = 1; pass <= rounds; pass += 1) {
    const loaderTables = localTableNames(`bench-loader-${pass}-`);
    const importTables = localTableNames(`bench-import-${pass}-`);
    await createTables(client, loaderTables);
    await createTables(client, importTables);
    await putVendor(documentClient, importTables.vendors, { vendorId, company: 'Importer' });

    const runLoader = async () => {
      process.stderr.write(`round ${pass} of ${rounds}: loading ${count} vacancies with the bare loader…\n`);
      const started = performance.now();
      await loadItems(documentClient, loaderTables.vacancies, items, 1);
      loaderTimes.push((performance.now() - started) / 1000);
    };
    const runImport = async () => {
      process.stderr.write(`round ${pass} of ${rounds}: importing ${count} vacancies…\n`);
      const started = performance.now();
      report = await importVacancies(documentClient, importTables, parseImportFile(text), { clock: CLOCK });
      importTimes.push((performance.now() - started) / 1000);
      if (report.imported !== count)
        throw new Error(`The import wrote ${report.imported} of ${count} records`);
    };
    for (const step of pass % 2 === 1 ? [runLoader, runImport] : [runImport, runLoader]) await step();
  }
  if (!report) throw new Error('No import ran');
  const loaderSeconds = percentile(loaderTimes, 50);
  const importSeconds = percentile(importTimes, 50);

  const before = items.reduce((sum, item) => sum + newItemWriteUnits(itemBeforeV3(item)), 0);
  const after = items.reduce((sum, item) => sum + newItemWriteUnits(item), 0);
  return {
    records: count,
    rounds,
    import_s: round(importSeconds),
    import_per_s: Math.round(count / importSeconds),
    loader_s: round(loaderSeconds),
    loader_per_s: Math.round(count / loaderSeconds),
    rate_ratio: round(loaderSeconds / importSeconds),
    write_units: after,
    write_units_per_record: round(after / count, 2),
    write_units_per_record_before_v3: round(before / count, 2),
    summary_writes: report.summaryWrites,
    write_units_reported: report.writeUnits,
    read_units: report.readUnits,
  };
}
