/**
 * Crashes, and nothing else (docs/design.md#a-kill-timeline): real processes on the real engine — CLI imports, and
 * `npm start` itself while its inbox imports a file and its webhook dispatch waits on a receiver — killed with
 * SIGKILL at seeded points spread over the whole of an import (each kill at a random moment of its own share of the
 * span, so that every part of it is hit: before the first write, in the middle, after the end), each followed by
 * nothing but time: no command, no restart but the server's own (as a machine's supervisor would), no other write.
 * Once the server says its background work is done — the recovery waits, shortened here as a deployment may not
 * (`VVA_*`), run out, the guards fired, the summaries recounted, every delivery made (`idle()`, asked over its IPC
 * channel: a question, not a command) — and a sync's settle window has passed, every vendor is checked, once: a sync
 * copy taken before the kills, brought up to date, equals the listing; a full sync's `total` equals its walk; a
 * webhook receiver's copy equals the listing, every event once and in order but for retries with the same
 * `webhook-id`.
 *
 * `CRASH_SEED` replays a run (its seed is printed); `CRASH_KILLS` asks for more kill points (10 by default: 8 CLI
 * imports, 2 servers; a fifth of any number asked are servers).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChangeKey } from '../../../lambda/domain/schema/change-index';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { localTableNames } from '../../../lib/create-tables';
import { addEndpoint, listEndpoints } from '../../../lib/ops/webhooks';
import { entryArguments } from '../../../testkit/entry-bundles';
import { freePort } from '../../../testkit/free-port';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';
import { seededRandom } from '../../../testkit/seeded-random';
import { vacancyRecord } from '../../../testkit/vacancies';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** The recovery waits, shortened (a deployment refuses these: docs/operating.md#recovery-waits). */
const WAITS = {
  VVA_SUMMARY_LEASE_MS: 1_500,
  VVA_LATE_WRITE_MS: 1_500,
  VVA_SETTLE_MS: 1_000,
  VVA_WEBHOOK_LEASE_MS: 1_000,
};
const KILLS = Math.max(10, Number(process.env.CRASH_KILLS ?? 10));
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** Kills of `npm start` (each while its inbox imports a file and a delivery waits); the rest are CLI imports. */
const SERVER_KILLS = Math.round(KILLS / 5);
const CLI_KILLS = KILLS - SERVER_KILLS;
/** The moments a CLI import is killed at (ms after it starts): 800 to 4,300, the span of one of these imports. */
const CLI_SPAN = { from: 800, to: 4_300 };
/** The moments a server is killed at (ms after its inbox file is put). */
const SERVER_SPAN = { from: 300, to: 2_800 };
const RECORDS_PER_IMPORT = 300;
const RECORDS_PER_INBOX_FILE = 1_500;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once no file to import is left under `incoming/` (each moved to done/, failed/ or held/). */
async function inboxEmptied(incoming: string, withinMs = 180_000): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    const left = (await readdir(incoming, { recursive: true })).filter((name) => name.endsWith('.ndjson'));
    if (left.length === 0) return;
    if (Date.now() > until) throw new Error(`the inbox still holds ${left.join(', ')} after ${withinMs} ms`);
    await pause(250);
  }
}

/** One delivery as the receiver got it. */
interface Received {
  readonly id: string;
  readonly changes: { id: number; status: string; updated_at: string }[];
}

