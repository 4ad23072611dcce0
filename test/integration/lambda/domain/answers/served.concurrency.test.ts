/**
 * The read units a served listing or vacancy logs are the capacity the engine reported for that request's reads,
 * exactly (docs/operating.md#logs): random requests — pages, filters, search, syncs, one vacancy, polls answered 304
 * by the summary or by the body's bytes, inside the settle window and after it — run several at a time through one
 * handler and one logger, as the local server runs them, with a proxy in front of the engine that keeps each answer's
 * `ConsumedCapacity` under the request it was made for.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogItem } from '@aws-lambda-powertools/logger';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { LISTING_SERVED, VACANCY_SERVED } from '../../../../../lambda/domain/service/log-fields';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { type FaultProxy, LABEL_HEADER, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { lambdaContext, testMetrics } from '../../../../../testkit/lambda';
import { importRecords } from '../../../../../testkit/listing';
import { seededRandom } from '../../../../../testkit/seeded-random';
import { storedSummary } from '../../../../../testkit/summaries';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

/** A logger that keeps every line it would print, with all its attributes, as Powertools makes them. */
class KeepingLogger extends Logger {
  readonly lines: Record<string, unknown>[] = [];
  protected override printLog(_level: number, log: LogItem): void {
    this.lines.push(log.getAttributes() as Record<string, unknown>);
  }
}

/** What the request in progress is: its label (the API request id) and the handler's "now". */
const current = new AsyncLocalStorage<{ readonly label: string; readonly now: number }>();

const SEED = 51_16;
const CITIES = ['baku', 'ganja', 'sumgait'];
const TITLES = ['Backend developer', 'Data analyst', 'Frontend engineer', 'Accountant', 'Sales manager'];

describe('the read units a served request logs', () => {
  let tables: TestTables;
  let proxy: FaultProxy;
  let released = 0;
  const logger = new KeepingLogger({ serviceName: 'read-units', logLevel: 'INFO' });

  beforeAll(async () => {
    tables = await createTestTables();
    proxy = await startFaultProxy(tables.endpoint);
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
    const random = seededRandom(SEED);
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
    const report = await importRecords(
      tables,
      Array.from({ length: 45 }, (_, i) =>
        vacancyRecord({
          id: 1000 + i,
          url: `https://acme.example/jobs/${i}`,
          title: pick(TITLES),
          type: 1 + Math.floor(random() * 4),
          city: pick(CITIES),
          experience_min: Math.floor(random() * 4),
          experience_max: 4 + Math.floor(random() * 4),
          // Some long descriptions: items of several kilobytes cost more than half a unit.
          description: 'Build things. '.repeat(Math.floor(random() * 500) + 1),
          created_at: `2026-0${1 + (i % 9)}-1${i % 10} 09:${String(i % 60).padStart(2, '0')}:00`,
          ...(i % 11 === 0 && { status: 'closed' }),
        }),
      ),
    );
    expect(report.rejected).toEqual([]);
    released = (await storedSummary(tables.documentClient, tables.names, 'acme'))?.releasedAt ?? 0;
    expect(released).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await tables?.drop();
    await proxy?.stop();
  });

  it('are, for every request, the sum of the ConsumedCapacity the engine reported for it, 304s included', async () => {
    // The listing's client, through the proxy, each call labelled with the request it serves. A generous timeout:
    // an answer the SDK gave up on would be one the engine reported and the function never saw.
    const client = createDynamoDBClient({ endpoint: proxy.endpoint, requestTimeoutMs: 60_000 });
    client.middlewareStack.add(
      (next) => async (args) => {
        const label = current.getStore()?.label;
        // By the build step the request is the HTTP request the SDK will sign and send.
        const request = args.request as { headers?: Record<string, string> } | undefined;
        if (label && request?.headers) request.headers[LABEL_HEADER] = label;
        return next(args);
      },
      { step: 'build', name: 'labelRequest' },
    );
    const handler = createVacanciesHandler({
      repository: createVacancyRepository(client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
        queryPageSize: 7,
      }),
      settings: { defaultLocale: 'en', clock: CLOCK, defaultPerPage: 15 },
      logger,
      metrics: testMetrics('listing'),
      now: () => new Date(current.getStore()?.now ?? Date.now()),
    });

    const random = seededRandom(SEED + 1);
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
    const settled = released + INDEX_SETTLE_MS + 2_000;
    /** Answers seen, by query: a later request may poll with their tag. */
    const tags: { query: string; etag: string }[] = [];
    const randomRequest = (): TestRequest & { now: number } => {
      const now = random() < 0.25 ? released + 1_000 : settled;
      const kind = random();
      if (kind < 0.35 && tags.length > 0) {
        const { query, etag } = pick(tags);
        return { query, headers: { 'If-None-Match': etag }, now };
      }
      if (kind < 0.45) return { vacancyId: String(1000 + Math.floor(random() * 45)), now };
      if (kind < 0.5) return { query: 'updated_since=1970-01-01T00:00:00Z&per_page=10', now };
      const parameters = [
        `per_page=${1 + Math.floor(random() * 20)}`,
        ...(random() < 0.5 ? [`page=${1 + Math.floor(random() * 4)}`] : []),
        ...(random() < 0.3 ? [`type=${1 + Math.floor(random() * 4)}`] : []),
        ...(random() < 0.3 ? [`city=${pick(CITIES)}`] : []),
        ...(random() < 0.2 ? [`q=${pick(['dev', 'data', 'eng', 'acc'])}`] : []),
        ...(random() < 0.2 ? ['facets=type,city'] : []),
        ...(random() < 0.3 ? ['lang=az'] : []),
      ];
      return { query: parameters.join('&'), now };
    };

    const results: { label: string; status: number; poll: boolean }[] = [];
    for (let batch = 0; batch < 24; batch += 1) {
      const requests = Array.from({ length: 8 }, (_, i) => ({
        ...randomRequest(),
        requestId: `req-${batch}-${i}`,
      }));
      await Promise.all(
        requests.map(async ({ now, ...request }) => {
          const label = request.requestId;
          const response = await current.run({ label, now }, () =>
            handler(listingEvent(request), lambdaContext('listing', { requestId: label })),
          );
          results.push({ label, status: response.statusCode, poll: request.headers !== undefined });
          const etag = response.headers?.ETag;
          if (response.statusCode === 200 && request.vacancyId === undefined && typeof etag === 'string')
            tags.push({ query: request.query ?? '', etag });
        }),
      );
    }

    const served = logger.lines.filter(
      (line) => line.message === LISTING_SERVED || line.message === VACANCY_SERVED,
    );
    for (const { label, status } of results) {
      const reported = proxy.answers
        .filter((answer) => answer.label === label)
        .reduce((total, answer) => total + answer.capacityUnits, 0);
      const lines = served.filter((line) => line.correlation_id === label);
      // Each request answered has its one line (a 410 too); its read units are what the engine reported.
      expect({ label, status, lines: lines.length }).toEqual({ label, status, lines: 1 });
      expect({ label, readUnits: lines[0]?.readUnits }).toEqual({ label, readUnits: reported });
    }
    expect(served).toHaveLength(results.length);
    // Every answer of the engine was for one of these requests, and the mix held polls answered 304 and pages.
    expect(proxy.answers.every((answer) => answer.label !== '')).toBe(true);
    const notModified = results.filter(({ status }) => status === 304);
    expect(notModified.length).toBeGreaterThan(10);
    expect(results.filter(({ status }) => status === 200).length).toBeGreaterThan(50);
    client.destroy();
  });
});
