/**
 * `npm run bench [-- --quick]`: bundle sizes, cold init, and per-request read cost and latency of the listing,
 * next to a bare reference function and a naive baseline. Prints markdown tables; writes bench/results.json.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { createDocumentClient, createDynamoDBClient } from '../lambda/shared/dynamodb';
import { createListingHandler } from '../lambda/vacancies/listing-handler';
import { lastPage } from '../lambda/vacancies/pagination';
import { toVacancyItem, validateVacancyRecord } from '../lambda/vacancies/record';
import {
  type ActiveVacancyPage,
  createVacancyRepository,
  type VacancyRepository,
} from '../lambda/vacancies/repository';
import { ESBUILD_SETTINGS, FUNCTION_NODE_OPTIONS } from '../lib/bundling';
import { createTableInput, createTables, localTableNames } from '../lib/create-tables';
import { lambdaContext } from '../lib/local/lambda-context';
import { batchWrite } from '../lib/ops/batch-write';
import { VACANCIES_TABLE } from '../lib/tables';
import { listingEvent } from '../test/support/events';
import { silentLogger } from '../test/support/lambda';
import { vacancyRecords } from './dataset';
import { createNaiveRepository } from './naive-repository';

const QUICK = process.argv.includes('--quick');
const SIZES = QUICK ? [10, 100, 1_000] : [10, 100, 1_000, 10_000];
const REQUESTS = 30;
const WARMUP = 3;
const INIT_RUNS = QUICK ? 20 : 40;
const PER_PAGE = 15;
const FILTERS = 'type=1&experience_min=1';
const TIME_ZONE = 'Asia/Baku';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const table = (header: string[], rows: (string | number)[][]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

// ---------------------------------------------------------------------------------------------------------------
// 1–2. Bundles and cold init

interface BundleResult {
  bytes: number;
  gzip_bytes: number;
  init_p50_ms: number;
  init_p90_ms: number;
}

const ENTRIES = {
  listing: 'lambda/vacancies/handler.ts',
  authorizer: 'lambda/auth/handler.ts',
  bare: 'bench/bare-handler.ts',
} as const;
type BundleName = keyof typeof ENTRIES;

/** Bundles with exactly the stack's esbuild settings (lib/bundling.ts). */
async function bundle(name: BundleName, folder: string): Promise<string> {
  const outfile = join(folder, name, 'index.mjs');
  const { banner, ...settings } = ESBUILD_SETTINGS;
  await build({
    ...settings,
    mainFields: [...settings.mainFields],
    banner: { js: banner },
    entryPoints: [ENTRIES[name]],
    bundle: true,
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/** Milliseconds to import (load and initialise) a bundle in a fresh Node.js process, flags as on Lambda. */
function importTime(file: string): number {
  const script = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});process.stdout.write(String(performance.now()-t));`;
  const run = spawnSync(process.execPath, [FUNCTION_NODE_OPTIONS, '--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'eu-central-1',
      VACANCIES_TABLE: 'bench',
      VENDORS_TABLE: 'bench',
    },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`Importing ${file} failed: ${run.stderr}`);
  return Number(run.stdout);
}

async function bundles(): Promise<Record<BundleName, BundleResult>> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-bundles-'));
  try {
    const names = Object.keys(ENTRIES) as BundleName[];
    const files = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await bundle(name, folder)])),
    ) as Record<BundleName, string>;
    const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      BundleName,
      number[]
    >;
    // Interleaved, so that a noisy moment on a shared machine hits every bundle alike.
    for (let run = 0; run < INIT_RUNS; run += 1)
      for (const name of names) times[name].push(importTime(files[name]));
    const result = {} as Record<BundleName, BundleResult>;
    for (const name of names) {
      const code = await readFile(files[name]);
      result[name] = {
        bytes: code.length,
        gzip_bytes: gzipSync(code).length,
        init_p50_ms: round(percentile(times[name], 50)),
        init_p90_ms: round(percentile(times[name], 90)),
      };
    }
    return result;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Read cost and latency

interface Side {
  rcu: number;
  calls: number;
  p50_ms: number;
  p95_ms: number;
}

interface ReadResult {
  vacancies: number;
  page: number;
  page_label: string;
  filters: string | null;
  total: number;
  ours: Side;
  naive: Side;
  rcu_ratio: number;
  latency_ratio_p50: number;
}

/** A repository that remembers what its last listing cost. */
function metered(repository: VacancyRepository) {
  let last: ActiveVacancyPage | undefined;
  return {
    repository: {
      async listActive(query) {
        last = await repository.listActive(query);
        return last;
      },
    } satisfies VacancyRepository,
    last: () => last,
  };
}

async function startEngine(): Promise<{ endpoint: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/engine.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`The engine exited (${code})`)));
  });
  return { endpoint, process: child };
}

async function reads(): Promise<ReadResult[]> {
  const engine = await startEngine();
  const client = createDynamoDBClient({ endpoint: engine.endpoint });
  const documentClient = createDocumentClient(client);
  try {
    const tables = localTableNames('bench-');
    const naiveTable = 'bench-NaiveVacancies';
    await createTables(client, tables);
    // The naive baseline's table: the same keys and index, but the index projects ALL attributes.
    const naiveInput = createTableInput(VACANCIES_TABLE, naiveTable);
    for (const index of naiveInput.GlobalSecondaryIndexes ?? []) index.Projection = { ProjectionType: 'ALL' };
    await client.send(new CreateTableCommand(naiveInput));

    const ours = metered(createVacancyRepository(documentClient, { tableName: tables.vacancies }));
    const naive = metered(createNaiveRepository(documentClient, naiveTable));
    const settings = { defaultLocale: 'az' as const, timeZone: TIME_ZONE, defaultPerPage: PER_PAGE };
    const handlers = {
      ours: createListingHandler({ repository: ours.repository, settings, logger: silentLogger() }),
      naive: createListingHandler({ repository: naive.repository, settings, logger: silentLogger() }),
    };

    const results: ReadResult[] = [];
    let firstId = 1;
    for (const size of SIZES) {
      const vendorId = `vendor-${size}`;
      const items = vacancyRecords(vendorId, firstId, size, size).map((input) => {
        const validated = validateVacancyRecord(input, TIME_ZONE);
        if (!validated.ok) throw new Error(validated.reasons.join('; '));
        return { PutRequest: { Item: toVacancyItem(validated.record) } };
      });
      firstId += items.length;
      process.stderr.write(`loading ${items.length} vacancies of ${vendorId}…\n`);
      await Promise.all([
        batchWrite(documentClient, tables.vacancies, items),
        batchWrite(documentClient, naiveTable, items),
      ]);

      for (const filters of [null, FILTERS]) {
        const request = (page: number) => ({
          query: `${filters ? `${filters}&` : ''}page=${page}`,
          authorizer: { vendorId, company: vendorId },
        });
        const first = JSON.parse(
          (await handlers.ours(listingEvent(request(1)), lambdaContext('bench'))).body,
        );
        const last = lastPage(first.pagination.total, PER_PAGE);
        // A listing of a single page is first, middle and last at once: measured once, as "first".
        const pages = new Map<number, string>();
        for (const [page, label] of [
          [1, 'first'],
          [Math.ceil(last / 2), 'middle'],
          [last, 'last'],
        ] as const) {
          if (!pages.has(page)) pages.set(page, label);
        }
        for (const [page, label] of pages) {
          const event = listingEvent(request(page));
          const measure = async (side: 'ours' | 'naive'): Promise<{ side: Side; body: string }> => {
            const handler = handlers[side];
            let body = '';
            for (let i = 0; i < WARMUP; i += 1) body = (await handler(event, lambdaContext('bench'))).body;
            const times: number[] = [];
            for (let i = 0; i < REQUESTS; i += 1) {
              const started = performance.now();
              const response = await handler(event, lambdaContext('bench'));
              times.push(performance.now() - started);
              if (response.statusCode !== 200)
                throw new Error(`${side}: ${response.statusCode} ${response.body}`);
            }
            const cost = (side === 'ours' ? ours : naive).last();
            return {
              body,
              side: {
                rcu: cost?.readUnits ?? Number.NaN,
                calls: cost?.calls ?? Number.NaN,
                p50_ms: round(percentile(times, 50)),
                p95_ms: round(percentile(times, 95)),
              },
            };
          };
          const oursResult = await measure('ours');
          const naiveResult = await measure('naive');
          // The baseline must answer exactly what ours answers, or the comparison means nothing.
          if (oursResult.body !== naiveResult.body)
            throw new Error(`Different answers for ${vendorId} page ${page} ${filters}`);
          results.push({
            vacancies: size,
            page,
            page_label: label,
            filters,
            total: first.pagination.total,
            ours: oursResult.side,
            naive: naiveResult.side,
            rcu_ratio: round(naiveResult.side.rcu / oursResult.side.rcu, 1),
            latency_ratio_p50: round(naiveResult.side.p50_ms / oursResult.side.p50_ms, 1),
          });
          process.stderr.write(`  ${size} ${label} page ${page}${filters ? ` (${filters})` : ''}: done\n`);
        }
      }
    }
    return results;
  } finally {
    client.destroy();
    engine.process.kill();
  }
}

// ---------------------------------------------------------------------------------------------------------------

function targets(bundleResults: Record<BundleName, BundleResult>, readResults: ReadResult[]) {
  const ratio = (size: number, label: string) =>
    readResults.filter((r) => r.vacancies === size && r.page_label === label && r.filters === null)[0]
      ?.rcu_ratio ?? Number.NaN;
  const initRatio = bundleResults.listing.init_p50_ms / bundleResults.bare.init_p50_ms;
  const at10k = readResults.filter((r) => r.vacancies === 10_000);
  const middle1k = readResults.find(
    (r) => r.vacancies === 1_000 && r.page_label === 'middle' && r.filters === null,
  );
  const checks = [
    {
      target: 'RCU at 1,000, page 1: ≥ 15× fewer than naive',
      value: `${ratio(1_000, 'first')}×`,
      met: ratio(1_000, 'first') >= 15,
    },
    {
      target: 'RCU at 1,000, middle page: ≥ 20× fewer',
      value: `${ratio(1_000, 'middle')}×`,
      met: ratio(1_000, 'middle') >= 20,
    },
    {
      target: 'Listing cold init ≤ 1.15× the bare function',
      value: `${round(initRatio)}×`,
      met: initRatio <= 1.15,
    },
    {
      target: 'Listing bundle ≤ 400 KB minified',
      value: `${round(bundleResults.listing.bytes / 1024, 1)} KB`,
      met: bundleResults.listing.bytes <= 400 * 1024,
    },
    {
      target: 'Latency at 1,000, middle page: below naive',
      value: middle1k ? `${middle1k.ours.p50_ms} ms vs ${middle1k.naive.p50_ms} ms (p50)` : 'n/a',
      met: middle1k ? middle1k.ours.p50_ms < middle1k.naive.p50_ms : false,
    },
  ];
  if (at10k.length > 0) {
    const lowest = Math.min(...at10k.map((r) => r.rcu_ratio));
    checks.splice(2, 0, {
      target: 'RCU at 10,000, every page measured: ≥ 25× fewer',
      value: `min ${lowest}×`,
      met: lowest >= 25,
    });
  }
  return checks;
}

async function main() {
  const started = performance.now();
  process.stderr.write(
    `Benchmark${QUICK ? ' (quick)' : ''}: bundling and ${INIT_RUNS} cold inits per bundle…\n`,
  );
  const bundleResults = await bundles();
  const readResults = await reads();
  const checks = targets(bundleResults, readResults);
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gb: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    quick: QUICK,
    date: new Date().toISOString(),
    duration_s: 0,
  };

  const bytes = (n: number) => `${round(n / 1024, 1)} KB`;
  console.log(
    `\n## Bundles and cold init (${INIT_RUNS} fresh Node ${process.version} processes each, ${FUNCTION_NODE_OPTIONS})\n`,
  );
  console.log(
    table(
      ['function', 'minified', 'gzip', 'init p50', 'init p90', 'p50 vs bare'],
      (Object.entries(bundleResults) as [BundleName, BundleResult][]).map(([name, r]) => [
        name,
        bytes(r.bytes),
        bytes(r.gzip_bytes),
        `${r.init_p50_ms} ms`,
        `${r.init_p90_ms} ms`,
        `${round(r.init_p50_ms / bundleResults.bare.init_p50_ms)}×`,
      ]),
    ),
  );
  console.log(
    `\n## Read cost and latency per request (per_page ${PER_PAGE}, ${REQUESTS} requests each, engine in its own process)\n`,
  );
  console.log(
    table(
      [
        'active',
        'page',
        'filters',
        'total',
        'RCU ours',
        'RCU naive',
        'naive/ours',
        'calls ours/naive',
        'p50/p95 ours',
        'p50/p95 naive',
      ],
      readResults.map((r) => [
        r.vacancies,
        `${r.page_label} (${r.page})`,
        r.filters ?? '—',
        r.total,
        r.ours.rcu,
        r.naive.rcu,
        `${r.rcu_ratio}×`,
        `${r.ours.calls} / ${r.naive.calls}`,
        `${r.ours.p50_ms} / ${r.ours.p95_ms} ms`,
        `${r.naive.p50_ms} / ${r.naive.p95_ms} ms`,
      ]),
    ),
  );
  console.log('\n## Targets\n');
  console.log(
    table(
      ['target', 'measured', 'met'],
      checks.map((c) => [c.target, c.value, c.met ? 'yes' : '**no**']),
    ),
  );

  machine.duration_s = round((performance.now() - started) / 1000, 1);
  const results = { machine, bundles: bundleResults, reads: readResults, targets: checks };
  await writeFile(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote bench/results.json in ${machine.duration_s} s.`);
}

await main();
