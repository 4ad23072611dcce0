/**
 * `npm start` prints a line per webhook delivery attempt, beside its request lines (docs/operating.md#webhooks): the
 * endpoint and its vendor, the event's id and attempt number, what came of it, and when a failed event is tried
 * next — and `webhook list` shows that time too. The line's shape is held in both formats.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { webhookAttemptLine } from '../../../../lib/local/request-log';
import { runAdmin } from '../../../../testkit/admin-cli';
import { type NpmStart, startNpmStart } from '../../../../testkit/npm-start';
import { vacancyRecord } from '../../../../testkit/vacancies';
import { startTestReceiver, type TestReceiver } from '../../../../testkit/webhook-receiver';

const ATTEMPT = {
  endpointId: 'ep_abc',
  vendorId: 'pasha-bank',
  eventId: 'msg_123',
  attempt: 2,
  at: Date.parse('2026-11-26T14:00:00.250Z'),
  outcome: '503',
  delivered: false,
  nextAttemptAt: Date.parse('2026-11-26T14:05:00.000Z'),
};

describe('the webhook attempt line', () => {
  it('says the endpoint, the event, its attempt, what came of it and what follows; never a body or a URL', () => {
    expect(webhookAttemptLine(ATTEMPT, 'text')).toBe(
      '14:00:00.250  webhook  ep_abc (pasha-bank)  msg_123 #2 → 503  next attempt 2026-11-26T14:05:00.000Z',
    );
    expect(
      webhookAttemptLine(
        { ...ATTEMPT, nextAttemptAt: undefined, disabled: 'gone (410)', outcome: '410' },
        'text',
      ),
    ).toBe('14:00:00.250  webhook  ep_abc (pasha-bank)  msg_123 #2 → 410  endpoint disabled: gone (410)');
    expect(JSON.parse(webhookAttemptLine(ATTEMPT, 'json'))).toEqual({
      message: 'Webhook attempt',
      endpointId: 'ep_abc',
      vendorId: 'pasha-bank',
      eventId: 'msg_123',
      attempt: 2,
      at: '2026-11-26T14:00:00.250Z',
      outcome: '503',
      delivered: false,
      nextAttemptAt: '2026-11-26T14:05:00.000Z',
    });
  });
});

describe('npm start, delivering webhooks', () => {
  let server: NpmStart;
  let receiver: TestReceiver;
  const folder = mkdtempSync(join(tmpdir(), 'attempt-log-'));
  beforeAll(async () => {
    [server, receiver] = await Promise.all([
      // One second between attempts, and the settle window shortened (the server runs its own engine).
      startNpmStart(['-c', 'webhookRetrySchedule=1,1'], { VVA_SETTLE_MS: '1000' }),
      startTestReceiver(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), receiver?.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('prints a line per attempt — the failed one with its next attempt — and webhook list shows that time', async () => {
    const engine = /DynamoDB \(embedded\): (http:\/\/127\.0\.0\.1:\d+)/.exec(server.banner)?.[1] as string;
    const admin = (...args: string[]) => runAdmin(['--endpoint', engine, ...args]);
    // The first attempt fails; the second is held by the receiver until `webhook list` has run: once it has
    // arrived, the failure is stored, and nothing is stored of the second until it is answered — so the list shows
    // the failed attempt and its next one whatever the machine's load (a Retry-After the list had to beat, 3 s and
    // then twice a measured CLI run, lost the race at load ~12). A CLI run takes a few seconds at most, within the
    // attempt's 10 s.
    let listDone!: () => void;
    const listed = new Promise<void>((resolve) => {
      listDone = resolve;
    });
    receiver.answer = async (_delivery, index) => {
      if (index === 0) return { status: 503, headers: { 'Retry-After': '1' } };
      if (index === 1) await listed;
      return { status: 204 };
    };
    const added = await admin('--json', 'webhook', 'add', 'pasha-bank', '--url', receiver.url);
    expect(added.code).toBe(0);
    const { endpointId } = JSON.parse(added.stdout) as { endpointId: string };
    const file = join(folder, `${randomUUID()}.ndjson`);
    writeFileSync(file, `${JSON.stringify(vacancyRecord({ id: 880_001, vendor_id: 'pasha-bank' }))}\n`);
    expect((await admin('vacancies', 'import', file)).code).toBe(0);

    await receiver.waitFor((deliveries) => deliveries.length >= 2, 30_000);
    const list = await admin('webhook', 'list', '--vendor', 'pasha-bank').finally(listDone);
    expect(list.stdout).toMatch(
      new RegExp(
        `${endpointId} .* last attempt \\S+: 503, retrying after 1 failed, next attempt \\d{4}-\\d{2}-\\d{2}T`,
      ),
    );
    const eventId = String(receiver.deliveries[0]?.headers['webhook-id']);
    /** The server's lines of this event's attempts. */
    const attemptLines = (stdout: string) =>
      stdout.split('\n').filter((line) => line.includes(`webhook  ${endpointId} (pasha-bank)  ${eventId}`));
    // The line follows the delivery's write: waited for.
    const lines = attemptLines(await server.printed((stdout) => attemptLines(stdout).length >= 2));
    expect(lines).toEqual([
      expect.stringMatching(/#1 → 503 {2}next attempt \d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
      expect.stringMatching(/#2 → 204$/),
    ]);
  }, 90_000);
});
