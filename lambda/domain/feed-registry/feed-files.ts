/**
 * Where a feed's built files are kept (docs/design.md#feeds): the interface the builder writes through, the server
 * reads through, and `feed remove` deletes through — a folder for `npm start` and the ops CLI against it
 * (`lib/feed-folder.ts`), S3 on AWS. A file is stored gzipped, by the feed's token and a name of `FEED_FILE`, with
 * the time of the build that wrote it; serving it (conditional requests, gzip or not) is the reader's.
 */
import type { Readable } from 'node:stream';

/** A stored file, as a reader finds it. */
export interface StoredFeedFile {
  /** Its entity tag as HTTP writes it (`W/"…"`: one tag for the gzipped and the plain bytes, compared weakly). */
  readonly etag: string;
  /** When the build that wrote it ran (ms): its `Last-Modified`. */
  readonly builtAt: number;
  /** Its size, gzipped (bytes). */
  readonly size: number;
}

/** A stored file, open: its gzipped bytes, to be read to the end — or destroyed unread (a HEAD, a 304). */
export interface OpenFeedFile extends StoredFeedFile {
  readonly gzipped: Readable;
}

/** A feed's files, by token and name (both checked: `FEED_TOKEN`, `FEED_FILE` in `feed.ts`). */
export interface FeedFiles {
  /**
   * Stores a file — gzipped XML, streamed, never held whole — replacing the one of that name at once: a reader gets
   * the old file or the new one, whole. Refuses (throws) a token or name not of the patterns.
   */
  put(
    token: string,
    file: string,
    gzipped: AsyncIterable<Uint8Array>,
    builtAt: number,
  ): Promise<StoredFeedFile>;
  /** The file, open; undefined when there is none — including for any token or name not of the patterns. */
  get(token: string, file: string): Promise<OpenFeedFile | undefined>;
  /** Deletes every file of a feed; nothing when it has none. */
  remove(token: string): Promise<void>;
  /** Deletes a feed's files other than these: what an earlier build wrote and this one did not (a sitemap's parts). */
  keepOnly(token: string, files: readonly string[]): Promise<void>;
}
