/**
 * Webhooks end to end on the local server (docs/api.md#webhooks): the embedded engine's writes wake the dispatch,
 * as DynamoDB Streams do on AWS, and a receiver on 127.0.0.1 gets each event signed as Standard Webhooks says —
 * verified here by the official `standardwebhooks` library. The retry schedule is shortened (1,1,1 seconds), and
 * the settle window to its least (1 s); each test waits for the dispatch to be idle — nothing running, owed or
 * armed, every retry sent — and then asserts what was delivered.
 *
 * @jest-environment-options {"env": {"VVA_SETTLE_MS": "1000"}}
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { writeVacancies } from '../../../../lambda/domain/import/import';
import { INDEX_SETTLE_MS } from '../../../../lambda/domain/settings/recovery-waits';
import { createDynamoDBClient } from '../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../../lib/local/local-api';
import { deleteVacancy, purgeTombstones, setVacancyStatus } from '../../../../lib/ops/vacancies';
import { putVendor } from '../../../../lib/ops/vendors';
import {
  addEndpoint,
  disableEndpoint,
  enableEndpoint,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
} from '../../../../lib/ops/webhooks';
import { DEFAULT_SETTINGS } from '../../../../lib/settings';
import { expectDocumentedDelivery } from '../../../../testkit/openapi';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../../testkit/vacancies';
import { type Delivery, startTestReceiver, type TestReceiver } from '../../../../testkit/webhook-receiver';

const SEED_FILE = new URL('../../../fixtures/seed.json', import.meta.url).pathname;

interface ChangesEvent {
  type: string;
  timestamp: string;
  data: {
    changes?: { id: number; status: string; updated_at: string }[];
    sync_url?: string;
    resync_required?: boolean;
  };
}
const parsed = (delivery: Delivery) => JSON.parse(delivery.body) as ChangesEvent;
const changedIds = (deliveries: readonly Delivery[]) =>
  deliveries.flatMap((d) => (parsed(d).data.changes ?? []).map((c) => c.id));

describe('webhooks on the local server', () => {
  let api: LocalApi;
  let receiver: TestReceiver;
  const client = () => createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
  let documents: ReturnType<typeof client>;
  let nextId = 880_000;
  let vendors = 0;
  let vendor = '';
  const failures = jest.spyOn(console, 'error').mockImplementation(() => undefined);

  /** Imports `count` new vacancies of the vendor (what an operator's import writes). */
  async function importVacancies(count: number): Promise<number[]> {
    const ids = Array.from({ length: count }, () => (nextId += 1));
    const report = await writeVacancies(
      documents,
      api.tables,
      ids.map((id, line) => ({
        line: line + 1,
        vacancy: fixtureVacancy(vacancyRecord({ id, vendor_id: vendor })),
      })),
      { clock: CLOCK },
    );
    expect(report.imported).toBe(count);
    return ids;
  }

  /**
   * A new vendor and an endpoint for it: each test its own, since an endpoint also gets the changes of the few
   * seconds before it was added — the previous test's, were the vendor the same.
   */
  async function newEndpoint(url = receiver.url) {
    vendors += 1;
    vendor = `hooked-${vendors}`;
    await putVendor(documents, api.tables.vendors, { vendorId: vendor, company: vendor });
    return addEndpoint(documents, api.tables.vendors, vendor, url, { allowLoopbackHttp: true });
  }

  beforeAll(async () => {
    api = await startLocalApi({
      port: 0,
      seedFile: SEED_FILE,
      settings: { ...DEFAULT_SETTINGS, webhookRetrySchedule: [1, 1, 1] },
    });
    documents = client();
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    documents?.destroy();
    await api?.stop();
  });
  afterEach(() => {
    // Every delivery is what docs/openapi.yaml says of the webhook: headers and body.
    for (const delivery of receiver.deliveries)
      expectDocumentedDelivery('vacanciesChanged', delivery.headers, delivery.body);
    receiver.deliveries.length = 0;
    receiver.answer = () => ({ status: 200 });
    // Whatever the test did, the dispatch itself never failed (it says so on the server's stderr).
    expect(failures.mock.calls.flat().join('\n')).not.toContain('webhook dispatch failed');
    failures.mockClear();
  });

  it('delivers a change once it settles, signed so that standardwebhooks verifies it, pointing at the sync', async () => {
    const endpoint = await newEndpoint();
    const [id] = await importVacancies(1);
    await api.idle();
    // (An earlier event may have had the changes of the few seconds before the endpoint was added: the seed's.)
    const delivery = receiver.deliveries.find((d) => changedIds([d]).includes(id as number)) as Delivery;
    expect(delivery).toBeDefined();
    // The official library checks the signature and the timestamp's freshness.
    const verified = new Webhook(endpoint.secret).verify(
      delivery.body,
      delivery.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ type: 'vacancies.changed' });
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
    const event = parsed(delivery);
    expect(event.data.changes).toContainEqual({ id, status: 'active', updated_at: expect.any(String) });
    const sync = new URL(event.data.sync_url as string);
    expect(`${sync.origin}${sync.pathname}`).toBe(`${api.url}/vendor/vacancies`);
    expect(sync.searchParams.get('updated_since')).toBe(event.data.changes?.[0]?.updated_at);
    // A secret from another endpoint does not verify it.
    const other = await addEndpoint(documents, api.tables.vendors, 'acme', receiver.url, {
      allowLoopbackHttp: true,
    });
    expect(() =>
      new Webhook(other.secret).verify(delivery.body, delivery.headers as Record<string, string>),
    ).toThrow();
    await removeEndpoint(documents, api.tables.vendors, other.endpointId);
  });

  it('keeps the order under a burst, each change in exactly one event, at most 100 an event', async () => {
    await newEndpoint();
    const ids: number[] = [];
    for (let burst = 0; burst < 3; burst += 1) ids.push(...(await importVacancies(60)));
    await api.idle();
    expect(changedIds(receiver.deliveries).sort()).toEqual([...ids].sort());
    const changes = receiver.deliveries.flatMap((d) => parsed(d).data.changes ?? []);
    const keys = changes.map((c) => `${c.updated_at}|${String(c.id).padStart(16, '0')}`);
    expect(keys).toEqual([...keys].sort());
    for (const delivery of receiver.deliveries)
      expect(parsed(delivery).data.changes?.length).toBeLessThanOrEqual(100);
    const eventIds = receiver.deliveries.map((d) => d.headers['webhook-id']);
    expect(new Set(eventIds).size).toBe(eventIds.length);
  });

  it('sends a failed event again, the same id and body, until the receiver takes it; the next event is another', async () => {
    await newEndpoint();
    receiver.answer = (_delivery, index) => ({ status: index < 2 ? 503 : 200 });
    const [first] = await importVacancies(1);
    await api.idle();
    expect(receiver.deliveries).toHaveLength(3);
    const [a, b, c] = receiver.deliveries as [Delivery, Delivery, Delivery];
    expect(new Set([a, b, c].map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set([a, b, c].map((d) => d.body)).size).toBe(1);
    expect(changedIds([a])).toEqual([first]);
    // Each retry after the schedule's delay (1 s, ±20 %).
    expect(b.at - a.at).toBeGreaterThanOrEqual(750);
    const [second] = await importVacancies(1);
    await api.idle();
    expect(changedIds(receiver.deliveries.slice(3))).toEqual([second]);
    expect(receiver.deliveries.at(-1)?.headers['webhook-id']).not.toBe(a.headers['webhook-id']);
  });

  it('waits at least as long as a Retry-After asks', async () => {
    await newEndpoint();
    receiver.answer = (_delivery, index) =>
      index === 0 ? { status: 429, headers: { 'Retry-After': '3' } } : { status: 200 };
    await importVacancies(1);
    await api.idle();
    expect(receiver.deliveries).toHaveLength(2);
    const [a, b] = receiver.deliveries as [Delivery, Delivery];
    expect(b.at - a.at).toBeGreaterThanOrEqual(2_900);
  });

  it('disables an endpoint down for the whole schedule, says why, and loses nothing once enabled', async () => {
    const endpoint = await newEndpoint();
    receiver.answer = () => ({ status: 500 });
    const logged = failures;
    const [first] = await importVacancies(1);
    // The first attempt and the schedule's three retries.
    await api.idle();
    const disabled = async () =>
      (await listEndpoints(documents, api.tables.vendors, vendor)).find(
        (e) => e.endpointId === endpoint.endpointId,
      );
    expect(await disabled()).toMatchObject({ status: 'disabled', disabledReason: 'retries exhausted' });
    expect(logged.mock.calls.flat().join('\n')).toContain(
      `Webhook endpoint ${endpoint.endpointId} of ${vendor} disabled`,
    );
    expect(receiver.deliveries).toHaveLength(4);
    // Changes while disabled reach nobody …
    const [second] = await importVacancies(1);
    await setVacancyStatus(documents, api.tables, first as number, 'closed');
    await api.idle();
    expect(receiver.deliveries).toHaveLength(4);
    // … and are all delivered once it is enabled again.
    receiver.answer = () => ({ status: 200 });
    await enableEndpoint(documents, api.tables.vendors, endpoint.endpointId);
    // The change index holds each vacancy's latest change: the first one now closed, after the second.
    await api.idle();
    expect(receiver.deliveries.slice(4).flatMap((d) => parsed(d).data.changes ?? [])).toEqual([
      { id: second, status: 'active', updated_at: expect.any(String) },
      { id: first, status: 'closed', updated_at: expect.any(String) },
    ]);
  });

  it('disables at once an endpoint that answers 410 Gone', async () => {
    const endpoint = await newEndpoint();
    receiver.answer = () => ({ status: 410 });
    await importVacancies(1);
    await api.idle();
    const [found] = await listEndpoints(documents, api.tables.vendors, vendor);
    expect(found).toMatchObject({
      endpointId: endpoint.endpointId,
      status: 'disabled',
      disabledReason: 'gone (410)',
    });
    expect(receiver.deliveries).toHaveLength(1);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const endpoint = await newEndpoint();
    const rotated = await rotateSecret(documents, api.tables.vendors, endpoint.endpointId);
    await importVacancies(1);
    await api.idle();
    expect(receiver.deliveries).toHaveLength(1);
    const [delivery] = receiver.deliveries as [Delivery];
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret])
      expect(() =>
        new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>),
      ).not.toThrow();
  });

  it('tells the receiver to sync from the start when the changes it was owed were purged', async () => {
    const endpoint = await newEndpoint();
    await disableEndpoint(documents, api.tables.vendors, endpoint.endpointId);
    const [gone] = await importVacancies(1);
    await deleteVacancy(documents, api.tables, gone as number);
    // The purge's clock a settle window on, so that its horizon is after the endpoint's position: the window driven
    // rather than waited for.
    const asked = Date.now();
    await purgeTombstones(documents, api.tables, vendor, asked, { now: () => asked + INDEX_SETTLE_MS });
    await enableEndpoint(documents, api.tables.vendors, endpoint.endpointId);
    await importVacancies(1);
    await api.idle();
    expect(parsed(receiver.deliveries[0] as Delivery).data).toEqual({ resync_required: true });
  });

  it('makes no DynamoDB request for webhooks while nothing changes and nothing is owed', async () => {
    await newEndpoint();
    await importVacancies(1);
    // What is owed finishes: the delivery, the lease's release, the retries of the earlier tests' endpoints, and a
    // guard left by two dispatches that met (it fires once, up to a lease and its grace later).
    await api.idle();
    expect(receiver.deliveries).toHaveLength(1);
    expect(api.webhooks.pending()).toBe(0);
    // Nothing armed and nothing running: only a write could start a request now. Reads are no writes.
    const before = api.webhooks.requests();
    for (const query of ['', '?updated_since=1970-01-01T00:00:00Z'])
      expect(
        (
          await fetch(`${api.url}/vendor/vacancies${query}`, {
            headers: { Authorization: 'Bearer vvk_test_acme_first' },
          })
        ).status,
      ).toBe(200);
    await api.idle();
    expect(api.webhooks.requests()).toBe(before);
    expect(api.webhooks.pending()).toBe(0);
  });
});
