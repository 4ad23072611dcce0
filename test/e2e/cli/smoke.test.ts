/**
 * `vacancy-admin smoke` (docs/operating.md#smoke-check), run as an operator runs it — a process of its own — against
 * `npm start` on free ports: every check passes and the temporary vendor is gone afterwards (suspended, no live key,
 * no vacancy, no feed, nothing of another vendor changed); against a broken target it fails, naming the check.
 */
import { createServer } from 'node:net';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHANGE_INDEX } from '../../../lambda/domain/schema/tables';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { localTableNames } from '../../../lib/create-tables';
import { FEED_CHECK, GATEWAY_CHECKS, VENDOR_CHECKS, WEBHOOK_CHECK } from '../../../lib/ops/smoke/checks';
import type { SmokeReport } from '../../../lib/ops/smoke/run';
import { runAdmin, startAdmin } from '../../../testkit/admin-cli';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';
import { startTestReceiver, type TestReceiver } from '../../../testkit/webhook-receiver';

/** A demo seed key: its vendor's listing must be the same before and after. */
const DEMO_KEY = 'vvk_demo_pasha_bank_primary';
/** The bound of a change's wait: the settle window is 5 s; the run takes a few times that at most. */
const WAIT = ['--wait', '30'];
const TIMEOUT_MS = 120_000;

let server: NpmStart;
let engine: string;
let receiver: TestReceiver;

/** A port nothing listens on: one the system just handed out, and closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The demo vendor's listing, as a client sees it. */
const demoListing = async () =>
  (
    await fetch(`${server.url}/vendor/vacancies?per_page=100`, {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    })
  ).text();

beforeAll(async () => {
  server = await startNpmStart();
  engine = /DynamoDB \(embedded\): (http:\/\/127\.0\.0\.1:\d+)/.exec(server.banner)?.[1] ?? '';
  receiver = await startTestReceiver();
}, TIMEOUT_MS);
afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

