/**
 * A build of a vendor's feeds (docs/design.md#feeds), measured on the read benchmark's vendors: an `indeed` feed and
 * a sitemap built from one walk of the vendor's listable vacancies into a folder, its time, read units and calls
 * — next to a walk of the listing by `next_page_url` at `per_page` 100 on the same data, what an integrator pulling
 * the whole listing pays — its peak live heap, and the files' sizes, gzipped.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Feed } from '../lambda/domain/feed-registry/feed';
import { FeedStore } from '../lambda/domain/feed-registry/feed-store';
import type { TableNames } from '../lambda/domain/schema/tables';
import { DEFAULT_SETTINGS } from '../lambda/domain/settings/settings';
import { buildVendorFeeds, feedBuildTarget } from '../lambda/functions/feeds/build';
import type { ZoneClock } from '../lambda/platform/time/zone-clock';
import { folderFeedFiles } from '../lib/feed-folder';
import { liveHeapBytes } from '../testkit/live-heap';
import { round } from './stats';

/** How often the live heap is sampled during a build. */
const HEAP_SAMPLE_MS = 1_000;

/** A feed build next to a walk of the listing. */
export interface FeedBuildResult {
  vacancies: number;
  build_ms: number;
  /** The build's peak live heap above its start (MB). */
  peak_heap_mb: number;
  rcu: number;
  calls: number;
  /** The walk of the listing at per_page 100 on the same vendor: its read units and pages. */
  walk_rcu: number;
  walk_pages: number;
  indeed_gz_bytes: number;
  sitemap_gz_bytes: number;
  sitemap_files: number;
}

/** Builds the vendor's two feeds twice: once with its live heap sampled, then timed and metered. */
export async function measureFeedBuild(
  client: DynamoDBClient,
  documentClient: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
  clock: ZoneClock,
  walk: { readonly rcu: number; readonly pages: number },
): Promise<FeedBuildResult> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-feeds-'));
  try {
    const store = new FeedStore(documentClient, tables.vendors);
    const feeds: Feed[] = [];
    for (const format of ['indeed', 'sitemap'] as const) {
      const placed = await store.add(vendorId, format, 'en');
      if (!('added' in placed)) throw new Error(`no place for a feed of ${vendorId}`);
      feeds.push(placed.added);
    }
    const files = folderFeedFiles(folder);
    const build = () =>
      buildVendorFeeds(
        feedBuildTarget(
          {
            client,
            vacanciesTable: tables.vacancies,
            retry: { maxStalls: 8, baseDelayMs: 25, maxDelayMs: 800 },
          },
          files,
          store,
        ),
        {
          clock,
          feedBase: 'https://feeds.example.com',
          jobCountry: DEFAULT_SETTINGS.jobCountry,
          salaryCurrency: DEFAULT_SETTINGS.salaryCurrency,
          salaryPeriod: DEFAULT_SETTINGS.salaryPeriod,
        },
        { vendorId, company: vendorId, status: 'active' },
        feeds,
        new Date(),
      );
    // The live heap, sampled while a first build runs (which also warms the code up): what it holds at its peak above
    // what it started with. Each sample is a full collection of the benchmark's whole heap — a second or more once
    // it holds 100,000 vacancies — so this build is not the one timed.
    const baseline = liveHeapBytes();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, liveHeapBytes());
    }, HEAP_SAMPLE_MS);
    await build().finally(() => clearInterval(sampler));
    const started = performance.now();
    const report = await build();
    const buildMs = performance.now() - started;
    const size = async (feed: (typeof feeds)[number]) => {
      const built = report.feeds.find((entry) => entry.feedId === feed.feedId)?.files ?? [];
      const sizes = await Promise.all(built.map((file) => stat(join(folder, feed.token, `${file}.gz`))));
      return { bytes: sizes.reduce((sum, { size: bytes }) => sum + bytes, 0), files: built.length };
    };
    const [indeed, sitemap] = await Promise.all(feeds.map(size));
    for (const feed of feeds) await store.remove(feed.feedId);
    return {
      vacancies: report.vacancies,
      build_ms: round(buildMs, 0),
      peak_heap_mb: round((peak - baseline) / 1e6, 1),
      rcu: round(report.readUnits, 1),
      calls: report.calls,
      walk_rcu: round(walk.rcu, 1),
      walk_pages: walk.pages,
      indeed_gz_bytes: indeed?.bytes ?? 0,
      sitemap_gz_bytes: sitemap?.bytes ?? 0,
      sitemap_files: sitemap?.files ?? 0,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
