/**
 * A feed's files in a folder (docs/design.md#feeds): the `FeedFiles` of `npm start` — its server serves them, and
 * the ops CLI against its engine deletes a removed feed's — as S3 will keep them on AWS. A file is
 * `<folder>/<token>/<name>.gz`, its modification time the build's; a put writes beside it and renames over it, so a
 * reader finds the old file or the new one, whole. A put killed with its process (SIGKILL) leaves its partial file
 * beside: the next start deletes every one (`removePartialFiles`), before any put of its own. Tokens and names are
 * checked against the record's patterns before any path is made of them: no path can leave the folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FEED_FILE, FEED_TOKEN } from '../lambda/domain/feed-registry/feed';
import type { FeedFiles, OpenFeedFile, StoredFeedFile } from '../lambda/domain/feed-registry/feed-files';

const isToken = (token: string) => FEED_TOKEN.test(token);
const isFile = (file: string) => FEED_FILE.test(file);

/**
 * A stored file's entity tag: its build's time and its size — what changes whenever a build writes it again, read
 * from the file itself, as a web server's is. Weak: one tag names the gzipped bytes and the plain ones.
 */
const etagOf = (builtAt: number, size: number) => `W/"${builtAt.toString(36)}-${size.toString(36)}"`;

const described = (builtAt: number, size: number): StoredFeedFile => ({
  etag: etagOf(builtAt, size),
  builtAt,
  size,
});

/** A put's file while it is written: a name no reader asks for (a dot first), `.<file>.<12 hex digits>.partial`. */
const PARTIAL = new RegExp(`^\\.(?:${FEED_FILE.source.replace(/^\^|\$$/g, '')})\\.[0-9a-f]{12}\\.partial$`);

const partialName = (file: string) => `.${file}.${randomBytes(6).toString('hex')}.partial`;

/**
 * Deletes the partial files of puts that did not finish in `folder` — killed with their process, which had no chance
 * to delete its own — and returns how many. For a start, before its first put: a file being written now by another
 * process is not told apart (`npm start` refuses a data folder another has open, and the ops CLI puts nothing).
 */
export async function removePartialFiles(folder: string): Promise<number> {
  const tokens = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let removed = 0;
  for (const token of tokens) {
    if (!token.isDirectory() || !isToken(token.name)) continue;
    const partials = (await readdir(join(folder, token.name))).filter((name) => PARTIAL.test(name));
    await Promise.all(partials.map((name) => rm(join(folder, token.name, name), { force: true })));
    removed += partials.length;
  }
  return removed;
}

/** The feed files kept in `folder` (made when the first is put). */
export function folderFeedFiles(folder: string): FeedFiles {
  const path = (token: string, file: string) => join(folder, token, `${file}.gz`);
  return {
    async put(token, file, gzipped, builtAt) {
      if (!isToken(token) || !isFile(file)) throw new Error(`not a feed's file: ${token}/${file}`);
      await mkdir(join(folder, token), { recursive: true });
      // A name no reader asks for (a dot first, then the random part): a put killed midway leaves nothing served,
      // and the next start deletes what it left.
      const partial = join(folder, token, partialName(file));
      try {
        const handle = await open(partial, 'wx');
        await pipeline(gzipped, handle.createWriteStream());
        // Whole milliseconds, as the time is given: the modification time is the build's.
        await utimes(partial, builtAt / 1000, builtAt / 1000);
        const { size } = await stat(partial);
        await rename(partial, path(token, file));
        return described(builtAt, size);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },

    async get(token, file): Promise<OpenFeedFile | undefined> {
      if (!isToken(token) || !isFile(file)) return undefined;
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(path(token, file), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        // Described and read through one handle: a put renaming a new file in meanwhile changes neither.
        const { mtimeMs, size } = await handle.stat();
        return { ...described(Math.round(mtimeMs), size), gzipped: handle.createReadStream() };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async remove(token) {
      if (!isToken(token)) throw new Error(`not a feed's token: ${token}`);
      await rm(join(folder, token), { recursive: true, force: true });
    },

    async keepOnly(token, files) {
      if (!isToken(token)) throw new Error(`not a feed's token: ${token}`);
      const kept = new Set(files.map((file) => `${file}.gz`));
      const names = await readdir(join(folder, token)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      // Files only (a put's partial starts with a dot, and is its own to clean).
      const stale = names.filter((name) => name.endsWith('.gz') && !name.startsWith('.') && !kept.has(name));
      await Promise.all(stale.map((name) => rm(join(folder, token, name), { force: true })));
    },
  };
}
