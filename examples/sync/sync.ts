// examples/sync/sync.ts — keeps a copy of a vendor's vacancies in SQLite, by incremental sync
//
//   npx tsx examples/sync/sync.ts --api-key <key> [--base-url http://127.0.0.1:3000] [--db vacancies.db] [--lang az|en]
//                                 [--include pay,workplace]
//
// The first run makes a full sync (updated_since=1970-01-01T00:00:00Z); every later run syncs from the
// `next_sync_url` the last one saved. Each page is applied in one transaction, together with where to go on from,
// so a run that is stopped anywhere goes on from there next time and loses nothing. The copy keeps where it stands
// (the link's route and query), never the host: each run asks the --base-url it is given, so a copy moves with its
// job between environments.
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_OPTIONS, fetchApi, readCommandLine, refused, runProgram } from '../example-program';

/**
 * An active vacancy as a sync gives it: the 15 fields of the vacancy object, its status and when it changed — then,
 * when asked for with `include`, its pay and place (`salary_currency`, `salary_period`, `workplace`).
 */
export interface SyncedVacancy {
  id: number;
  status: 'active';
  updated_at: string;
  [field: string]: unknown;
}

/** A vacancy that is no longer listed: deleted, expired, or given another status. */
export interface Tombstone {
  id: number;
  status: 'inactive' | 'draft' | 'closed' | 'expired' | 'deleted';
  updated_at: string;
}

interface SyncPage {
  data: (SyncedVacancy | Tombstone)[];
  pagination: { next_page_url: string | null; next_sync_url: string };
}

/** What one run did. */
export interface SyncReport {
  /** Whether it started from nothing: the first run, or after a 410. */
  full: boolean;
  pages: number;
  upserted: number;
  removed: number;
  /** Pages the API said had not changed (304). */
  unchanged: number;
}

export interface SyncOptions {
  baseUrl: string;
  apiKey: string;
  /** The SQLite database of the copy (created if missing). */
  db: DatabaseSync;
  lang?: 'az' | 'en';
  /** What each vacancy includes besides its 15 fields: `pay`, `workplace` or both, as the API's `include` takes them. */
  include?: string;
  /** Attempts of one page when the API asks to wait (429, 503), before giving up for this run. */
  maxAttempts?: number;
  fetch?: typeof fetch;
}

const FULL_SYNC = '1970-01-01T00:00:00Z';
/** The route every link of a sync is on; what precedes it is the API's base URL. */
const ROUTE = '/vendor/vacancies';

/**
 * Where a link points, without its base: the route and the query (`/vendor/vacancies?…&cursor=…`). A copy made by an
 * earlier version kept whole URLs: they are read the same way.
 */
export function positionOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname.slice(url.pathname.lastIndexOf(ROUTE))}${url.search}`;
}

/** The URL of a position on the API at `baseUrl`. */
const urlAt = (baseUrl: string, position: string) => `${baseUrl.replace(/\/+$/, '')}${position}`;

/** The copy's tables: the vacancies, and where the next run goes on from. */
export function openCopy(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec(`
    CREATE TABLE IF NOT EXISTS vacancies (id INTEGER PRIMARY KEY, updated_at TEXT NOT NULL, vacancy TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS sync_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
  return db;
}

function state(db: DatabaseSync, name: string): string | undefined {
  const row = db.prepare('SELECT value FROM sync_state WHERE name = ?').get(name) as
    | { value: string }
    | undefined;
  return row?.value;
}

