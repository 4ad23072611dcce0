/**
 * `npm start` honours the deployment's settings, as `cdk deploy` would deploy them: started as an operator starts
 * it, with `-c name=value` over `cdk.json`, it serves with them — and the ops CLI, pointed at its engine, imports in
 * the zone the server runs in.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ListingResponse } from '../../../lambda/functions/vacancies/bodies';
import { runAdmin } from '../../../testkit/admin-cli';
import { entryArguments } from '../../../testkit/entry-bundles';
import { documentedFetch } from '../../../testkit/openapi';
import { vacancyRecord } from '../../../testkit/vacancies';

const ROOT = new URL('../../../', import.meta.url).pathname;
const KEY = { Authorization: 'Bearer vvk_demo_pasha_bank_primary' };

/** Runs the ops CLI as an operator would, against an endpoint. */
const admin = (endpoint: string, args: string[]) =>
  runAdmin(['--endpoint', endpoint, ...args], { SERVICE_TIMEZONE: '' });

describe('npm start -c name=value', () => {
  let server: ChildProcess;
  let listing: string;
  let dynamodb: string;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'settings-'));
    server = spawn(
      process.execPath,
      [
        ...entryArguments('local-server'),
        '--port',
        '0',
        '--dynamodb-port',
        '0',
        '-c',
        'defaultPerPage=5',
        '-c',
        'defaultLocale=en',
        '--context',
        'serviceTimeZone=america/new_york',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      },
    );
    const banner = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ctrl-C')) resolve(output);
      });
      server.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
    });
    listing = /Vendor Vacancy API: (\S+)/.exec(banner)?.[1] ?? '';
    dynamodb = /DynamoDB \(embedded\): (\S+)/.exec(banner)?.[1] ?? '';
  });
  afterAll(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  });

  it('serves with the default page size and locale it was given', async () => {
    const response = await documentedFetch(listing, { headers: KEY });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-language')).toBe('en');
    const body = (await response.json()) as ListingResponse;
    expect(body.pagination.per_page).toBe(5);
    expect(body.data).toHaveLength(5);
    expect(body.data[0]?.type).toMatch(/^(Full Time|Part Time|Remote|Internship)$/);
  });

  it("shows times on its zone's clock, and the ops CLI imports times without an offset in that zone", async () => {
    const file = join(folder, 'two.ndjson');
    const records = [
      vacancyRecord({ id: 990_001, vendor_id: 'pasha-bank', created_at: '2026-11-20 12:00:00' }),
      vacancyRecord({ id: 990_002, vendor_id: 'pasha-bank', created_at: '2026-11-19T12:00:00Z' }),
    ];
    await writeFile(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const imported = await admin(dynamodb, ['vacancies', 'import', file]);
    expect([imported.code, imported.stderr]).toEqual([0, '']);
    const body = (await (await documentedFetch(listing, { headers: KEY })).json()) as ListingResponse;
    // Newest first. Read in Baku's zone, the first would show 03:00 in New York; the second is 07:00 there (UTC-5).
    expect(body.data.slice(0, 2)).toMatchObject([
      { id: 990_001, created_at: '2026-11-20 12:00:00' },
      { id: 990_002, created_at: '2026-11-19 07:00:00' },
    ]);
  });

  it('refuses a value a setting does not allow, and a misspelt setting, in one line', async () => {
    const start = (...context: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [...entryArguments('local-server'), '--port', '0', ...context],
          { cwd: ROOT },
          (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
        );
      });
    expect(await start('-c', 'defaultPerPage=500')).toEqual({
      code: 1,
      stderr: 'defaultPerPage = "500" is not allowed: a whole number from 1 to 100.\n',
    });
    expect(await start('-c', 'defaultPerPag=5')).toEqual({
      code: 1,
      stderr: 'defaultPerPag is not a setting: did you mean defaultPerPage?\n',
    });
  });
});
