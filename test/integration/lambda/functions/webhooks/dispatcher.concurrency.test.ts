/**
 * Wake-ups that race (docs/design.md#webhooks): however many dispatches of one endpoint run at once, one holds its
 * lease and sends, one event at a time, in order, each once; one that finds the endpoint busy flags it, and the
 * holder reads again before it lets go — so a change that landed during a delivery is sent without another
 * wake-up. On the embedded engine, with a fake receiver and a clock ahead of the index's settle window.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { EndpointStore } from '../../../../../lambda/domain/webhook-registry/endpoint-store';
import type { AttemptResult } from '../../../../../lambda/functions/webhooks/delivery';
import { createDispatcher } from '../../../../../lambda/functions/webhooks/dispatcher';
import { addEndpoint, removeEndpoint } from '../../../../../lib/ops/webhooks';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { putNewVacancies } from '../../../../../testkit/vacancies';

const VENDOR = 'acme';
/** The second test's: a new endpoint also gets the changes of the few seconds before it was added. */
const OTHER = 'globex';

describe('racing webhook dispatches', () => {
  let tables: TestTables;
  let nextId = 1_000;

  /** A dispatcher whose receiver takes `deliveryMs` per event and records what it got. */
  function dispatcherFor(received: { id: string; changes: number[] }[], onDelivery?: () => Promise<void>) {
    let active = 0;
    let mostActive = 0;
    const dispatcher = createDispatcher({
      endpoints: new EndpointStore(tables.documentClient, tables.names.vendors),
      changes: createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      }),
      async deliver(_url, headers, body): Promise<AttemptResult> {
        active += 1;
        mostActive = Math.max(mostActive, active);
        await onDelivery?.();
        await new Promise((resolve) => setTimeout(resolve, 30));
        received.push({
          id: headers['webhook-id'] as string,
          changes: (JSON.parse(body).data.changes as { id: number }[]).map((c) => c.id),
        });
        active -= 1;
        return { ok: true, status: 204 };
      },
      wakeAt: async () => undefined,
      onDisabled: () => undefined,
      retrySchedule: [1],
      apiBaseUrl: 'http://127.0.0.1:3000',
      // Ahead of the index's settle window: every change written is settled.
      now: () => Date.now() + 10_000,
    });
    return { dispatcher, mostActive: () => mostActive };
  }

  const write = (count: number, vendor = VENDOR) =>
    putNewVacancies(
      tables,
      vendor,
      Array.from({ length: count }, () => (nextId += 1)),
    );

  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables?.drop());

  it('sends each event once, one at a time, in order, however many wake-ups run at once', async () => {
    const endpoint = await addEndpoint(
      tables.documentClient,
      tables.names.vendors,
      VENDOR,
      'https://receiver.example/hook',
      {
        allowLoopbackHttp: false,
      },
    );
    const ids = await write(250);
    const received: { id: string; changes: number[] }[] = [];
    const { dispatcher, mostActive } = dispatcherFor(received);
    await Promise.all(Array.from({ length: 6 }, () => dispatcher.dispatchVendor(VENDOR)));
    expect(mostActive()).toBe(1);
    expect(received.map((r) => r.changes.length)).toEqual([100, 100, 50]);
    expect(received.flatMap((r) => r.changes)).toEqual(ids);
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
    await removeEndpoint(tables.documentClient, tables.names.vendors, endpoint.endpointId);
  });

  it('sends a change that landed during a delivery, woken once, through the flag a busy wake-up left', async () => {
    const endpoint = await addEndpoint(
      tables.documentClient,
      tables.names.vendors,
      OTHER,
      'https://receiver.example/hook',
      {
        allowLoopbackHttp: false,
      },
    );
    const [first] = await write(1, OTHER);
    const received: { id: string; changes: number[] }[] = [];
    let late: readonly number[] = [];
    let racing: Promise<unknown> | undefined;
    const { dispatcher } = dispatcherFor(received, async () => {
      if (racing) return;
      // During the first delivery: a change lands, and its wake-up finds the endpoint busy.
      late = await write(1, OTHER);
      racing = dispatcher.dispatchEndpoint(endpoint.endpointId);
      expect(await racing).toEqual({ delivered: 0, failed: 0, disabled: 0 });
    });
    await dispatcher.dispatchEndpoint(endpoint.endpointId);
    expect(received.flatMap((r) => r.changes)).toEqual([first, ...late]);
    const stored = await new EndpointStore(tables.documentClient, tables.names.vendors).get(
      endpoint.endpointId,
    );
    // Let go of, with nothing left flagged.
    expect(stored).not.toHaveProperty('leaseHolder');
    expect(stored).not.toHaveProperty('rerun');
  });
});
