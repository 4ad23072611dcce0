/**
 * One build of a vendor's feeds (docs/design.md#feeds): its listable vacancies walked once (`listable.ts`), each
 * handed to every feed's writer in turn — `indeed` or `sitemap`, in the feed's language — whose text is gzipped on
 * the way into the feed's files (`FeedFiles`), never held whole. A file replaces the last build's at once when it is
 * complete; what an earlier build wrote and this one did not (a sitemap's parts) is deleted after; the build is then
 * recorded on the feed — how many vacancies it holds, and for a sitemap how many it left out (a URL stored before
 * the import refused those no sitemap can list) — and when the feed was removed meanwhile, what was written is
 * deleted. A suspended vendor's feeds are built empty.
 */
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';
import {
  type FeedSettings,
  INDEED_FEED_END,
  type IndeedFeedHead,
  indeedFeedStart,
  indeedJobs,
} from '../../domain/feed-formats/indeed';
import { type SitemapOutput, SitemapWriter } from '../../domain/feed-formats/sitemap';
import type { Feed } from '../../domain/feed-registry/feed';
import { FEED_FILES, feedUrl } from '../../domain/feed-registry/feed';
import type { FeedFiles } from '../../domain/feed-registry/feed-files';
import type { FedItem, ItemReaderTarget } from '../../domain/reads/item-reader';
import type { Vendor } from '../../domain/schema/vendors';
import type { MeteredQueryTarget } from '../../platform/dynamodb/metered-query';
import type { ZoneClock } from '../../platform/time/zone-clock';
import { listableVacancies, type WalkMeter } from './listable';

/** Where a build reads and writes. */
export interface FeedBuildTarget {
  readonly index: MeteredQueryTarget;
  readonly items: ItemReaderTarget;
  readonly files: FeedFiles;
  /**
   * Records a build on its feed — the vacancies it holds, and a sitemap's left out (`leftOut`, absent for another
   * format): false when the feed is gone.
   */
  recordBuild(feedId: string, builtAt: number, vacancies: number, leftOut?: number): Promise<boolean>;
}

/** What a build reads with: a vacancies table's client, and how it retries what a BatchGetItem leaves unprocessed. */
export interface FeedBuildReads {
  readonly client: MeteredQueryTarget['client'] & ItemReaderTarget['client'];
  readonly vacanciesTable: string;
  readonly retry: ItemReaderTarget['retry'];
}

/** Where a build reads and writes, from its reads, its files and the store that records its builds. */
export const feedBuildTarget = (
  reads: FeedBuildReads,
  files: FeedFiles,
  store: Pick<FeedBuildTarget, 'recordBuild'>,
): FeedBuildTarget => ({
  index: { client: reads.client, tableName: reads.vacanciesTable },
  items: { client: reads.client, tableName: reads.vacanciesTable, retry: reads.retry },
  files,
  recordBuild: (feedId, builtAt, vacancies, leftOut) =>
    store.recordBuild(feedId, builtAt, vacancies, leftOut),
});

/** What a build states and where its feeds are served. */
export interface FeedBuildSettings extends FeedSettings {
  readonly clock: ZoneClock;
  /** The feeds' base URL: a feed's own URL is its `<publisherurl>` when the vendor has no website. */
  readonly feedBase: string;
  /** A sitemap file's limits: the protocol's unless a test sets smaller ones. */
  readonly sitemapLimits?: { readonly urls: number; readonly bytes: number } | undefined;
}

/** What one build did. */
export interface FeedBuildReport {
  readonly vendorId: string;
  /**
   * Each feed's files and the vacancies it holds — a sitemap's also those it left out, whose URL no sitemap can list;
   * `removed` when the feed went during the build (its files deleted).
   */
  readonly feeds: readonly {
    readonly feedId: string;
    readonly files: readonly string[];
    readonly vacancies: number;
    readonly leftOut?: number;
    readonly removed: boolean;
  }[];
  /** The vendor's listable vacancies walked. */
  readonly vacancies: number;
  /** Of those, the ones its sitemaps left out (0 when it has none). */
  readonly leftOut: number;
  readonly readUnits: number;
  readonly calls: number;
}

/** A file being written: its gzip, and the put that stores what comes out of it. */
interface OpenFile {
  readonly gzip: Gzip;
  readonly stored: Promise<unknown>;
}

/** Writes text into a gzip, waiting while it holds more than its buffer (the put reads it out). */
async function write(gzip: Gzip, text: string): Promise<void> {
  if (!gzip.write(text)) await once(gzip, 'drain');
}

/** One feed's writer: each vacancy in turn, then the end; the files it wrote, and the vacancies a sitemap left out. */
interface FeedWriter {
  add(vacancy: FedItem): Promise<void>;
  end(): Promise<{ readonly files: string[]; readonly leftOut?: number }>;
}

function open(files: FeedFiles, token: string, file: string, builtAt: number): OpenFile {
  const gzip = createGzip();
  return { gzip, stored: files.put(token, file, gzip, builtAt) };
}

async function close(file: OpenFile): Promise<void> {
  file.gzip.end();
  await file.stored;
}