function setState(db: DatabaseSync, name: string, value: string): void {
  db.prepare(
    'INSERT INTO sync_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  ).run(name, value);
}

/**
 * Applies one page and records where to go on from, in one transaction; the first page of a full sync (`fresh`)
 * replaces the copy's contents.
 */
function applyPage(
  db: DatabaseSync,
  url: string,
  etag: string,
  page: SyncPage,
  report: SyncReport,
  fresh: boolean,
): void {
  const upsert = db.prepare(
    'INSERT INTO vacancies (id, updated_at, vacancy) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, vacancy = excluded.vacancy',
  );
  const remove = db.prepare('DELETE FROM vacancies WHERE id = ?');
  db.exec('BEGIN');
  try {
    if (fresh) db.exec('DELETE FROM vacancies');
    // In the order given, oldest change first: a vacancy that comes twice ends as its later change says.
    for (const change of page.data) {
      if (change.status === 'active') {
        upsert.run(change.id, change.updated_at, JSON.stringify(change));
        report.upserted += 1;
      } else {
        remove.run(change.id);
        report.removed += 1;
      }
    }
    // Mid-walk, the next page; at the end, the next sync — where it points, not on which host.
    setState(db, 'next_url', positionOf(page.pagination.next_page_url ?? page.pagination.next_sync_url));
    setState(db, 'last_url', positionOf(url));
    setState(db, 'last_etag', etag);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Makes the next run start over with a full sync (a webhook's `resync_required`: the changes since the copy's time
 * were purged). The copy is emptied when that run starts.
 */
export function resyncNextTime(db: DatabaseSync): void {
  db.prepare("DELETE FROM sync_state WHERE name = 'next_url'").run();
}

/** Starts the copy again from nothing (after a 410): the next fetch a full sync, whose first page empties it. */
function startOver(db: DatabaseSync): void {
  db.exec('DELETE FROM sync_state');
}

/** A position as saved: relative (`/vendor/vacancies?…`), or a whole URL from a copy of an earlier version. */
const savedPosition = (value: string) => positionOf(new URL(value, 'http://saved.invalid').href);

/**
 * One run: walks from where the copy stands to the end of a sync. On 429 and 503 it waits `Retry-After` seconds and
 * tries again; on 410 (the changes since the copy's time are no longer kept) it starts over with a full sync. A page
 * fetched again (a run that polls faster than the sync's snapshot moves) goes with `If-None-Match`: a 304 means the
 * copy already has it.
 */
export async function syncOnce(options: SyncOptions): Promise<SyncReport> {
  const { db } = options;
  const get = options.fetch ?? fetch;
  const lang = options.lang ? `&lang=${options.lang}` : '';
  // The links keep `include`: every page and every later sync brings the fields asked for.
  const include = options.include ? `&include=${encodeURIComponent(options.include)}` : '';
  // Nothing is saved before an answer backs it: a first run that reaches nothing leaves the copy as it was.
  const firstPosition = `${ROUTE}?per_page=100${lang}${include}&updated_since=${FULL_SYNC}`;
  const report: SyncReport = { full: false, pages: 0, upserted: 0, removed: 0, unchanged: 0 };

  for (let attempt = 1; ; ) {
    const saved = state(db, 'next_url');
    // From nothing (a first run, after a 410 or a resync): the copy is emptied with the full sync's first page.
    if (saved === undefined) report.full = true;
    const position = saved === undefined ? firstPosition : savedPosition(saved);
    const url = urlAt(options.baseUrl, position);
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
    const etag = state(db, 'last_etag');
    const last = state(db, 'last_url');
    if (etag && last !== undefined && savedPosition(last) === position) headers['If-None-Match'] = etag;
    const response = await fetchApi(get, url, { headers });

    if (response.status === 429 || response.status === 503) {
      if (attempt >= (options.maxAttempts ?? 5)) throw await refused(url, response);
      attempt += 1;
      await sleep(1000 * Number(response.headers.get('Retry-After') ?? '1'));
      continue;
    }
    attempt = 1;
    if (response.status === 410) {
      startOver(db);
      continue;
    }
    if (response.status === 304) {
      // The same page as last time, already applied: its links are those the copy holds.
      report.unchanged += 1;
      return report;
    }
    if (response.status !== 200) throw await refused(url, response);

    const page = (await response.json()) as SyncPage;
    applyPage(db, url, response.headers.get('ETag') ?? '', page, report, saved === undefined);
    report.pages += 1;
    if (page.pagination.next_page_url === null) return report;
  }
}

/** The vacancies of the copy, by id. */
export function copiedVacancies(db: DatabaseSync): SyncedVacancy[] {
  const rows = db.prepare('SELECT vacancy FROM vacancies ORDER BY id').all() as { vacancy: string }[];
  return rows.map((row) => JSON.parse(row.vacancy) as SyncedVacancy);
}

const USAGE = `usage: sync.ts --api-key <key> [--base-url http://127.0.0.1:3000] [--db vacancies.db] [--lang az|en]
               [--include pay,workplace]

One sync of the vendor's vacancies into a SQLite copy: a full sync the first time, then only what changed since.
--base-url: the API's base URL (npm start prints it; on AWS the stack's ApiUrl). The copy keeps where it stands,
not the host: give another --base-url and it goes on there. --lang absent: the API's default (az). The copy's
file is created if missing (*.db files are ignored by git). --include: each vacancy's pay (currency, period) and
workplace too, kept in the copy; give it from the first run on (a copy started without it gets them as its
vacancies change).`;

// Run from the command line: one sync, then a line saying what it did.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const values = readCommandLine(
    { ...API_OPTIONS, db: { type: 'string', default: 'vacancies.db' }, include: { type: 'string' } },
    USAGE,
    ['api-key'],
  );
  const db = openCopy(values.db);
  await runProgram(async () => {
    const report = await syncOnce({
      baseUrl: values['base-url'],
      apiKey: values['api-key'] as string,
      db,
      ...(values.lang && { lang: values.lang as 'az' | 'en' }),
      ...(values.include && { include: values.include }),
    });
    const total = (db.prepare('SELECT count(*) AS n FROM vacancies').get() as { n: number }).n;
    console.error(
      `${report.full ? 'full sync' : 'sync'}: ${report.pages} pages, ${report.upserted} upserted, ${report.removed} removed${report.unchanged ? ', unchanged' : ''}; ${total} vacancies in ${values.db}`,
    );
  });
  db.close();
}
