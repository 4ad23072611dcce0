/**
 * Webhook endpoints under faults (docs/api.md#webhooks, docs/design.md#webhooks), on the embedded engine: the limit
 * of endpoints a vendor holds when `add`s race; an endpoint's starting position is the service's clock, whatever the
 * operator's says; a retry waits its delay from when the failed attempt ended, and never less than `Retry-After`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { readChangeKey } from '../../../../../lambda/domain/schema/change-index';
import { MAX_ENDPOINTS_PER_VENDOR } from '../../../../../lambda/domain/webhook-registry/endpoint';
import { EndpointStore } from '../../../../../lambda/domain/webhook-registry/endpoint-store';
import type { AttemptResult } from '../../../../../lambda/functions/webhooks/delivery';
import { createDispatcher } from '../../../../../lambda/functions/webhooks/dispatcher';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { addEndpoint, listEndpoints, removeEndpoint } from '../../../../../lib/ops/webhooks';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

const RULES = { allowLoopbackHttp: false };
const URL = 'https://receiver.example/hook';

describe('webhook endpoints under faults', () => {
  let tables: TestTables;

  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables?.drop());
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it(`makes exactly ${MAX_ENDPOINTS_PER_VENDOR} endpoints of ten adds at once, and a removal frees a place`, async () => {
    const adds = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        addEndpoint(tables.documentClient, tables.names.vendors, 'racing', URL, RULES),
      ),
    );
    const added = adds.filter((add) => add.status === 'fulfilled');
    expect(added).toHaveLength(MAX_ENDPOINTS_PER_VENDOR);
    for (const add of adds)
      if (add.status === 'rejected')
        expect(String(add.reason)).toMatch(/has 5 webhook endpoints, the most it may have/);
    expect(await listEndpoints(tables.documentClient, tables.names.vendors, 'racing')).toHaveLength(
      MAX_ENDPOINTS_PER_VENDOR,
    );

    const [first] = added as PromiseFulfilledResult<{ endpointId: string }>[];
    await removeEndpoint(tables.documentClient, tables.names.vendors, first?.value.endpointId ?? '');
    const again = await Promise.allSettled(
      Array.from({ length: 3 }, () =>
        addEndpoint(tables.documentClient, tables.names.vendors, 'racing', URL, RULES),
      ),
    );
    expect(again.filter((add) => add.status === 'fulfilled')).toHaveLength(1);
    expect(await listEndpoints(tables.documentClient, tables.names.vendors, 'racing')).toHaveLength(
      MAX_ENDPOINTS_PER_VENDOR,
    );
  });

  it.each([
    ['5 minutes fast', 300_000],
    ['5 minutes slow', -300_000],
  ])("starts an endpoint at the service's time with the operator's clock %s", async (_name, skewMs) => {
    const real = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => real() + skewMs);
    // A client of its own, as a CLI run has: what it learns of DynamoDB's clock is learnt from its clock.
    const client = createDocumentClient(createDynamoDBClient({ endpoint: tables.endpoint }));
    const before = real();
    const endpoint = await addEndpoint(
      client,
      tables.names.vendors,
      `skewed${skewMs > 0 ? 'fast' : 'slow'}`,
      URL,
      RULES,
    );
    const after = real();
    client.destroy();
    const { updatedAt } = readChangeKey(endpoint.position);
    // The position is the service's time less the settle window (a few seconds), never minutes off.
    expect(updatedAt).toBeLessThanOrEqual(after);
    expect(updatedAt).toBeGreaterThan(before - 10_000);
    expect(endpoint.createdAt).toBeLessThanOrEqual(after + 1_000);
    expect(endpoint.createdAt).toBeGreaterThan(before - 2_000);
  });

  describe("a retry's delay", () => {
    /** A dispatch on a fake clock whose one attempt takes `attemptMs` and comes to `result`. */
    async function retryOf(vendor: string, attemptMs: number, result: AttemptResult) {
      await addEndpoint(tables.documentClient, tables.names.vendors, vendor, URL, RULES);
      await putVacancies(tables.documentClient, tables.names.vacancies, [
        vacancyRecord({ id: vendor.length * 1_000 + attemptMs / 1_000, vendor_id: vendor }),
      ]);
      // Ahead of the index's settle window, and moved by the attempt only.
      let clock = Date.now() + 10_000;
      let ended = 0;
      const wakes: number[] = [];
      const dispatcher = createDispatcher({
        endpoints: new EndpointStore(tables.documentClient, tables.names.vendors),
        changes: createVacancyRepository(tables.client, {
          tableName: tables.names.vacancies,
          vendorsTable: tables.names.vendors,
        }),
        async deliver() {
          clock += attemptMs;
          ended = clock;
          return result;
        },
        wakeAt: async (_endpoint, at) => {
          wakes.push(at);
        },
        onDisabled: () => undefined,
        retrySchedule: [5, 300],
        apiBaseUrl: 'https://api.example',
        now: () => clock,
        // The shortest the jitter allows: 80 % of the delay.
        random: () => 0,
      });
      const report = await dispatcher.dispatchVendor(vendor);
      expect(report.failed).toBe(1);
      const [endpoint] = await listEndpoints(tables.documentClient, tables.names.vendors, vendor);
      return { dueAt: endpoint?.pending?.dueAt ?? 0, ended, wakes };
    }

    it('counts from the answer, and is never shorter than its Retry-After', async () => {
      const { dueAt, ended, wakes } = await retryOf('thinker', 9_000, {
        ok: false,
        status: 503,
        outcome: '503',
        retryAfterMs: 6_000,
      });
      expect(dueAt).toBeGreaterThanOrEqual(ended + 6_000);
      expect(wakes).toContain(dueAt);
    });

    it('counts from the abandonment of an attempt that took its 10 seconds', async () => {
      const { dueAt, ended } = await retryOf('sleeper', 10_000, { ok: false, outcome: 'timeout' });
      expect(dueAt).toBeGreaterThanOrEqual(ended + 4_000);
    });

    it('counts a Retry-After over 24 hours as 24 hours', async () => {
      const { dueAt, ended } = await retryOf('greedy', 1_000, {
        ok: false,
        status: 429,
        outcome: '429',
        retryAfterMs: 3 * 86_400_000,
      });
      expect(dueAt).toBe(ended + 86_400_000);
    });
  });
});
