/**
 * The inbox's layout (docs/operating.md#the-inbox), written once for the bucket on AWS and the folder of
 * `npm start -- --inbox`: files arrive under `incoming/`; each ends in `done/`, `failed/` or `held/` under the same
 * path, with its report at `reports/<path>.json`. A file under `incoming/snapshots/<vendorId>/` is a snapshot of that
 * vendor.
 */
import { isVendorId } from '../../domain/schema/vendors';

/** The folders of the inbox, each a key prefix. */
export const INBOX_FOLDERS = {
  incoming: 'incoming/',
  done: 'done/',
  failed: 'failed/',
  held: 'held/',
  reports: 'reports/',
} as const;

/** Where a file of `incoming/` goes once it is handled. */
export type FileOutcomeFolder = 'done' | 'failed' | 'held';

/** The folder under `incoming/` whose subfolders are vendors' snapshots. */
export const SNAPSHOTS_FOLDER = 'snapshots/';

/** The names the inbox imports: NDJSON or a JSON array, each optionally gzip-compressed. */
export const IMPORT_FILE_NAME = /\.(ndjson|json)(\.gz)?$/i;

/** A file of `incoming/`, as its key says. */
export interface InboxFile {
  /** Its key (`incoming/…`). */
  readonly key: string;
  /** Its path under `incoming/`, kept in every other folder. */
  readonly path: string;
  readonly compressed: boolean;
  /** The vendor whose complete set it is, for a snapshot. */
  readonly snapshotOf?: string;
}

/** What a key of the inbox is: a file to import, one refused for its name (and why), or not a file at all. */
export type InboxKey =
  | { readonly file: InboxFile }
  | { readonly refused: string; readonly path: string }
  | { readonly ignored: string };

/** Reads a key of the inbox. */
export function inboxKey(key: string): InboxKey {
  if (!key.startsWith(INBOX_FOLDERS.incoming)) return { ignored: 'not under incoming/' };
  const path = key.slice(INBOX_FOLDERS.incoming.length);
  // A "folder" made in the console, or a dot file a tool writes while it copies.
  if (path === '' || path.endsWith('/')) return { ignored: 'a folder' };
  if (path.split('/').some((part) => part.startsWith('.'))) return { ignored: 'a hidden file' };
  if (!IMPORT_FILE_NAME.test(path)) {
    return { refused: 'not an import file: its name must end in .ndjson or .json (optionally .gz)', path };
  }
  const compressed = /\.gz$/i.test(path);
  if (!path.startsWith(SNAPSHOTS_FOLDER)) return { file: { key, path, compressed } };
  const [vendorId = '', ...rest] = path.slice(SNAPSHOTS_FOLDER.length).split('/');
  if (rest.length === 0 || !isVendorId(vendorId)) {
    return {
      refused: 'a snapshot goes under incoming/snapshots/<vendorId>/, in the folder of a valid vendor id',
      path,
    };
  }
  return { file: { key, path, compressed, snapshotOf: vendorId } };
}

/** Where a file goes when it is handled. */
export const outcomeKey = (folder: FileOutcomeFolder, path: string) => `${INBOX_FOLDERS[folder]}${path}`;
/** Where its report is written. */
export const reportKey = (path: string) => `${INBOX_FOLDERS.reports}${path}.json`;
