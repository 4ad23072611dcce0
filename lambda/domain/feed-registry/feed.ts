/**
 * A feed, the record (docs/design.md#feeds): one item of the vendors table per feed (`feed#<id>`,
 * kind `feed` on the `by-kind` index, so a vendor's feeds are one Query) — which vendor's listable vacancies, in which
 * format and language, at which unlisted URL, and what its last build made. Its persistence is `feed-store.ts`; the
 * files a build writes are kept through `feed-files.ts`. The XML itself is the writers'.
 */
import { randomBytes } from 'node:crypto';
import type { Locale } from '../schema/vacancy';

/** Key of a feed's item. */
export const feedItemKey = (feedId: string) => ({ pk: `feed#${feedId}` });

/** Feeds a vendor may have. */
export const MAX_FEEDS_PER_VENDOR = 5;

/** What a feed is: Indeed's XML job feed (which other boards read too), or a sitemaps.org sitemap. */
export const FEED_FORMATS = ['indeed', 'sitemap'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** The file a feed's URL names, by format. */
export const FEED_FILES: Readonly<Record<FeedFormat, string>> = {
  indeed: 'indeed.xml',
  sitemap: 'sitemap.xml',
};

/** A feed as stored. */
export interface Feed {
  /** `fd_` and 12 base64url characters. */
  readonly feedId: string;
  readonly vendorId: string;
  readonly format: FeedFormat;
  /** The language of its labels (city, category): the deployment's default unless the operator chose. */
  readonly lang: Locale;
  /** What its URL is unguessable by: base64url of `FEED_TOKEN_BYTES` random bytes. Not a credential. */
  readonly token: string;
  /** When it was added, by the service's clock (ms). */
  readonly createdAt: number;
  /** When its last build ran (ms), and how many vacancies that build put in it; absent until its first build. */
  readonly builtAt?: number;
  readonly vacancies?: number;
  /**
   * A sitemap's: how many listable vacancies its last build left out, their URL being one no sitemap can list (stored
   * before the import refused such URLs: docs/api.md#feeds).
   */
  readonly leftOut?: number;
}

/** Random bytes of a token: 192 bits, where §15 asks for at least 128; 32 base64url characters. */
export const FEED_TOKEN_BYTES = 24;

/** A token, exactly as `newFeedToken` writes one: a URL's token is looked up only when it is one. */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{32}$/;

/**
 * The names a feed's files may have: its format's file, and the parts of a sitemap index (`sitemap-1.xml` …) that a
 * sitemap above 50,000 URLs or 50 MB is split into, served beside it (§15). Nothing else is ever stored or served.
 */
export const FEED_FILE = /^(?:indeed\.xml|sitemap\.xml|sitemap-[1-9][0-9]{0,5}\.xml)$/;

/** A new feed's token. */
export const newFeedToken = (): string => randomBytes(FEED_TOKEN_BYTES).toString('base64url');

/** A new feed's id. */
export const newFeedId = (): string => `fd_${randomBytes(9).toString('base64url')}`;

/** Where every feed's files are served, under the feed base: `/feeds/<token>/<file>`. */
export const FEEDS_PATH = '/feeds/';

/**
 * The body of every answer that is not a feed's file — an unknown or removed token, another name, another path —
 * locally and on AWS: the same bytes whatever the reason (§15), so that an answer tells nothing of which tokens exist.
 */
export const FEED_NOT_FOUND_TEXT = 'Not Found\n';

/** A feed's URL: the deployment's feed base (no trailing slash), the token, the format's file. */
export const feedUrl = (base: string, feed: Pick<Feed, 'token' | 'format'>): string =>
  `${base}${FEEDS_PATH}${feed.token}/${FEED_FILES[feed.format]}`;
