/**
 * One vacancy's answer against a model of the contract (docs/api.md#one-vacancy), for random stored items and random
 * times: an open vacancy of the key's vendor is the 200; one of its own that is no longer open — closed, expired,
 * deleted, or active past its deadline that the expiry job has not recorded — is the 410 with `closed_at` (its
 * `updated_at`, or for the unrecorded expiry the start of the day after its deadline in Baku, if later); everything
 * else — another vendor's item whatever its status, a draft, an inactive one — is the one 404. So a 410 never tells
 * another vendor anything. Whatever `Accept` asks for, an error is the same JSON envelope.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import fc from 'fast-check';
import { STORED_STATUSES } from '../../../../../lambda/domain/schema/vacancy';
import { toTombstone, toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import type { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { vacancyEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

const DAY_MS = 86_400_000;
/** Baku: UTC+4 all year (no daylight saving), as the tests' clock. */
const BAKU_MS = 4 * 3_600_000;

/** `YYYY-MM-DD` of the day `offset` days after the Baku day of `instant`. */
const bakuDay = (instant: number, offset = 0) =>
  new Date(instant + BAKU_MS + offset * DAY_MS).toISOString().slice(0, 10);
/** The instant a Baku day begins. */
const bakuDayStart = (day: string) => Date.parse(`${day}T00:00:00+04:00`);

const stored = fc.record({
  status: fc.constantFrom(...STORED_STATUSES),
  owner: fc.constantFrom('acme', 'globex'),
  // The deadline, in days from the Baku day of the request.
  deadlineOffset: fc.integer({ min: -3, max: 3 }),
  // When it last changed, in minutes before (or after) the request.
  changedMinutesAgo: fc.integer({ min: -60, max: 5 * 24 * 60 }),
  // The request: any minute of a few days, so that it falls on any hour of a Baku day.
  nowMinute: fc.integer({ min: 0, max: 7 * 24 * 60 }),
  accept: fc.constantFrom(undefined, 'application/json', 'application/ld+json'),
});
type Stored = typeof stored extends fc.Arbitrary<infer T> ? T : never;

/** What the contract says Acme is answered, and when the vacancy closed (a 410's `closed_at`). */
function expected(item: Stored, now: number, updatedAt: number): { status: number; closedAt?: string } {
  if (item.owner !== 'acme') return { status: 404 };
  if (['closed', 'expired', 'deleted'].includes(item.status))
    return { status: 410, closedAt: new Date(updatedAt).toISOString() };
  if (item.status !== 'active') return { status: 404 };
  if (item.deadlineOffset >= 0) return { status: 200 };
  const deadline = bakuDay(now, item.deadlineOffset);
  const passed = bakuDayStart(bakuDay(bakuDayStart(deadline), 1));
  return { status: 410, closedAt: new Date(Math.max(passed, updatedAt)).toISOString() };
}

describe('GET /vendor/vacancies/{id}, against the model of the contract', () => {
  let tables: TestTables;
  let now = 0;
  let handler: ReturnType<typeof createVacanciesHandler>;
  let nextId = 1;

  beforeAll(async () => {
    tables = await createTestTables();
    handler = testListingHandler(tables, { now: () => new Date(now) });
  }, 60_000);
  afterAll(() => tables.drop());

  it('answers 200, 410 with closed_at, or the one 404, as the model says; a 410 only to the owner', async () => {
    await fc.assert(
      fc.asyncProperty(stored, async (item) => {
        now = Date.UTC(2026, 5, 10) + item.nowMinute * 60_000;
        const id = nextId++;
        const updatedAt = now - item.changedMinutesAgo * 60_000;
        const vacancy = fixtureVacancy(
          vacancyRecord({ id, vendor_id: item.owner, deadline: bakuDay(now, item.deadlineOffset) }),
        );
        // Stored as given, whatever the deadline: an `active` one past it is one the job has not recorded yet.
        const Item =
          item.status === 'deleted'
            ? toTombstone(id, item.owner, updatedAt)
            : toVacancyItem({ ...vacancy, status: item.status }, updatedAt);
        await tables.documentClient.send(new PutCommand({ TableName: tables.names.vacancies, Item }));

        const response = (await handler(
          vacancyEvent(String(id), { ...(item.accept && { headers: { Accept: item.accept } }) }),
          lambdaContext('listing'),
        )) as APIGatewayProxyResult;
        const want = expected(item, now, updatedAt);
        expect(response.statusCode).toBe(want.status);
        if (want.status === 200) return;
        expect(response.headers?.['Content-Type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(response.body)).toEqual(
          want.status === 410
            ? {
                status: 'error',
                message: 'This vacancy is no longer open.',
                closed_at: want.closedAt,
                request_id: 'req-1',
              }
            : { status: 'error', message: 'Vacancy not found.', request_id: 'req-1' },
        );
      }),
      { numRuns: Number(process.env.ONE_VACANCY_PROPERTY_RUNS ?? 150), endOnFailure: true },
    );
  }, 120_000);
});
