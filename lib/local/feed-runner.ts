/**
 * Feeds in the local server (docs/design.md#feeds): the builds of `lambda/functions/feeds/build.ts`, the code the
 * deployed build runs, woken by the writes the embedded engine receives — not by a timer — and coalesced: the first
 * write after a quiet spell starts a wait just past the index's settle window, every write in it joins the same
 * round, and a round rebuilds the feeds of each vendor whose state changed since its last build (its summary, which
 * every write of its vacancies and of the vendor bumps; its feeds; the day). A change reaches its feeds within
 * seconds (docs/api.md's 15). At start it builds every feed once; only with an engine of the user's own, which it
 * cannot watch, does it poll.
 */

import type { FeedSettings } from '../../lambda/domain/feed-formats/indeed';
import type { Feed } from '../../lambda/domain/feed-registry/feed';
import type { FeedFiles } from '../../lambda/domain/feed-registry/feed-files';
import { FeedStore } from '../../lambda/domain/feed-registry/feed-store';
import type { TableNames } from '../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../../lambda/domain/settings/recovery-waits';
import { SummaryReader } from '../../lambda/domain/store/summary-reader';
import { buildVendorFeeds, type FeedBuildReport, feedBuildTarget } from '../../lambda/functions/feeds/build';
import { createDynamoDBClient } from '../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../lambda/platform/dynamodb/document-client';
import type { ZoneClock } from '../../lambda/platform/time/zone-clock';
import { getVendorRecord } from '../ops/vendors';
import { startCoalescingRunner } from './coalescing-runner';
import type { EngineWrite } from './embedded-dynamodb';
import { WEBHOOK_USER_AGENT } from './webhook-runner';

/** The user agent of the builds' own requests: their writes (a build recorded) wake nothing. */
export const FEED_USER_AGENT = 'vva-feed-build';

/** How long a round waits after the write that started it: past the settle window, well within 15 seconds. */
export const ROUND_DELAY_MS = INDEX_SETTLE_MS + 1_000;

export interface FeedRunnerOptions {
  readonly endpoint: string;
  readonly tables: TableNames;
  readonly files: FeedFiles;
  /** The server's address: the feeds' base URL. */
  readonly feedBase: string;
  readonly settings: FeedSettings & { readonly clock: ZoneClock };
  /** Poll (an engine of the user's own) rather than be woken by `onWrite`. */
  readonly poll: boolean;
  readonly onBuild?: (report: FeedBuildReport) => void;
  readonly onError: (error: unknown) => void;
}

export interface FeedRunner {
  /** A write the engine received: one of the vacancies or vendors table starts (or joins) a round. */
  readonly onWrite: (write: EngineWrite) => void;
  /** The first round, every feed built: done. */
  readonly started: Promise<void>;
  /** What is owed still: a round waiting or under way (nought once idle). */
  readonly pending: () => number;
  /** Resolves once no round waits or runs. */
  readonly idle: () => Promise<void>;
  stop(): Promise<void>;
}

export function startFeedRunner(options: FeedRunnerOptions): FeedRunner {
  const client = createDynamoDBClient({ endpoint: options.endpoint, customUserAgent: FEED_USER_AGENT });
  const documentClient = createDocumentClient(client);
  const store = new FeedStore(documentClient, options.tables.vendors);
  const summaries = new SummaryReader(client, options.tables.vendors);
  /** Each vendor's state at its last build. */
  const built = new Map<string, string>();
  let stopped = false;

  const stateOf = async (vendorId: string, feeds: readonly Feed[], today: string) => {
    const [vendor, summary] = await Promise.all([
      getVendorRecord(documentClient, options.tables.vendors, vendorId),
      summaries.read(vendorId),
    ]);
    const state = JSON.stringify([
      summary.summary?.version,
      summary.summary?.releasedAt,
      vendor?.status,
      vendor?.company,
      vendor?.website,
      today,
      feeds.map((feed) => `${feed.feedId}:${feed.format}:${feed.lang}`).sort(),
    ]);
    return { vendor, state };
  };

  const round = async () => {
    const now = new Date();
    const today = options.settings.clock.today(now);
    const byVendor = new Map<string, Feed[]>();
    for (const feed of await store.all())
      byVendor.set(feed.vendorId, [...(byVendor.get(feed.vendorId) ?? []), feed]);
    for (const vendorId of built.keys()) if (!byVendor.has(vendorId)) built.delete(vendorId);
    for (const [vendorId, feeds] of byVendor) {
      if (stopped) return;
      const { vendor, state } = await stateOf(vendorId, feeds, today);
      if (!vendor || built.get(vendorId) === state) continue;
      const report = await buildVendorFeeds(
        feedBuildTarget(
          {
            client,
            vacanciesTable: options.tables.vacancies,
            retry: { maxStalls: 8, baseDelayMs: 25, maxDelayMs: 800 },
          },
          options.files,
          store,
        ),
        { ...options.settings, feedBase: options.feedBase },
        { ...vendor, website: vendor.website },
        feeds,
        now,
      );
      built.set(vendorId, state);
      options.onBuild?.(report);
    }
  };

  // Writes coalesce: the first after a quiet spell starts the round's wait, every write in it joins the round, and
  // one more round follows a round that writes came during.
  const runner = startCoalescingRunner({
    pass: round,
    delayMs: ROUND_DELAY_MS,
    ...(options.poll && { pollMs: ROUND_DELAY_MS }),
    onError: options.onError,
  });

  return {
    onWrite(write) {
      // Not the builds' own writes, nor the webhook dispatch's (its leases and positions change no feed).
      if (write.userAgent.includes(FEED_USER_AGENT) || write.userAgent.includes(WEBHOOK_USER_AGENT)) return;
      if (
        write.tables.some((table) => table === options.tables.vacancies || table === options.tables.vendors)
      ) {
        void runner.wake();
      }
    },
    started: runner.wake({ delayMs: 0 }),
    pending: runner.pending,
    idle: runner.idle,
    async stop() {
      stopped = true;
      await runner.stop();
      client.destroy();
    },
  };
}
