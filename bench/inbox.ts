/**
 * The inbox's import rate next to the CLI's, same run, same engine (docs/operating.md#the-inbox): a file of records
 * put into a real S3-compatible server (s3rver) and handled by the inbox function's receiver, from the S3 event to
 * the report — reading, decompressing nothing, parsing, importing, moving, reporting — and the same file imported
 * the CLI's way (`importVacancies` on its parsed text), each into fresh tables, interleaved, medians compared. Then
 * what page 1 and a 304 cost once the writes have settled: the import leaves the summary trusted (the data set has
 * 5 % active records past their deadline, which it records as expired).
 */

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseImportFile } from '../lambda/domain/import/file';
import { importVacancies } from '../lambda/domain/import/import';
import { authorizerContext } from '../lambda/domain/keys/context';
import { createVacancyRepository } from '../lambda/domain/reads/repository';
import { INDEX_SETTLE_MS } from '../lambda/domain/settings/recovery-waits';
import { s3EventReceiver } from '../lambda/functions/inbox/factory';
import { createVacanciesHandler } from '../lambda/functions/vacancies/factory';
import { createTables, localTableNames } from '../lib/create-tables';
import { lambdaContext } from '../lib/local/lambda-runtime';
import { listingEvent } from '../lib/local/proxy-event';
import { putVendor } from '../lib/ops/vendors';
import { DEFAULT_SETTINGS } from '../lib/settings';
import { vacancyRecords } from '../testkit/dataset';
import { quietMetrics, silentLogger } from '../testkit/quiet-runtime';
import { startTestS3 } from '../testkit/s3-server';
import { CLOCK, deployedListingSettings, metered } from './reads';
import { percentile, round } from './stats';

/** The inbox next to the CLI for one file size. */
export interface InboxResult {
  records: number;
  rounds: number;
  inbox_s: number;
  inbox_per_s: number;
  cli_s: number;
  cli_per_s: number;
  /** The inbox's rate over the CLI's. */
  rate_ratio: number;
  /** The largest resident memory the process reached while the inbox handled the file (MB). */
  inbox_peak_rss_mb: number;
  /** After the inbox's import, once the writes settled: page 1 and a 304 of the vendor's listing. */
  page1_read_units: number;
  not_modified_read_units: number;
}

/** Imports `count` records both ways, `rounds` times each, interleaved. */
export async function measureInbox(
  client: DynamoDBClient,
  documentClient: DynamoDBDocumentClient,
  count: number,
  rounds: number,
): Promise<InboxResult> {
  const vendorId = 'inboxed';
  const records = vacancyRecords(vendorId, 1, Math.ceil(count / 1.15), 11).slice(0, count);
  const text = records.map((record) => JSON.stringify(record)).join('\n');
  const s3 = await startTestS3();
  const inboxTimes: number[] = [];
  const cliTimes: number[] = [];
  let peakRss = 0;
  let lastTables = localTableNames('unused-');
  try {
    for (let pass = 1; pass <= rounds; pass += 1) {
      const cliTables = localTableNames(`bench-cli-${count}-${pass}-`);
      const inboxTables = localTableNames(`bench-inbox-${count}-${pass}-`);
      for (const tables of [cliTables, inboxTables]) {
        await createTables(client, tables);
        await putVendor(documentClient, tables.vendors, { vendorId, company: 'Inboxed' });
      }
      const runCli = async () => {
        process.stderr.write(`round ${pass} of ${rounds}: ${count} records the CLI's way…\n`);
        const started = performance.now();
        const report = await importVacancies(documentClient, cliTables, parseImportFile(text), {
          clock: CLOCK,
        });
        cliTimes.push((performance.now() - started) / 1000);
        if (report.imported !== count)
          throw new Error(`The CLI's import wrote ${report.imported} of ${count}`);
      };
      const runInbox = async () => {
        process.stderr.write(`round ${pass} of ${rounds}: ${count} records through the inbox…\n`);
        const key = `incoming/bench-${count}-${pass}.ndjson`;
        await s3.put(key, text);
        const event = s3.events.at(-1);
        if (!event) throw new Error('s3rver sent no event');
        const receive = s3EventReceiver({
          s3: s3.client,
          client: documentClient,
          tables: inboxTables,
          clock: CLOCK,
          maxClosePercent: DEFAULT_SETTINGS.snapshotMaxClose,
          logger: { info: () => {} },
        });
        const sampler = setInterval(() => {
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }, 100);
        const started = performance.now();
        try {
          const [outcome] = await receive(event, { getRemainingTimeInMillis: () => 900_000 });
          inboxTimes.push((performance.now() - started) / 1000);
          if (!outcome || !('handled' in outcome) || outcome.handled.written !== count)
            throw new Error(`The inbox did not import the file: ${JSON.stringify(outcome)}`);
        } finally {
          clearInterval(sampler);
        }
        lastTables = inboxTables;
      };
      for (const step of pass % 2 === 1 ? [runCli, runInbox] : [runInbox, runCli]) await step();
    }
  } finally {
    await s3.stop();
  }

  // Page 1 and a 304 after the last inbox import, once its writes have settled.
  await new Promise((resolve) => setTimeout(resolve, INDEX_SETTLE_MS + 500));
  const side = metered(
    createVacancyRepository(documentClient, {
      tableName: lastTables.vacancies,
      vendorsTable: lastTables.vendors,
    }),
  );
  const handler = createVacanciesHandler({
    repository: side.repository,
    settings: deployedListingSettings('listing', lastTables),
    logger: silentLogger(),
    metrics: quietMetrics('listing'),
  });
  const event = (headers: Record<string, string> = {}) =>
    listingEvent({
      authorizer: authorizerContext({ vendorId, company: vendorId, rateTier: 'standard' }),
      requestId: 'bench',
      domainName: 'api.example.com',
      path: '/prod/vendor/vacancies',
      stage: 'prod',
      headers: new Map(Object.entries(headers).map(([name, value]) => [name, [value]])),
    });
  side.take();
  const first = await handler(event(), lambdaContext('bench'));
  const page1 = side.take().readUnits;
  const etag = String(first.headers?.ETag ?? first.headers?.etag ?? '');
  const again = await handler(event({ 'If-None-Match': etag }), lambdaContext('bench'));
  if (again.statusCode !== 304) throw new Error(`Expected a 304 after the import, got ${again.statusCode}`);
  const notModified = side.take().readUnits;

  const inboxSeconds = percentile(inboxTimes, 50);
  const cliSeconds = percentile(cliTimes, 50);
  return {
    records: count,
    rounds,
    inbox_s: round(inboxSeconds),
    inbox_per_s: Math.round(count / inboxSeconds),
    cli_s: round(cliSeconds),
    cli_per_s: Math.round(count / cliSeconds),
    rate_ratio: round(cliSeconds / inboxSeconds),
    inbox_peak_rss_mb: Math.round(peakRss / 2 ** 20),
    page1_read_units: page1,
    not_modified_read_units: notModified,
  };
}
