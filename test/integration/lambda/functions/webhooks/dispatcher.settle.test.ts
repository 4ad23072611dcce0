/**
 * Where a webhook event ends (docs/design.md#incremental-sync, #a-kill-timeline): never past what has settled —
 * the settle window back from now, and while a lease is on the vendor's summary, the second before it began. A
 * recount's lease has no start: while it is there nothing has settled, and no event is sent — not one that reads to
 * the end of the change index (a time before 0 once made a key after every key). On the embedded engine, with a
 * clock ahead of the settle window.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { readChangeKey } from '../../../../../lambda/domain/schema/change-index';
import { summaryItemKey } from '../../../../../lambda/domain/schema/summary';
import { toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { SummaryStore } from '../../../../../lambda/domain/store/summary-store';
import { EndpointStore } from '../../../../../lambda/domain/webhook-registry/endpoint-store';
import { createDispatcher } from '../../../../../lambda/functions/webhooks/dispatcher';
import { addEndpoint } from '../../../../../lib/ops/webhooks';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { fixtureVacancy, putNewVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

/** Ahead of the index's settle window: every change written is settled, but for the leases. */
const AHEAD_MS = 10_000;

describe('where a webhook event ends', () => {
  let tables: TestTables;
  let nextId = 70_000;

  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables?.drop());

  function dispatcherFor(received: number[][], woken: number[]) {
    return createDispatcher({
      endpoints: new EndpointStore(tables.documentClient, tables.names.vendors),
      changes: createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      }),
      async deliver(_url, _headers, body) {
        received.push((JSON.parse(body).data.changes as { id: number }[]).map((change) => change.id));
        return { ok: true, status: 204 };
      },
      wakeAt: async (_endpoint, at) => {
        woken.push(at);
      },
      guard: async () => undefined,
      onDisabled: () => undefined,
      retrySchedule: [1],
      apiBaseUrl: 'http://127.0.0.1:3000',
      now: () => Date.now() + AHEAD_MS,
    });
  }

  const write = (vendor: string, count: number) =>
    putNewVacancies(
      tables,
      vendor,
      Array.from({ length: count }, () => (nextId += 1)),
    );
  const endpointOf = (vendor: string) =>
    addEndpoint(tables.documentClient, tables.names.vendors, vendor, 'https://receiver.example/hook', {
      allowLoopbackHttp: false,
    });

  const positionOf = async (endpointId: string) =>
    readChangeKey(
      (await new EndpointStore(tables.documentClient, tables.names.vendors).get(endpointId))
        ?.position as Uint8Array,
    );

  it("sends nothing while a recount's lease is on the summary, and everything once it is gone", async () => {
    const vendor = 'initech';
    const endpoint = await endpointOf(vendor);
    const before = await positionOf(endpoint.endpointId);
    const ids = await write(vendor, 3);
    const summaries = new SummaryStore(tables.documentClient, tables.names.vendors);
    const { summary } = await summaries.read(vendor);
    expect(await summaries.takeOver(vendor, summary, 'recount-test', Date.now() + 60_000)).toBeDefined();

    const received: number[][] = [];
    const woken: number[] = [];
    const dispatcher = dispatcherFor(received, woken);
    expect(await dispatcher.dispatchEndpoint(endpoint.endpointId)).toEqual({
      delivered: 0,
      failed: 0,
      disabled: 0,
    });
    expect(received).toEqual([]);
    expect(await positionOf(endpoint.endpointId)).toEqual(before);
    // It looks again: the changes are there, not yet settled.
    expect(woken).toHaveLength(1);

    // The recount is done (its summary written; here, gone): the changes have settled.
    await tables.documentClient.send(
      new DeleteCommand({ TableName: tables.names.vendors, Key: summaryItemKey(vendor) }),
    );
    expect(await dispatcher.dispatchEndpoint(endpoint.endpointId)).toEqual({
      delivered: 1,
      failed: 0,
      disabled: 0,
    });
    expect(received).toEqual([ids]);
  });

  it("ends an event the second before a writer's lease began", async () => {
    const vendor = 'hooli';
    const endpoint = await endpointOf(vendor);
    const ids = await write(vendor, 2);
    const summaries = new SummaryStore(tables.documentClient, tables.names.vendors);
    // A writer at work from two seconds on: what was written before is settled, its own stamps are not.
    const began = Date.now() + 2_000;
    await summaries.takeWriterLease(vendor, 'writer-test', began, began + 60_000);
    nextId += 1;
    const late = nextId;
    await tables.documentClient.send(
      new PutCommand({
        TableName: tables.names.vacancies,
        Item: toVacancyItem(fixtureVacancy(vacancyRecord({ id: late, vendor_id: vendor })), began + 10),
      }),
    );

    const received: number[][] = [];
    const dispatcher = dispatcherFor(received, []);
    await dispatcher.dispatchEndpoint(endpoint.endpointId);
    expect(received).toEqual([ids]);
    expect((await positionOf(endpoint.endpointId)).updatedAt).toBeLessThan(
      Math.floor(began / 1000) * 1000 - 1000,
    );
  });
});
