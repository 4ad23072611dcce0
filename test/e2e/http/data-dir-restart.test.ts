/**
 * `npm start -- --data-dir <dir>` started, stopped with Ctrl-C (SIGINT) and started again, as a developer does
 * (issue #51, item 1): the second start loads no seed, yet its banner still shows the demo seed's keys that are still
 * stored and not revoked — and no other key, such as one issued since, which is kept only as its hash — and the career
 * page still gets a key that the listing answers; when none is left, the banner says so and what to run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { admin as runAdmin } from '../../../testkit/admin-cli';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

/**
 * `npx vacancy-admin --endpoint <engine> <args>`, as the banner says it (from the run's bundle of the CLI; the
 * newcomer's test runs `npx` itself); resolves with its standard output.
 */
const admin = (endpoint: string, args: readonly string[]) => runAdmin(['--endpoint', endpoint, ...args]);

/** The engine's endpoint the banner names. */
const engineOf = (server: NpmStart) => /DynamoDB \(embedded\): (\S+)/.exec(server.banner)?.[1] ?? '';

/** The career page as a browser opens it (at localhost, the banner's address), and the key its tag was given. */
async function careerPage(server: NpmStart): Promise<{ url: string; key: string | undefined }> {
  const url = /Career page: +(\S+)/.exec(server.banner)?.[1] ?? '';
  const html = await (await fetch(url)).text();
  return { url, key: /<vacancy-board [^>]*key="([^"]*)"/.exec(html)?.[1] };
}

/** The status of the first listing page asked with a key, from an origin (a page's) or none (a sync job's). */
async function listing(server: NpmStart, key: string, origin?: string): Promise<number> {
  const response = await fetch(`${server.url}/vendor/vacancies?per_page=1`, {
    headers: { Authorization: `Bearer ${key}`, ...(origin && { Origin: origin }) },
  });
  await response.arrayBuffer();
  return response.status;
}

/** The live keys of a vendor, by label (`key list`): their ids. */
async function liveKeyIds(endpoint: string, vendorId: string): Promise<Map<string, string>> {
  const lines = (await admin(endpoint, ['key', 'list', vendorId])).split('\n');
  return new Map(
    lines.flatMap((line) => {
      const match = /^(key_\w+)\s+live\s+created \S+\s+(.+?)(?:\s{2}publishable:.*)?$/.exec(line);
      return match ? [[match[2] as string, match[1] as string] as const] : [];
    }),
  );
}

describe('npm start with --data-dir, stopped and started again', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'data-dir-restart-'));
  let running: NpmStart | undefined;
  /** Stops the one running (Ctrl-C), then starts again with the same data folder. */
  const restart = async () => {
    if (running) expect(await running.stop('SIGINT')).toBe(0);
    running = await startNpmStart(['--data-dir', dataDir]);
    return running;
  };
  afterAll(async () => {
    await running?.stop('SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps its banner and its career page working: the seed keys still stored, and the page key', async () => {
    const first = await restart();
    expect(first.banner).toContain('Seed: lib/local/demo-seed.json (3 vendors, 4 keys, 60 vacancies)');
    // A key issued since the seed: stored only as its hash, never to be shown by a later start.
    const issued = /\n\s+(vvk_\S+)\n/.exec(
      await admin(engineOf(first), ['key', 'issue', 'caspian-digital']),
    )?.[1];
    expect(issued).toMatch(/^vvk_/);

    const again = await restart();
    expect(again.banner).toContain(
      "Seed: none loaded (tables already had data); the keys below are lib/local/demo-seed.json's still stored here, not revoked",
    );
    expect(again.banner).toMatch(/Career page: +http:\/\/localhost:\d+\/career-page\/ +\(a vendor's page/);
    expect(again.banner).toMatch(
      /\nAPI keys:\n {2}pasha-bank +active +standard +vvk_demo_pasha_bank_primary {2}vvk_demo_pasha_bank_rotation\n {2}caspian-digital +active +standard +vvk_demo_caspian_digital\n {2}ganja-textiles +suspended +standard +vvk_demo_ganja_textiles\n/,
    );
    expect(again.banner).toContain(
      `Try:\n  curl -s -H 'Authorization: Bearer vvk_demo_pasha_bank_primary' '${again.url}/vendor/vacancies?per_page=2&lang=en'`,
    );
    expect(again.banner).not.toContain(issued);
    expect(again.banner).not.toContain('vvp_');
    const page = await careerPage(again);
    expect(page.key).toMatch(/^vvp_/);
    expect(await listing(again, page.key as string, new URL(page.url).origin)).toBe(200);
    expect(await listing(again, 'vvk_demo_pasha_bank_primary')).toBe(200);
  });

  it('shows no revoked key, and says why the career page has none once its key is revoked', async () => {
    const endpoint = engineOf(running as NpmStart);
    const keys = await liveKeyIds(endpoint, 'pasha-bank');
    for (const label of ['seed key 1', 'career page (npm start)'])
      await admin(endpoint, ['key', 'revoke', keys.get(label) as string]);

    const again = await restart();
    expect(again.banner).toMatch(/\n {2}pasha-bank +active +standard +vvk_demo_pasha_bank_rotation\n/);
    expect(again.banner).not.toContain('vvk_demo_pasha_bank_primary');
    expect(again.banner).toContain(
      `Try:\n  curl -s -H 'Authorization: Bearer vvk_demo_pasha_bank_rotation' '${again.url}/vendor/vacancies?per_page=2&lang=en'`,
    );
    expect(again.banner).toMatch(
      new RegExp(
        `Career page: +http://localhost:\\d+/career-page/ +without a key \\(its key, ${keys.get('career page (npm start)')}, was revoked\\): it shows "Unauthenticated\\."`,
      ),
    );
    expect(again.banner).toMatch(
      /\n {2}npx vacancy-admin --endpoint http:\/\/127\.0\.0\.1:\d+ key issue pasha-bank --publishable --origin http:\/\/localhost:\d+\n/,
    );
    expect((await careerPage(again)).key).toBe('');
  });

  it('says plainly that no key can be shown, and what to run, once every seed key is revoked', async () => {
    const endpoint = engineOf(running as NpmStart);
    for (const vendorId of ['pasha-bank', 'caspian-digital', 'ganja-textiles'])
      for (const [label, keyId] of await liveKeyIds(endpoint, vendorId))
        if (label.startsWith('seed key')) await admin(endpoint, ['key', 'revoke', keyId]);

    const again = await restart();
    const engine = engineOf(again);
    expect(again.banner).toContain('Seed: none loaded (tables already had data)\n');
    expect(again.banner).toContain(
      [
        'API keys: none to show — no key of lib/local/demo-seed.json is stored here and not revoked, and any other',
        '  key is kept only as its hash. Issue one (it is shown once) and use it:',
        `  npx vacancy-admin --endpoint ${engine} key issue <vendor-id>`,
      ].join('\n'),
    );
    expect(again.banner).not.toMatch(/vv[kp]_/);
    expect(again.banner).not.toContain('Try:');
    expect(again.banner).toContain(
      'without a key (no vendor of the demo seed is active here with a seed key',
    );
  });
});