describe('vacancy-admin smoke', () => {
  it(
    'passes every check against npm start, with a webhook receiver, and leaves its vendor suspended with no live key and no vacancy',
    async () => {
      const before = await demoListing();
      const run = await runAdmin([
        '--endpoint',
        engine,
        'smoke',
        '--api-url',
        server.url,
        '--webhook-url',
        receiver.url,
        ...WAIT,
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toBe(`smoke check of ${server.url} (local DynamoDB at ${engine})`);
      const ok = (names: readonly string[]) => names.map((name) => `ok  ${name}`);
      const named = (checks: readonly { name: string }[]) => checks.map((check) => check.name);
      expect(lines.slice(1, -1)).toEqual(
        ok([
          ...named(GATEWAY_CHECKS),
          'vendor created',
          'webhook endpoint added',
          'keys issued',
          'vacancies imported',
          'feed added',
          FEED_CHECK.name,
          ...named(VENDOR_CHECKS),
          WEBHOOK_CHECK.name,
          'cleanup: webhook endpoint removed',
          'cleanup: feed removed',
          'cleanup: keys revoked',
          'cleanup: vacancies deleted',
          'cleanup: vendor suspended',
          'cleanup: vacancies purged',
        ]),
      );
      const vendorId = /vendor (smoke-[0-9a-f]{10}) removed/.exec(lines.at(-1) ?? '')?.[1] ?? '';
      expect(lines.at(-1)).toMatch(/^passed: \d+ checks in [\d.]+ s; vendor smoke-[0-9a-f]{10} removed/);

      // The receiver was sent the events of the temporary vendor's changes.
      expect(receiver.deliveries.length).toBeGreaterThan(0);
      // Afterwards: suspended, every key revoked, no vacancy left — not even a tombstone.
      const vendors = JSON.parse(
        (await runAdmin(['--endpoint', engine, '--json', 'vendor', 'list'])).stdout,
      ) as {
        vendorId: string;
        status: string;
      }[];
      expect(vendors.find((vendor) => vendor.vendorId === vendorId)?.status).toBe('suspended');
      const keys = JSON.parse(
        (await runAdmin(['--endpoint', engine, '--json', 'key', 'list', vendorId])).stdout,
      ) as { revokedAt?: string }[];
      expect(keys).toHaveLength(2);
      expect(keys.every((key) => key.revokedAt !== undefined)).toBe(true);
      expect(
        JSON.parse(
          (await runAdmin(['--endpoint', engine, '--json', 'feed', 'list', '--vendor', vendorId])).stdout,
        ),
      ).toEqual([]);
      const client = createDocumentClient(createDynamoDBClient({ endpoint: engine }));
      try {
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: localTableNames().vacancies,
            IndexName: CHANGE_INDEX.name,
            KeyConditionExpression: '#vendor = :vendor',
            ExpressionAttributeNames: { '#vendor': CHANGE_INDEX.partitionKey },
            ExpressionAttributeValues: { ':vendor': vendorId },
          }),
        );
        expect(Items).toEqual([]);
      } finally {
        client.destroy();
      }
      // Another vendor's listing is as it was, byte for byte.
      const after = await demoListing();
      expect(after).toBe(before);
    },
    TIMEOUT_MS,
  );

  it(
    'fails against a broken target, naming the check: nothing listening (one line naming the URL), or the wrong base path (--json)',
    async () => {
      const port = await closedPort();
      const [dead, wrongBase] = await Promise.all([
        runAdmin(['--endpoint', engine, 'smoke', '--api-url', `http://127.0.0.1:${port}`]),
        runAdmin(['--endpoint', engine, '--json', 'smoke', '--api-url', `${server.url}/prod`, ...WAIT]),
      ]);

      expect(dead.code).toBe(1);
      const deadLines = dead.stdout.trim().split('\n');
      expect(deadLines.filter((line) => line.startsWith('FAIL '))).toEqual([
        `FAIL 401 without a key: nothing answers at http://127.0.0.1:${port}/vendor/vacancies (connection refused)`,
      ]);
      // Nothing was made for a target that does not answer: no setup line, no cleanup line.
      expect(deadLines.filter((line) => line.startsWith('ok  '))).toEqual([]);
      expect(deadLines.at(-1)).toMatch(/^FAILED: 1 of 1 checks, \d+ not run \([\d.]+ s\); nothing was made$/);

      expect(wrongBase.code).toBe(1);
      const report = JSON.parse(wrongBase.stdout) as SmokeReport;
      expect(report).toEqual({
        ok: false,
        apiUrl: `${server.url}/prod`,
        target: `local DynamoDB at ${engine}`,
        vendorId: expect.stringMatching(/^smoke-[0-9a-f]{10}$/),
        startedAt: expect.any(String),
        durationMs: expect.any(Number),
        checks: expect.any(Array),
        notRun: [],
        cleanup: expect.any(Array),
      });
      for (const result of [...report.checks, ...report.cleanup])
        expect(Object.keys(result).sort()).toEqual(
          result.ok ? ['ms', 'name', 'ok', 'phase'] : ['error', 'ms', 'name', 'ok', 'phase'],
        );
      expect(report.checks.find((result) => result.name === 'listing')).toMatchObject({
        phase: 'check',
        ok: false,
        error: `expected 200 from ${server.url}/prod/vendor/vacancies, got 404 ("Not Found.")`,
      });
      expect(report.checks.filter((result) => result.phase === 'setup').every((result) => result.ok)).toBe(
        true,
      );
      expect(report.cleanup.map((result) => [result.name, result.ok])).toEqual([
        ['cleanup: feed removed', true],
        ['cleanup: keys revoked', true],
        ['cleanup: vacancies deleted', true],
        ['cleanup: vendor suspended', true],
        ['cleanup: vacancies purged', true],
      ]);
    },
    TIMEOUT_MS,
  );

  it(
    'removes what it made when interrupted (Ctrl-C) during the checks, and says which check it stopped',
    async () => {
      const child = startAdmin(['--endpoint', engine, 'smoke', '--api-url', server.url, ...WAIT]);
      let stdout = '';
      // 'close': exited, and what it printed last read.
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      child.stdout.on('data', (chunk: Buffer) => {
        const before = stdout;
        stdout += chunk.toString();
        // Once everything is made: the checks after it take at least the settle window (the sync's).
        if (!before.includes('ok  feed added') && stdout.includes('ok  feed added')) child.kill('SIGINT');
      });
      expect(await exited).toBe(1);
      const lines = stdout.trim().split('\n');
      expect(lines.filter((line) => line.startsWith('FAIL '))).toEqual([
        expect.stringMatching(/^FAIL [^:]+: interrupted$/),
      ]);
      expect(lines.filter((line) => line.includes('cleanup: '))).toEqual([
        'ok  cleanup: feed removed',
        'ok  cleanup: keys revoked',
        'ok  cleanup: vacancies deleted',
        'ok  cleanup: vendor suspended',
        'ok  cleanup: vacancies purged',
      ]);
      expect(lines.at(-1)).toMatch(
        /^FAILED: 1 of \d+ checks, \d+ not run \([\d.]+ s\); vendor smoke-[0-9a-f]{10}$/,
      );
    },
    TIMEOUT_MS,
  );

  it('needs an API to check: one line and exit code 2 without --api-url or --stack', async () => {
    const run = await runAdmin(['--endpoint', engine, 'smoke']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "error: no API to check: give --api-url <url> (the local server's, or a stack's ApiUrl output), or --stack <name>.\n",
    );
  });
});
