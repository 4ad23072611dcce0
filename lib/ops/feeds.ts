/**
 * The operator's feeds (docs/operating.md#feeds): add, list, remove — over the record's persistence
 * (`lambda/domain/feed-registry/feed-store.ts`), with what only the CLI says: a feed as `feed list` shows it (its URL
 * under the deployment's feed base), the vendor that must exist, and the one-line refusals. A removed feed's files
 * are deleted before its record, so that nothing stays served for a feed that is gone.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  type Feed,
  type FeedFormat,
  feedUrl,
  MAX_FEEDS_PER_VENDOR,
} from '../../lambda/domain/feed-registry/feed';
import type { FeedFiles } from '../../lambda/domain/feed-registry/feed-files';
import { FeedStore } from '../../lambda/domain/feed-registry/feed-store';
import type { Locale } from '../../lambda/domain/schema/vacancy';
import { UserError } from './errors';
import { placeRefused, requireVendor } from './vendors';

/** A feed as `feed list` shows it: its URL rather than its token, times in ISO 8601. */
export interface FeedView {
  readonly feedId: string;
  readonly vendorId: string;
  readonly format: FeedFormat;
  readonly lang: Locale;
  readonly url: string;
  readonly createdAt: string;
  /** When its last build ran, and how many vacancies it holds: absent until it is first built. */
  readonly lastBuildAt?: string;
  readonly vacancies?: number;
  /** A sitemap's: how many listable vacancies its last build left out, their URL being one no sitemap can list. */
  readonly leftOut?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function feedView(feed: Feed, base: string): FeedView {
  return {
    feedId: feed.feedId,
    vendorId: feed.vendorId,
    format: feed.format,
    lang: feed.lang,
    url: feedUrl(base, feed),
    createdAt: iso(feed.createdAt),
    ...(feed.builtAt !== undefined && { lastBuildAt: iso(feed.builtAt) }),
    ...(feed.vacancies !== undefined && { vacancies: feed.vacancies }),
    ...(feed.leftOut !== undefined && { leftOut: feed.leftOut }),
  };
}

/** Adds a feed of an existing vendor; refused in one line for an unknown vendor or a vendor with five. */
export async function addFeed(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  format: FeedFormat,
  lang: Locale,
): Promise<Feed> {
  await requireVendor(client, tableName, vendorId);
  const placed = await new FeedStore(client, tableName).add(vendorId, format, lang);
  if ('added' in placed) return placed.added;
  throw placeRefused(vendorId, placed.refused, MAX_FEEDS_PER_VENDOR, 'feeds');
}

/** Feeds of a vendor (one Query), or of every vendor. */
export function listFeeds(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId?: string,
): Promise<Feed[]> {
  const store = new FeedStore(client, tableName);
  return vendorId ? store.ofVendor(vendorId) : store.all();
}

/**
 * Removes a feed: its files first (where `files` keeps them), then its record and place. Refused in one line when
 * there is no such feed. Returns the feed as it was.
 */
export async function removeFeed(
  client: DynamoDBDocumentClient,
  tableName: string,
  feedId: string,
  files: FeedFiles | undefined,
): Promise<Feed> {
  const store = new FeedStore(client, tableName);
  const feed = await store.get(feedId);
  if (!feed) throw new UserError(`feed "${feedId}" does not exist.`);
  await files?.remove(feed.token);
  return (await store.remove(feedId)) ?? feed;
}

/** How long `feed add` waits, against the local server, for a new feed's first build to be served. */
export const FIRST_BUILD_WAIT_MS = 60_000;

/**
 * Resolves once a new feed's URL answers 200 — the local server has built it and serves it: it builds a feed within
 * seconds of its `add` (docs/operating.md#feeds). Polls the URL itself, as a board would fetch it. One line, with
 * the feed said to be added, when nothing answers at the URL (no server is running on these tables) or no build is
 * served within `timeoutMs`.
 */
export async function awaitFirstBuild(
  view: Pick<FeedView, 'feedId' | 'url'>,
  options: { readonly timeoutMs?: number; readonly intervalMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? FIRST_BUILD_WAIT_MS;
  const { origin } = new URL(view.url);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(view.url, { method: 'HEAD', signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      (error: unknown) => {
        const cause = (error as { cause?: { code?: unknown } }).cause?.code;
        if (cause === 'ECONNREFUSED')
          throw new UserError(
            `feed ${view.feedId} was added, but nothing answers at ${origin}: npm start builds it once it runs on these tables ("feed list" says when).`,
          );
        // Slow to answer: asked again, until the deadline.
        return undefined;
      },
    );
    if (status === 200) return;
    if (Date.now() >= deadline)
      throw new UserError(
        `feed ${view.feedId} was added, but the local server at ${origin} served no build of it within ${timeoutMs / 1000} s ("feed list" says when it is built).`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
}
