/**
 * A feed's build killed midway (docs/operating.md#feeds): `npm start --data-dir` SIGKILLed while it writes a feed's
 * file — its partial file, `.<file>.<hex>.partial`, in the feed's folder beside the file served — and started again
 * on the same data. The next start leaves no partial file behind, and serves the feed whole.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { localTableNames } from '../../../lib/create-tables';
import { cliTarget, startAdmin } from '../../../testkit/admin-cli';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';
import { vacancyRecord } from '../../../testkit/vacancies';

const VENDOR = 'feed-kill';
/** Enough vacancies, each with long texts, that writing the feed's file takes a while: the kill lands in it. */
const VACANCIES = 2_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The partial files under the feeds' folder, as paths relative to it. */
async function partials(feeds: string): Promise<string[]> {
  const names = await readdir(feeds, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return names.filter((name) => name.endsWith('.partial'));
}

/** The embedded engine's address, as the banner prints it. */
const engineOf = (server: NpmStart) =>
  /DynamoDB \(embedded\): (http:\/\/127\.0\.0\.1:\d+)/.exec(server.banner)?.[1] ?? '';

describe('npm start killed while it writes a feed', () => {
  let folder: string;
  let server: NpmStart | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'vva-feed-kill-'));
    const text = 'Build, run and improve the services our customers rely on every day. '.repeat(50);
    await writeFile(
      join(folder, 'seed.json'),
      JSON.stringify({
        vendors: [{ id: VENDOR, company: 'Feed Kill', status: 'active', api_keys: ['vvk_test_feed_kill'] }],
        vacancies: Array.from({ length: VACANCIES }, (_, i) =>
          vacancyRecord({
            id: 500_000 + i,
            vendor_id: VENDOR,
            url: `https://careers.example.com/jobs/${500_000 + i}`,
            description: text,
            requirements: text,
          }),
        ),
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('leaves no partial file once it has started again, and serves the feed whole', async () => {
    const dataDir = join(folder, 'data');
    const feeds = join(dataDir, 'feeds');
    server = await startNpmStart(['--data-dir', dataDir, '--seed', join(folder, 'seed.json')]);
    // The feed's first build follows its add by seconds: the server is killed as soon as its file is being written.
    const added = startAdmin([
      ...cliTarget(engineOf(server), localTableNames()),
      'feed',
      'add',
      VENDOR,
      '--format',
      'indeed',
    ]);
    const addExited = new Promise((resolve) => added.once('exit', resolve));
    let left: string[] = [];
    while (left.length === 0) {
      if (server.process.exitCode !== null) throw new Error(`npm start exited: ${server.stderr()}`);
      left = await partials(feeds);
      if (left.length === 0) await pause(5);
    }
    await server.stop('SIGKILL');
    added.kill('SIGKILL');
    await addExited;
    // Killed midway: the partial file is there, and no file is served yet.
    const [partial = ''] = left;
    expect(await stat(join(feeds, partial))).toBeTruthy();
    const token = partial.split('/')[0] ?? '';
    expect(await readdir(join(feeds, token))).toEqual([partial.split('/')[1]]);

    // Started again on the same data: its start builds the feed anew, and the killed build's partial file is gone.
    server = await startNpmStart(['--data-dir', dataDir]);
    expect(await readdir(join(feeds, token))).not.toContain(partial.split('/')[1]);
    const answer = await fetch(`${server.url}/feeds/${token}/indeed.xml`);
    expect(answer.status).toBe(200);
    expect((await answer.text()).match(/<job>/g)).toHaveLength(VACANCIES);
    expect(await server.stop('SIGINT')).toBe(0);
  }, 240_000);
});
