/**
 * `npm start -- --inbox <dir>` (docs/operating.md#the-inbox): the folder plays the bucket — a file put in
 * `incoming/` is imported by the inbox's own code, moved and reported, and its vacancies are served; a snapshot
 * held by the closing limit waits in `held/`.
 */
import { access, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FUNCTION_LIMITS } from '../../../../lambda/domain/service/limits';
import type { FileReport } from '../../../../lambda/functions/inbox/report';
import { writeGzipBomb } from '../../../../testkit/gzip-bomb';
import { type NpmStart, startNpmStart } from '../../../../testkit/npm-start';
import { vacancyRecord } from '../../../../testkit/vacancies';

const KEY = 'vvk_demo_caspian_digital';
const ndjson = (records: readonly Record<string, unknown>[]) =>
  records.map((record) => JSON.stringify(record)).join('\n');
const caspian = (id: number) =>
  vacancyRecord({ id, vendor_id: 'caspian-digital', url: `https://careers.example.com/jobs/${id}` });

let folder: string;
let server: NpmStart;

/**
 * Puts a file in as a careful writer does (written as a dot file by `write`, renamed), and waits for its report.
 */
async function drop(
  path: string,
  body: string | ((partial: string) => Promise<unknown>),
): Promise<FileReport> {
  const target = join(folder, 'incoming', ...path.split('/'));
  const partial = join(target, '..', `.${path.split('/').at(-1)}.part`);
  await mkdir(join(target, '..'), { recursive: true });
  if (typeof body === 'string') await writeFile(partial, body);
  else await body(partial);
  await rename(partial, target);
  return reportOf(path);
}

/** Waits for a file's report. */
async function reportOf(path: string): Promise<FileReport> {
  const report = join(folder, 'reports', `${path}.json`);
  for (;;) {
    try {
      return JSON.parse(await readFile(report, 'utf8')) as FileReport;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const exists = (path: string) =>
  access(join(folder, path)).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inbox-folder-'));
  // A file already there when the server starts is imported too.
  await mkdir(join(folder, 'incoming'), { recursive: true });
  await writeFile(join(folder, 'incoming', 'waiting.ndjson'), ndjson([caspian(9001)]));
  server = await startNpmStart(['--inbox', folder]);
});
afterAll(async () => {
  await server.stop();
  await rm(folder, { recursive: true, force: true });
});

describe('npm start -- --inbox', () => {
  it('says where the inbox is', () => {
    expect(server.banner).toContain(`Inbox: ${folder}/incoming/`);
  });

  it('imports a file put in incoming/, moves it to done/, reports it, and serves its vacancies', async () => {
    const report = await drop('2026-11-25/delta.ndjson', ndjson([caspian(9002), caspian(9003), { id: 'x' }]));
    expect(report).toMatchObject({ outcome: 'done', read: 3, written: 2, rejected: 1 });
    expect(report.rejections).toEqual([{ line: 3, reason: expect.any(String) }]);
    expect(await exists('done/2026-11-25/delta.ndjson')).toBe(true);
    expect(await exists('incoming/2026-11-25/delta.ndjson')).toBe(false);
    expect(await exists('done/waiting.ndjson')).toBe(true);

    const response = await fetch(`${server.url}/vendor/vacancies?per_page=100`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    const ids = ((await response.json()) as { data: { id: number }[] }).data.map(({ id }) => id);
    expect(ids).toEqual(expect.arrayContaining([9001, 9002, 9003]));
    // The line follows the report file: waited for, as a reader watching the terminal would.
    const line = /inbox {2}2026-11-25\/delta\.ndjson → done\/ {2}read 3, written 2, unchanged 0, rejected 1/;
    expect(await server.printed((stdout) => line.test(stdout))).toMatch(line);
  });

  it('moves a file whose every record was rejected to done/, its report and its line saying "rejected"', async () => {
    const report = await drop('all-rejected.ndjson', ndjson([{ id: 'x' }]));
    expect(report).toMatchObject({ outcome: 'rejected', read: 1, written: 0, unchanged: 0, rejected: 1 });
    expect(await exists('done/all-rejected.ndjson')).toBe(true);
    const line =
      /inbox {2}all-rejected\.ndjson → done\/ \(rejected\) {2}read 1, written 0, unchanged 0, rejected 1 {2}.* {2}every record of the file was rejected \(1 of 1\): none was imported; see rejections/;
    expect(await server.printed((stdout) => line.test(stdout))).toMatch(line);
  });

  it('holds a snapshot that would close too much in held/, writing nothing', async () => {
    const report = await drop('snapshots/caspian-digital/nightly.ndjson', ndjson([caspian(9002)]));
    expect(report).toMatchObject({ outcome: 'held', snapshotOf: 'caspian-digital', written: 0, closed: 0 });
    expect(report.reason).toMatch(/^this snapshot would close \d+ of caspian-digital's \d+ active vacancies/);
    expect(await exists('held/snapshots/caspian-digital/nightly.ndjson')).toBe(true);
  });

  it('refuses a gzip bomb whole, and keeps answering while it does and after', async () => {
    /** A listing's status, and how long it took to come (ms). */
    const listing = async () => {
      const started = performance.now();
      const { status } = await fetch(`${server.url}/vendor/vacancies?per_page=1`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      return { status, ms: performance.now() - started };
    };
    // 500 MiB of `{}` lines in about 515 KB: a record a line, far more than a file may hold.
    let bombBytes = 0;
    const reported = drop('bomb.ndjson.gz', async (partial) => {
      bombBytes = await writeGzipBomb(partial, { unit: '{}\n', bytes: 500 * 1024 * 1024 });
    });
    const answered: { status: number; ms: number }[] = [];
    let done = false;
    void reported.finally(() => {
      done = true;
    });
    while (!done) answered.push(await listing());
    const report = await reported;
    expect(bombBytes).toBeLessThan(600 * 1024);
    expect(report).toMatchObject({
      outcome: 'failed',
      read: 0,
      written: 0,
      reason:
        'the file has more than 100,000 records, the most a file may hold: the limit was reached at line 100001; split it',
    });
    expect(await exists('failed/bomb.ndjson.gz')).toBe(true);
    // Every request was answered while the bomb was read. How fast is the machine's load's business: an answer
    // other than 200 may only be the one the contract gives a listing whose DynamoDB call ran out of time — a 503
    // (or the gateway's 502 past the function's timeout) — and only after at least the shortest time a call is
    // given, as measured: slow, never refused.
    expect(answered.length).toBeGreaterThan(0);
    const slowest = FUNCTION_LIMITS.listing.dynamodb.connectionTimeoutMs;
    const unexplained = answered.filter(
      ({ status, ms }) => status !== 200 && !([502, 503].includes(status) && ms >= slowest),
    );
    expect(unexplained).toEqual([]);
    expect((await listing()).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });

  it('never follows a symbolic link: it goes to failed/ with why, and what it points to is never read', async () => {
    await symlink('/etc/passwd', join(folder, 'incoming', 'link.ndjson'));
    const report = await reportOf('link.ndjson');
    expect(report).toMatchObject({
      outcome: 'failed',
      read: 0,
      reason: expect.stringMatching(/^a symbolic link: /),
    });
    expect(JSON.stringify(report)).not.toContain('root:');
    expect(server.stdout()).not.toContain('root:');
  });
});
