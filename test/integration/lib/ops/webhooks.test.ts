/**
 * `vacancy-admin webhook …` as an operator runs it (docs/operating.md#webhooks), against a local engine: add (the
 * secret printed once, in `--json` too), refusals in one line, rotate-secret, test — a signed `webhook.test` event
 * the receiver verifies with `standardwebhooks` — and list, which never shows a secret. (The commands' plain-text
 * lines run as the transcript in docs/operating.md.)
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { changeKey } from '../../../../lambda/domain/schema/change-index';
import { ITEM_KIND } from '../../../../lambda/domain/schema/vendors';
import { newWebhookSecret, webhookItemKey } from '../../../../lambda/domain/webhook-registry/endpoint';
import { type AdminRun, cliTarget, runAdmin } from '../../../../testkit/admin-cli';
import { createTestTables, type TestTables } from '../../../../testkit/dynamodb';
import { startTestReceiver, type TestReceiver } from '../../../../testkit/webhook-receiver';

describe('vacancy-admin webhook', () => {
  let tables: TestTables;
  let receiver: TestReceiver;
  const admin = (...args: string[]): Promise<AdminRun> =>
    runAdmin([...cliTarget(tables.endpoint, tables.names), ...args]);
  const json = async (...args: string[]) => {
    const run = await admin('--json', ...args);
    expect([args.join(' '), run.code, run.stderr]).toEqual([args.join(' '), 0, '']);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };
  /** Stores an enabled endpoint straight into the table, as the tools would not write it; `endpoint` adds fields. */
  const storeEndpoint = (
    endpoint: { endpointId: string; vendorId: string; url: string } & Record<string, unknown>,
  ) =>
    tables.documentClient.send(
      new PutCommand({
        TableName: tables.names.vendors,
        Item: {
          ...webhookItemKey(endpoint.endpointId),
          kind: ITEM_KIND.webhook,
          secret: newWebhookSecret(),
          status: 'enabled',
          position: changeKey(Date.now(), 0),
          createdAt: Date.now(),
          ...endpoint,
        },
      }),
    );

  beforeAll(async () => {
    tables = await createTestTables();
    receiver = await startTestReceiver();
    expect((await admin('vendor', 'put', 'hooked', '--company', 'Hooked')).code).toBe(0);
  });
  afterAll(async () => {
    await receiver?.close();
    await tables?.drop();
  });

  it('adds an endpoint, prints its secret once, and sends a test event signed with it', async () => {
    const added = await json('webhook', 'add', 'hooked', '--url', receiver.url);
    expect(added).toMatchObject({
      endpointId: expect.stringMatching(/^ep_/),
      vendorId: 'hooked',
      status: 'enabled',
    });
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const tested = await json('webhook', 'test', added.endpointId as string);
    expect(tested).toMatchObject({ status: 200, eventId: expect.stringMatching(/^msg_/) });
    const [delivery] = receiver.deliveries;
    expect(
      new Webhook(added.secret as string).verify(
        delivery?.body ?? '',
        (delivery?.headers ?? {}) as Record<string, string>,
      ),
    ).toMatchObject({
      type: 'webhook.test',
      data: { endpoint_id: added.endpointId },
    });

    const rotated = await json('webhook', 'rotate-secret', added.endpointId as string);
    expect(rotated.secret).not.toBe(added.secret);
    await json('webhook', 'test', added.endpointId as string);
    const signed = receiver.deliveries[1];
    expect(String(signed?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [added.secret, rotated.secret])
      new Webhook(secret as string).verify(
        signed?.body ?? '',
        (signed?.headers ?? {}) as Record<string, string>,
      );

    const listed = await admin('webhook', 'list', '--vendor', 'hooked');
    expect(listed.stdout).toContain(`${added.endpointId}  hooked  ${receiver.url}  enabled`);
    for (const secret of [added.secret, rotated.secret]) expect(listed.stdout).not.toContain(secret);
    expect(JSON.stringify(await json('webhook', 'list'))).not.toContain('whsec_');
  });

  it('refuses in one line what it cannot do, and changes nothing', async () => {
    for (const [args, message] of [
      [['webhook', 'add', 'nobody', '--url', receiver.url], /vendor "nobody" does not exist/],
      [
        ['webhook', 'add', 'hooked', '--url', 'https://169.254.169.254/latest'],
        /is refused: 169\.254\.169\.254 is not a public address/,
      ],
      [['webhook', 'add', 'hooked', '--url', 'not a url'], /is refused: not a URL/],
      [
        ['webhook', 'add', 'hooked', '--url', 'https://[::127.0.0.1]/'],
        /^error: --url "https:\/\/\[::127\.0\.0\.1\]\/" is refused: \[::7f00:1\] is not a public address: deprecated IPv4-compatible \(::\/96\) carrying 127\.0\.0\.1: loopback \(127\.0\.0\.0\/8\)\.$/m,
      ],
      [
        ['webhook', 'add', 'hooked', '--url', 'https://foo.localhost./hook'],
        /is refused: foo\.localhost\. is not a public address: a localhost name\./,
      ],
      [
        ['webhook', 'add', 'hooked', '--url', 'https://receiver.example.com:22/hook'],
        /is refused: port 22 is not allowed: 443 or 1024–65535 only\./,
      ],
      [
        ['webhook', 'add', 'hooked', '--url', `https://receiver.example.com/${'a'.repeat(100_000)}`],
        /^error: --url "https:\/\/receiver\.example\.com\/a{171}…" is refused: longer than 2,048 characters \(100,029\)\.$/m,
      ],
      [['webhook', 'enable', 'ep_missing'], /webhook endpoint "ep_missing" does not exist/],
      [['webhook', 'remove', 'ep_missing'], /webhook endpoint "ep_missing" does not exist/],
    ] as const) {
      const run = await admin(...args);
      expect([args.join(' '), run.code]).toEqual([args.join(' '), 1]);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    const count = ((await json('webhook', 'list', '--vendor', 'hooked')) as unknown as unknown[]).length;
    for (let i = count; i < 5; i += 1) await json('webhook', 'add', 'hooked', '--url', receiver.url);
    const sixth = await admin('webhook', 'add', 'hooked', '--url', receiver.url);
    expect(sixth.stderr).toMatch(/has 5 webhook endpoints, the most it may have/);
  });

  it('refuses to test an endpoint stored with a URL the rule now refuses, in one line, and sends nothing', async () => {
    const endpointId = 'ep_stored_before_the_rule';
    await storeEndpoint({ endpointId, vendorId: 'hooked', url: 'https://[::127.0.0.1]/hook' });
    const deliveries = receiver.deliveries.length;
    const run = await admin('webhook', 'test', endpointId);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /to https:\/\/\[::127\.0\.0\.1\]\/hook failed: refused: \[::7f00:1\] is not a public address: deprecated IPv4-compatible/,
    );
    expect(receiver.deliveries.length).toBe(deliveries);
  });

  it("lists an endpoint being retried with its failed attempts and its next attempt's time", async () => {
    const endpointId = 'ep_being_retried';
    const dueAt = Date.parse('2026-11-26T14:05:00.000Z');
    await storeEndpoint({
      endpointId,
      vendorId: 'retried',
      url: 'https://hooks.example.az/retried',
      lastAttempt: { at: dueAt - 300_000, outcome: '503' },
      pending: { id: 'msg_1', body: '{}', through: changeKey(Date.now(), 1), attempts: 2, dueAt },
    });
    const listed = await admin('webhook', 'list', '--vendor', 'retried');
    expect(listed.stdout).toContain(
      'last attempt 2026-11-26T14:00:00.000Z: 503, retrying after 2 failed, next attempt 2026-11-26T14:05:00.000Z',
    );
    expect(await json('webhook', 'list', '--vendor', 'retried')).toEqual([
      expect.objectContaining({ pendingAttempts: 2, nextAttemptAt: '2026-11-26T14:05:00.000Z' }),
    ]);
  });
});
