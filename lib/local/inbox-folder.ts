/**
 * The inbox of `npm start -- --inbox <dir>` (docs/operating.md#the-inbox): a folder with the bucket's layout, whose
 * files under `incoming/` go through the inbox function's own code (`handleInboxKey`) as they arrive — one at a
 * time, as S3 events would invoke it, moved to `done/`, `failed/` or `held/` with a report in `reports/`.
 *
 * A folder is not a bucket: a file copied in appears before it is complete. A file is taken once its size and
 * modification time have stood still for `SETTLE_MS` (or write it elsewhere and rename it in; dot files are
 * ignored until then, as their names say they are still being written). Only regular files are read: a symbolic
 * link, a pipe or a device is never followed nor opened, and goes to `failed/` with why. A file is read from the
 * handle opened when it was picked up, so renaming it meanwhile changes nothing of what is imported.
 */
import { constants, type Stats, watch } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableNames } from '../../lambda/domain/schema/tables';
import { handleInboxKey, type InboxObjects, type OpenedObject } from '../../lambda/functions/inbox/inbox';
import { INBOX_FOLDERS } from '../../lambda/functions/inbox/layout';
import type { FileReport } from '../../lambda/functions/inbox/report';
import type { ZoneClock } from '../../lambda/platform/time/zone-clock';

/** How long a file must stand still before it is taken. */
const SETTLE_MS = 250;

const errorCode = (error: unknown) => (error as { code?: string } | null)?.code;
const isMissing = (error: unknown) => errorCode(error) === 'ENOENT';

/** What kind of entry a non-regular file is, in words. */
function entryKind(entry: Stats): string {
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isDirectory()) return 'a folder';
  if (entry.isFIFO()) return 'a named pipe';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Why an entry is not read. */
const notRegular = (kind: string) => ({
  refused: `${kind}: the inbox reads only regular files, and never follows a link; put the file itself in incoming/`,
});

/**
 * Opens a regular file, never through a link: `lstat` says what the entry is, and the open refuses a link put there
 * meanwhile (`O_NOFOLLOW`) and never waits on a pipe (`O_NONBLOCK`).
 */
async function openRegularFile(path: string): Promise<OpenedObject | { refused: string } | undefined> {
  let entry: Stats;
  try {
    entry = await lstat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!entry.isFile()) return notRegular(entryKind(entry));
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    if (errorCode(error) === 'ELOOP') return notRegular('a symbolic link');
    throw error;
  }
  const opened = await handle.stat();
  if (!opened.isFile()) {
    await handle.close();
    return notRegular(entryKind(opened));
  }
  return {
    body: handle.createReadStream({ autoClose: false }),
    version: `${opened.dev}:${opened.ino}:${opened.size}:${opened.mtimeMs}`,
    close: () => handle.close(),
  };
}

/** The inbox's objects as files of a folder: a key is a path under it. */
export function folderObjects(folder: string): InboxObjects {
  const path = (key: string) => join(folder, ...key.split('/'));
  return {
    open: (key) => openRegularFile(path(key)),
    async write(key, body) {
      // Written beside, then renamed: a reader never sees half a report.
      await mkdir(dirname(path(key)), { recursive: true });
      const partial = `${path(key)}.partial`;
      await writeFile(partial, body);
      await rename(partial, path(key));
    },
    async move(from, to) {
      await mkdir(dirname(path(to)), { recursive: true });
      try {
        await rename(path(from), path(to));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}

/** What the folder's inbox works with. */
export interface InboxFolderOptions {
  readonly folder: string;
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly clock: ZoneClock;
  readonly maxClosePercent: number;
  /** The deployment's `jobCountry`: in the EU, a listable vacancy without pay is warned of. */
  readonly jobCountry?: string;
  /** Each file's report, as it is written. */
  readonly onReport: (report: FileReport) => void;
  readonly onError: (error: unknown, key: string) => void;
}

/** A watched inbox folder. */
export interface InboxFolder {
  /** Resolves once every file seen so far is handled. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Every file under a folder, as keys relative to `root`. */
async function filesUnder(root: string, folder: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  // Every entry but a folder: one that is not a regular file is refused (and reported), not passed over.
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** Watches `<folder>/incoming/` and imports what arrives there (and what is there already). */
export async function watchInboxFolder(options: InboxFolderOptions): Promise<InboxFolder> {
  const { folder } = options;
  const incoming = join(folder, INBOX_FOLDERS.incoming);
  await mkdir(incoming, { recursive: true });
  const objects = folderObjects(folder);
  const waiting = new Map<string, NodeJS.Timeout>();
  let queue = Promise.resolve();
  let stopped = false;
  // Stopping stops the file under way cleanly: it stays in incoming/, and the next start finishes it.
  const stopping = new AbortController();

  const handle = (key: string) => {
    queue = queue.then(async () => {
      if (stopped) return;
      try {
        await handleInboxKey(
          {
            objects,
            client: options.client,
            tables: options.tables,
            clock: options.clock,
            maxClosePercent: options.maxClosePercent,
            ...(options.jobCountry !== undefined && { jobCountry: options.jobCountry }),
            log: options.onReport,
            signal: stopping.signal,
          },
          key,
        );
      } catch (error) {
        options.onError(error, key);
      }
    });
  };
  /** Takes a file once it has stood still: its size and time the same `SETTLE_MS` apart. */
  const settle = (key: string) => {
    clearTimeout(waiting.get(key));
    const path = join(folder, ...key.split('/'));
    const check = async (before?: string) => {
      let now: string;
      try {
        // The entry itself, never what a link points to; a folder's own files are seen on their own.
        const found = await lstat(path);
        if (found.isDirectory()) throw new Error('a folder');
        now = `${found.size}:${found.mtimeMs}`;
      } catch {
        waiting.delete(key);
        return;
      }
      if (now !== before) {
        waiting.set(
          key,
          setTimeout(() => void check(now), SETTLE_MS),
        );
        return;
      }
      waiting.delete(key);
      handle(key);
    };
    void check();
  };

  const watcher = watch(incoming, { recursive: true }, (_event, name) => {
    if (name && !stopped) settle(`${INBOX_FOLDERS.incoming}${String(name).split(sep).join('/')}`);
  });
  for (const key of await filesUnder(folder, incoming)) settle(key);

  return {
    async idle() {
      for (;;) {
        const current = queue;
        await current;
        if (waiting.size === 0 && current === queue) return;
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
    },
    async stop() {
      stopped = true;
      stopping.abort();
      watcher.close();
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      await queue;
    },
  };
}