function indeedWriter(
  files: FeedFiles,
  feed: Feed,
  head: IndeedFeedHead,
  settings: FeedSettings,
  builtAt: number,
) {
  const file = FEED_FILES.indeed;
  const out = open(files, feed.token, file, builtAt);
  let started = false;
  const start = async () => {
    if (!started) await write(out.gzip, indeedFeedStart(head));
    started = true;
  };
  return {
    async add(vacancy: FedItem) {
      await start();
      await write(out.gzip, indeedJobs(vacancy, head, settings));
    },
    async end() {
      await start();
      await write(out.gzip, INDEED_FEED_END);
      await close(out);
      return { files: [file] };
    },
  } satisfies FeedWriter;
}

/**
 * A sitemap's writer. Its top file's name is known only when it closes — `sitemap.xml` stays the urlset unless a
 * rename follows, making it the first part — so that file's gzipped bytes are kept until then (at most the
 * protocol's 50 MB of text, gzipped); every other file streams into its put from its first text.
 */
function sitemapWriter(
  files: FeedFiles,
  feed: Feed,
  url: string,
  builtAt: number,
  limits: FeedBuildSettings['sitemapLimits'],
): FeedWriter {
  const writer = new SitemapWriter({ feedUrl: url, limits });
  const written: string[] = [];
  const streaming = new Map<string, OpenFile>();
  let held: { readonly file: string; readonly gzip: Gzip; readonly chunks: Buffer[] } | undefined;
  let closedHeld: { readonly file: string; readonly chunks: Buffer[] } | undefined;

  const publish = async (name: string, chunks: readonly Buffer[]) => {
    await files.put(
      feed.token,
      name,
      (async function* () {
        yield* chunks;
      })(),
      builtAt,
    );
    written.push(name);
  };
  const play = async (outputs: readonly SitemapOutput[]) => {
    for (const output of outputs) {
      if (output.kind === 'rename') {
        if (closedHeld?.file !== output.from) throw new Error(`rename of a file not held: ${output.from}`);
        await publish(output.to, closedHeld.chunks);
        closedHeld = undefined;
        continue;
      }
      // A held top file closed and not renamed: it is served under its own name.
      if (closedHeld) {
        await publish(closedHeld.file, closedHeld.chunks);
        closedHeld = undefined;
      }
      if (output.kind === 'text') {
        if (held?.file === output.file) await write(held.gzip, output.text);
        else if (!held && written.length === 0 && streaming.size === 0) {
          const gzip = createGzip();
          const chunks: Buffer[] = [];
          gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
          held = { file: output.file, gzip, chunks };
          await write(gzip, output.text);
        } else {
          let file = streaming.get(output.file);
          if (!file) {
            file = open(files, feed.token, output.file, builtAt);
            streaming.set(output.file, file);
          }
          await write(file.gzip, output.text);
        }
      } else if (held?.file === output.file) {
        held.gzip.end();
        await once(held.gzip, 'end');
        closedHeld = { file: held.file, chunks: held.chunks };
        held = undefined;
      } else {
        const file = streaming.get(output.file);
        if (file) await close(file);
        streaming.delete(output.file);
        written.push(output.file);
      }
    }
  };
  return {
    add: (vacancy) => play(writer.add(vacancy)),
    async end() {
      await play(writer.end());
      if (closedHeld) await publish(closedHeld.file, closedHeld.chunks);
      closedHeld = undefined;
      return { files: written, leftOut: writer.leftOut };
    },
  };
}

/**
 * Builds every feed of one vendor from one walk of its listable vacancies on `now`'s day, and records each build.
 * A DynamoDB or storage failure propagates: the files of the last complete build stay served.
 */
export async function buildVendorFeeds(
  target: FeedBuildTarget,
  settings: FeedBuildSettings,
  vendor: Pick<Vendor, 'vendorId' | 'company' | 'status' | 'website'>,
  feeds: readonly Feed[],
  now: Date,
  signal?: AbortSignal,
): Promise<FeedBuildReport> {
  const builtAt = now.getTime();
  const cost = { readUnits: 0, calls: 0 };
  const meter: WalkMeter = {
    add(read) {
      cost.readUnits += read.readUnits;
      cost.calls += read.calls;
    },
  };
  const writers = feeds.map((feed) => {
    const url = feedUrl(settings.feedBase, feed);
    return feed.format === 'indeed'
      ? indeedWriter(
          target.files,
          feed,
          { company: vendor.company, website: vendor.website, feedUrl: url, builtAt: now, locale: feed.lang },
          settings,
          builtAt,
        )
      : sitemapWriter(target.files, feed, url, builtAt, settings.sitemapLimits);
  });
  let vacancies = 0;
  if (vendor.status === 'active' && feeds.length > 0) {
    const today = settings.clock.today(now);
    for await (const page of listableVacancies(
      target.index,
      target.items,
      vendor.vendorId,
      today,
      meter,
      signal,
    )) {
      for (const vacancy of page) for (const writer of writers) await writer.add(vacancy);
      vacancies += page.length;
    }
  }
  const built = [];
  for (const [i, feed] of feeds.entries()) {
    const { files, leftOut } = await (writers[i] as FeedWriter).end();
    await target.files.keepOnly(feed.token, files);
    const held = vacancies - (leftOut ?? 0);
    const recorded = await target.recordBuild(feed.feedId, builtAt, held, leftOut);
    if (!recorded) await target.files.remove(feed.token);
    built.push({
      feedId: feed.feedId,
      files,
      vacancies: held,
      ...(leftOut !== undefined && { leftOut }),
      removed: !recorded,
    });
  }
  const leftOut = Math.max(0, ...built.map((feed) => feed.leftOut ?? 0));
  return { vendorId: vendor.vendorId, feeds: built, vacancies, leftOut, ...cost };
}