/** A webhook receiver: one path per vendor; it can hold its answers back (so that a kill lands mid-delivery). */
async function startReceiver() {
  const byVendor = new Map<string, Received[]>();
  let holding = false;
  const held: (() => void)[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const vendor = (request.url ?? '').split('/').pop() ?? '';
      const parsed = JSON.parse(body) as { data: { changes?: Received['changes'] } };
      const answer = () => {
        const list = byVendor.get(vendor) ?? [];
        list.push({ id: String(request.headers['webhook-id']), changes: parsed.data.changes ?? [] });
        byVendor.set(vendor, list);
        response.writeHead(204).end();
      };
      // Held: never answered — the server that sent it is killed meanwhile, and sends it again after.
      if (holding) held.push(() => response.destroy());
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    byVendor,
    hold(on: boolean) {
      holding = on;
      if (!on) for (const drop of held.splice(0)) drop();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sync client's copy of one vendor, over HTTP: ids of the active vacancies, and where the next sync starts. */
class SyncCopy {
  /** What the server printed lately (for a failure's message). */
  static serverOutput: () => string = () => '';
  readonly ids = new Set<number>();
  next: string;
  constructor(
    private readonly apiUrl: string,
    private readonly key: string,
  ) {
    this.next = `${apiUrl}/vendor/vacancies?updated_since=1970-01-01T00:00:00Z&per_page=100`;
  }
  /** One sync walked to its end and applied; its first page's `total` and how many changes it walked. */
  async sync(): Promise<{ total: number; walked: number }> {
    let url: string | null = this.next;
    let total = -1;
    let walked = 0;
    while (url) {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${this.key}` } });
      if (response.status !== 200) {
        if (process.env.CRASH_DUMP) {
          await pause(1_000);
          await writeFile(process.env.CRASH_DUMP, SyncCopy.serverOutput());
        }
        throw new Error(`${url}: ${response.status} ${await response.text()}`);
      }
      const body = (await response.json()) as {
        data: { id: number; status: string }[];
        pagination: { total: number; next_page_url: string | null; next_sync_url: string };
      };
      if (total < 0) total = body.pagination.total;
      walked += body.data.length;
      for (const change of body.data) {
        if (change.status === 'active') this.ids.add(change.id);
        else this.ids.delete(change.id);
      }
      this.next = body.pagination.next_sync_url.startsWith('http')
        ? body.pagination.next_sync_url
        : `${this.apiUrl}${body.pagination.next_sync_url}`;
      url = body.pagination.next_page_url;
    }
    return { total, walked };
  }
}

/** The listing's ids, walked to the end, and its `total`. */
async function listed(apiUrl: string, key: string): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  let total = -1;
  let url: string | null = `${apiUrl}/vendor/vacancies?per_page=100`;
  while (url) {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await response.json()) as {
      data: { id: number }[];
      pagination: { total: number; next_page_url: string | null };
    };
    if (total < 0) total = body.pagination.total;
    ids.push(...body.data.map((vacancy) => vacancy.id));
    url = body.pagination.next_page_url;
  }
  return { ids: ids.sort((a, b) => a - b), total };
}

/** The receiver's copy of a vendor, and whether its events came each once and in order (retries aside). */
function receiverCopy(events: readonly Received[]) {
  const ids = new Set<number>();
  const seen = new Set<string>();
  let last: string | undefined;
  let inOrder = true;
  let lastChange = '';
  for (const event of events) {
    // A retry repeats the event just before it (same webhook-id); any other repeat is a duplicate.
    if (event.id === last) continue;
    if (seen.has(event.id)) inOrder = false;
    seen.add(event.id);
    last = event.id;
    for (const change of event.changes) {
      if (change.updated_at < lastChange) inOrder = false;
      lastChange = change.updated_at;
      if (change.status === 'active') ids.add(change.id);
      else ids.delete(change.id);
    }
  }
  return { ids: [...ids].sort((a, b) => a - b), inOrder };
}

describe(`crashes with nothing after them (seed ${SEED}, ${KILLS} kill points)`, () => {
  const random = seededRandom(SEED);
  const env = { ...Object.fromEntries(Object.entries(WAITS).map(([k, v]) => [k, String(v)])) };
  let folder: string;
  let engineUrl: string;
  let apiPort: number;
  let server: NpmStart | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const vendors: string[] = [];
  const copies = new Map<string, SyncCopy>();
  const keyOf = (vendor: string) => `vvk_test_${vendor.replaceAll('-', '_')}`;
  let nextId = 1_000_000;

  const start = async () => {
    server = await startNpmStart(
      [
        '--seed',
        join(folder, 'seed.json'),
        '--data-dir',
        join(folder, 'data'),
        '--inbox',
        join(folder, 'inbox'),
        '--dynamodb-port',
        new URL(engineUrl).port,
        // The same address after a restart, as a supervisor keeps it: the copies' sync URLs stay good.
        '--port',
        String(apiPort),
        '--log-format',
        'json',
      ],
      // A DynamoDB endpoint of its own: the waits may be shortened (the server serves its embedded engine).
      { ...env, DYNAMODB_ENDPOINT: engineUrl },
    );
    return server;
  };

  /** The `i`-th of `count` kill moments in `span`: at a seeded point of the `i`-th of `count` equal shares of it. */
  const killAt = (span: { from: number; to: number }, i: number, count: number) =>
    Math.round(span.from + ((i + random()) * (span.to - span.from)) / count);

  /** Once the server's work is done (it is asked, nothing more), and a sync's settle window later: every check. */
  const settledThenChecked = async (kills: readonly string[]) => {
    await server?.idle();
    await pause(WAITS.VVA_SETTLE_MS + 500);
    expect({ seed: SEED, kills, problems: await problemsOf() }).toEqual({ seed: SEED, kills, problems: [] });
  };

  const records = (vendor: string, count: number) =>
    Array.from({ length: count }, () => vacancyRecord({ id: nextId++, vendor_id: vendor }))
      .map((record) => JSON.stringify(record))
      .join('\n');

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'vva-crash-'));
    engineUrl = `http://127.0.0.1:${await freePort()}`;
    apiPort = await freePort();
    receiver = await startReceiver();
    for (let i = 0; i < CLI_KILLS; i += 1) vendors.push(`crash-cli-${i}`);
    for (let i = 0; i < SERVER_KILLS; i += 1) vendors.push(`crash-inbox-${i}`);
    await writeFile(
      join(folder, 'seed.json'),
      JSON.stringify({
        vendors: vendors.map((id) => ({ id, company: id, status: 'active', api_keys: [keyOf(id)] })),
        vacancies: [],
      }),
    );
    const api = await start();
    SyncCopy.serverOutput = () => `${server?.stdout()}\n${server?.stderr()}`;
    // Each vendor's webhook endpoint, before any of its changes, and a sync copy taken before the kills.
    const client = createDynamoDBClient({ endpoint: engineUrl });
    for (const vendor of vendors) {
      await addEndpoint(
        createDocumentClient(client),
        localTableNames().vendors,
        vendor,
        `${receiver.url}/hooks/${vendor}`,
        { allowLoopbackHttp: true },
      );
      const copy = new SyncCopy(api.url, keyOf(vendor));
      await copy.sync();
      copies.set(vendor, copy);
    }
    client.destroy();
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('recovers every vendor by itself after each kill', async () => {
    const kills: string[] = [];

    // CLI imports, a few at a time, each killed at a seeded point: before its first write, in the middle, or after
    // it finished (then the kill finds nothing).
    const cliVendors = vendors.filter((vendor) => vendor.startsWith('crash-cli-'));
    // Four at a time; each four killed in four different shares of the span, from early to late.
    const batches = Math.ceil(cliVendors.length / 4);
    for (let i = 0; i < cliVendors.length; i += 4) {
      await Promise.all(
        cliVendors.slice(i, i + 4).map(async (vendor, j) => {
          const file = join(folder, `${vendor}.ndjson`);
          await writeFile(file, records(vendor, RECORDS_PER_IMPORT));
          const child: ChildProcess = spawn(
            process.execPath,
            [...entryArguments('admin'), 'vacancies', 'import', file],
            { cwd: ROOT, stdio: 'ignore', env: { ...process.env, ...env, DYNAMODB_ENDPOINT: engineUrl } },
          );
          const exited = new Promise((resolve) => child.once('exit', resolve));
          const at = killAt(CLI_SPAN, j * batches + i / 4, cliVendors.length);
          await Promise.race([pause(at), exited]);
          kills.push(
            `${vendor}: CLI import SIGKILL at ${at} ms${child.exitCode === null ? '' : ' (had exited)'}`,
          );
          child.kill('SIGKILL');
          await exited;
        }),
      );
    }
    await settledThenChecked(kills);

    // `npm start` killed while its inbox imports a file and a webhook delivery waits on the receiver; restarted on
    // the same data, as its supervisor would, and left alone.
    for (let i = 0; i < SERVER_KILLS; i += 1) {
      const vendor = `crash-inbox-${i}`;
      receiver.hold(true);
      await writeFile(
        join(folder, 'inbox', 'incoming', `${vendor}.ndjson`),
        records(vendor, RECORDS_PER_INBOX_FILE),
      );
      const at = killAt(SERVER_SPAN, i, SERVER_KILLS);
      await pause(at);
      await server?.stop('SIGKILL');
      kills.push(`${vendor}: npm start SIGKILL at ${at} ms into an inbox import, deliveries held`);
      receiver.hold(false);
      const restarted = await start();
      // Killed with its store open: the engine mended its indexes before it served (lib/local/engine-repair.ts).
      expect(restarted.banner).toMatch(
        /not stopped cleanly last time: its indexes were rebuilt from its tables/,
      );
    }
    // The imports the restarted server resumed (the files of its kills) end first: the inbox is no background work of
    // `idle()`'s. Watching the folder empty is no act on the server: it is left alone all the same.
    await inboxEmptied(join(folder, 'inbox', 'incoming'));
    await settledThenChecked(kills);
    process.stdout.write(
      `crash harness (seed ${SEED}): ${kills.length} kill points\n  ${kills.join('\n  ')}\n`,
    );
    expect(kills).toHaveLength(KILLS);
  }, 480_000);

  /** A vendor's endpoint as stored (for a failure's message). */
  async function endpointOf(vendor: string) {
    const client = createDynamoDBClient({ endpoint: engineUrl });
    const [endpoint] = await listEndpoints(createDocumentClient(client), localTableNames().vendors, vendor);
    client.destroy();
    return (
      endpoint && {
        ...endpoint,
        position: readChangeKey(endpoint.position),
        pending: endpoint.pending?.attempts,
      }
    );
  }

  async function problemsOf(): Promise<string[]> {
    const apiUrl = server?.url ?? '';
    const problems: string[] = [];
    for (const vendor of vendors) {
      const listing = await listed(apiUrl, keyOf(vendor));
      const copy = copies.get(vendor) as SyncCopy;
      await copy.sync();
      const synced = [...copy.ids].sort((a, b) => a - b);
      const full = await new SyncCopy(apiUrl, keyOf(vendor)).sync();
      const received = receiverCopy(receiver.byVendor.get(vendor) ?? []);
      if (JSON.stringify(synced) !== JSON.stringify(listing.ids))
        problems.push(`${vendor}: sync copy ${synced.length} ≠ listing ${listing.ids.length}`);
      if (listing.total !== listing.ids.length)
        problems.push(`${vendor}: listing total ${listing.total} ≠ walk ${listing.ids.length}`);
      if (full.total !== full.walked)
        problems.push(`${vendor}: full sync total ${full.total} ≠ walk ${full.walked}`);
      if (JSON.stringify(received.ids) !== JSON.stringify(listing.ids)) {
        const events = receiver.byVendor.get(vendor) ?? [];
        const missing = listing.ids.filter((id) => !received.ids.includes(id));
        problems.push(
          `${vendor}: receiver copy ${received.ids.length} ≠ listing ${listing.ids.length} (${events.length} events, missing ${missing.slice(0, 5).join(',')}…; last change ${events.at(-1)?.changes.at(-1)?.updated_at}; ${JSON.stringify(await endpointOf(vendor))})`,
        );
      }
      if (!received.inOrder) problems.push(`${vendor}: events repeated or out of order`);
    }
    return problems;
  }
});
