/**
 * The build of a vendor of 5,000 listable vacancies (and the 750 more a real vendor keeps: inactive, drafts, closed,
 * expired) on the real engine, its live heap sampled while it runs: the whole feed and the whole sitemap are written,
 * and what the build holds at its peak is a small share of what it read — the bound taken from the bytes measured,
 * not from a guess about the machine. What a build holds does not grow with the vendor (0.6 to 1.6 MB measured, at
 * 5,000, 10,000 and 20,000: its buffers, one call's vacancies, a sitemap's top file gzipped), so 5,000 proves it: a
 * quarter of what their items are (14 MB, so 3.5 MB) is over twice the most of that, and a build that held its
 * vacancies, or a feed, would hold all of it. (`npm run bench` measures the same at 100,000: loading that many into the embedded
 * engine takes longer than a test should; 15,000 here cost a run 90 s of CPU, mostly the engine's.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Feed } from '../../../../../lambda/domain/feed-registry/feed';
import type { FeedFiles } from '../../../../../lambda/domain/feed-registry/feed-files';
import { FeedStore } from '../../../../../lambda/domain/feed-registry/feed-store';
import { buildVendorFeeds } from '../../../../../lambda/functions/feeds/build';
import { folderFeedFiles } from '../../../../../lib/feed-folder';
import { putVendor } from '../../../../../lib/ops/vendors';
import { storedItems, vacancyRecords } from '../../../../../testkit/dataset';
import {
  createTestTables,
  type OwnEngine,
  ownEngine,
  type TestTables,
} from '../../../../../testkit/dynamodb';
import { liveHeapBytes } from '../../../../../testkit/live-heap';
import { loadItems } from '../../../../../testkit/loader';
import { CLOCK } from '../../../../../testkit/vacancies';

const ACTIVE = 5_000;
/** The live heap is sampled at every this many bytes of gzip the build writes. */
const SAMPLE_BYTES = 64 * 1024;

/** Loaded in chunks, so the test itself never holds the vendor's data at once. */
const CHUNK = 2_500;

/**
 * The feeds' files, the live heap sampled (`sample`) as the build writes them: by the work done, not by the clock — a
 * full collection every 200 ms cost a loaded run minutes of CPU, the longer the build took the more.
 */
function sampling(files: FeedFiles, sample: () => void): FeedFiles {
  async function* sampled(gzipped: AsyncIterable<Uint8Array>) {
    let since = 0;
    for await (const chunk of gzipped) {
      since += chunk.length;
      if (since >= SAMPLE_BYTES) {
        since = 0;
        sample();
      }
      yield chunk;
    }
  }
  return {
    ...files,
    put: (token, file, gzipped, builtAt) => files.put(token, file, sampled(gzipped), builtAt),
  };
}

describe('a build of 5,000 vacancies', () => {
  let engine: OwnEngine;
  let tables: TestTables;
  let folder: string;
  /** The bytes of the listable vacancies' items, as JSON: what the build reads and writes out. */
  let listableBytes = 0;

  beforeAll(async () => {
    // An engine of its own: 5,750 writes at once would slow every other file's requests on the shared one.
    engine = await ownEngine();
    // A load, not a test of latency: an attempt may take long on a loaded machine.
    tables = await createTestTables({ engine: engine.endpoint, requestTimeoutMs: 30_000 });
    folder = await mkdtemp(join(tmpdir(), 'feeds-memory-'));
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'big', company: 'Big LLC' });
    for (let first = 1, chunk = 0; chunk < ACTIVE / CHUNK; chunk += 1) {
      const items = storedItems(vacancyRecords('big', first, CHUNK, chunk + 1));
      first += items.length;
      for (const item of items) if (item.status === 'active') listableBytes += JSON.stringify(item).length;
      await loadItems(tables.documentClient, tables.names.vacancies, items);
    }
  }, 900_000);
  afterAll(async () => {
    // The engine stopped whatever becomes of the drop: a process left running keeps the worker from exiting.
    try {
      await tables?.drop();
    } finally {
      await engine?.stop();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('writes both feeds whole, holding a small share of what it reads at its peak', async () => {
    const store = new FeedStore(tables.documentClient, tables.names.vendors);
    const feeds: Feed[] = [];
    for (const format of ['indeed', 'sitemap'] as const) {
      const placed = await store.add('big', format, 'en');
      if (!('added' in placed)) throw new Error('no place');
      feeds.push(placed.added);
    }
    const baseline = liveHeapBytes();
    let peak = baseline;
    let samples = 0;
    const report = await buildVendorFeeds(
      {
        index: { client: tables.client, tableName: tables.names.vacancies },
        items: {
          client: tables.client,
          tableName: tables.names.vacancies,
          retry: { maxStalls: 8, baseDelayMs: 5, maxDelayMs: 200 },
        },
        files: sampling(folderFeedFiles(folder), () => {
          samples += 1;
          peak = Math.max(peak, liveHeapBytes());
        }),
        recordBuild: (feedId, builtAt, vacancies, leftOut) =>
          store.recordBuild(feedId, builtAt, vacancies, leftOut),
      },
      {
        clock: CLOCK,
        feedBase: 'https://feeds.example.com',
        jobCountry: 'AZ',
        salaryCurrency: 'AZN',
        salaryPeriod: 'MONTH',
      },
      { vendorId: 'big', company: 'Big LLC', status: 'active' },
      feeds,
      new Date(),
    );
    peak = Math.max(peak, liveHeapBytes());
    expect(report.vacancies).toBe(ACTIVE);
    expect(report.feeds.map((feed) => [...feed.files].sort())).toEqual([['indeed.xml'], ['sitemap.xml']]);
    const growth = peak - baseline;
    process.stderr.write(
      `feed build of ${ACTIVE} vacancies: peak live heap +${(growth / 1e6).toFixed(1)} MB (${samples} samples), ` +
        `${(listableBytes / 1e6).toFixed(0)} MB of items read, ${report.readUnits} read units in ${report.calls} calls\n`,
    );
    // Sampled all along the writing (a megabyte or two of gzip), not once or twice.
    expect(samples).toBeGreaterThan(10);
    // A quarter of what it read at the most (what it holds does not grow with the vendor: its buffers, one call's
    // vacancies, a sitemap's top file gzipped); a build that held its vacancies, or a feed, would hold all of it.
    expect(growth).toBeLessThan(listableBytes / 4);
  }, 900_000);
});
