/**
 * The summary's rule (docs/design.md#the-summary): a reader never serves a wrong `total`. For random sequences of
 * imports, status changes, deletions, expiries, purges, day boundaries, racing writers, writers stopped by
 * injected failures — some killed holding their lease — writes that reach DynamoDB late or whose answers do, and
 * writers whose clocks are minutes off, the summary, after every step, either gives for every
 * filter combination exactly what counting the active index gives, or says it cannot be trusted. And the repair
 * path (the expiry job, once a dead writer's lease has run out) always makes it trusted and exact again.
 */

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseImportFile } from '../../../../../lambda/domain/import/file';
import { importVacancies } from '../../../../../lambda/domain/import/import';
import { dayNumber, type VacancyFilters } from '../../../../../lambda/domain/schema/active-index';
import { countMatching, isCurrent } from '../../../../../lambda/domain/schema/summary';
import type { VacancyType } from '../../../../../lambda/domain/schema/vacancy';
import { INDEX_SETTLE_MS, LATE_WRITE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { LEASE_MS } from '../../../../../lambda/domain/store/summary-leases';
import { runExpiry } from '../../../../../lambda/functions/expiry/job';
import { deleteVacancy, purgeTombstones, setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { type FaultProxy, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { activeEntries, storedSummary } from '../../../../../testkit/summaries';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const DAY_MS = 86_400_000;
const IDS_PER_RUN = 8;
const NO_WAIT = { sleep: async () => undefined, settleMs: 0 };

/** What a generated record varies: the filters' values, the status, the deadline around today. */
interface RecordSpec {
  readonly slot: number;
  readonly type: number;
  readonly min: number;
  readonly span: number | null;
  readonly status: string;
  readonly dayOffset: number;
}

type Step =
  | { readonly kind: 'import'; readonly records: readonly RecordSpec[] }
  | { readonly kind: 'race'; readonly a: readonly RecordSpec[]; readonly b: readonly RecordSpec[] }
  | { readonly kind: 'status'; readonly slot: number; readonly status: string }
  | { readonly kind: 'delete'; readonly slot: number }
  | {
      readonly kind: 'interrupted';
      readonly records: readonly RecordSpec[];
      readonly after: number;
      readonly killed: boolean;
    }
  | {
      /** An import one of whose puts is late: its answer after the write window, or the request itself. */
      readonly kind: 'late';
      readonly records: readonly RecordSpec[];
      readonly fault: 'delay-answer' | 'delay';
      readonly after: number;
    }
  | {
      /** An import by an operator whose clock is minutes off (its stamps and leases by that clock). */
      readonly kind: 'skewed';
      readonly records: readonly RecordSpec[];
      readonly skewMs: number;
    }
  | { readonly kind: 'expire' }
  | { readonly kind: 'next-day' }
  | { readonly kind: 'purge' };

const slot = fc.integer({ min: 0, max: IDS_PER_RUN - 1 });
const status = fc.constantFrom('active', 'active', 'active', 'inactive', 'draft', 'closed');
const recordSpec: fc.Arbitrary<RecordSpec> = fc.record({
  slot,
  type: fc.integer({ min: 1, max: 4 }),
  min: fc.integer({ min: 0, max: 2 }),
  span: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }),
  status,
  dayOffset: fc.integer({ min: -1, max: 2 }),
});
// Distinct ids within one import: a file may not give an id twice.
const records = fc.uniqueArray(recordSpec, { minLength: 1, maxLength: 6, selector: (record) => record.slot });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: records.map((r) => ({ kind: 'import' as const, records: r })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('race' as const), a: records, b: records }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), slot, status }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), slot }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('interrupted' as const),
      records,
      after: fc.integer({ min: 0, max: 3 }),
      killed: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('late' as const),
      records,
      fault: fc.constantFrom('delay-answer' as const, 'delay' as const),
      after: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('skewed' as const),
      records,
      skewMs: fc.constantFrom(-300_000, -8_000, 8_000, 300_000),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'expire' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'next-day' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'purge' as const }) },
);

/** Every filter combination a listing can ask for, over the generated values (and one past them). */
const FILTER_COMBINATIONS: VacancyFilters[] = (() => {
  const combinations: VacancyFilters[] = [];
  for (const type of [undefined, 1, 2, 3, 4] as const)
    for (const experienceMin of [undefined, 0, 1, 2, 3])
      for (const experienceMax of [undefined, 0, 1, 2, 3])
        combinations.push({
          ...(type !== undefined && { type: type as VacancyType }),
          ...(experienceMin !== undefined && { experienceMin }),
          ...(experienceMax !== undefined && { experienceMax }),
        });
  return combinations;
})();

describe('the per-vendor summary', () => {
  let tables: TestTables;
  let proxy: FaultProxy;
  let run = 0;
  beforeAll(async () => {
    proxy = await startFaultProxy(process.env.DYNAMODB_ENDPOINT as string);
    tables = await createTestTables({ connect: proxy.endpoint, maxAttempts: 1 });
  });
  afterAll(async () => {
    await tables.drop();
    await proxy.stop();
  });

  it('is, after every step, either exact for every filter or not trusted; and the repair path makes it exact', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        run += 1;
        const vendorId = `p${run}`;
        const firstId = run * 100;
        await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
        let now = Date.UTC(2030, 0, 10, 6, 0, 0) + run * 10 * DAY_MS;
        const clock = () => now;
        const today = () => CLOCK.today(new Date(now));
        const { documentClient: client, names } = tables;

        const file = (specs: readonly RecordSpec[]) => {
          const todayDate = new Date(`${today()}T00:00:00Z`);
          return parseImportFile(
            specs
              .map((spec) => {
                const deadline = new Date(todayDate.getTime() + spec.dayOffset * DAY_MS)
                  .toISOString()
                  .slice(0, 10);
                return JSON.stringify(
                  vacancyRecord({
                    id: firstId + spec.slot,
                    vendor_id: vendorId,
                    type: spec.type,
                    experience_min: spec.min,
                    experience_max: spec.span === null ? null : spec.min + spec.span,
                    status: spec.status,
                    deadline,
                  }),
                );
              })
              .join('\n'),
          );
        };
        const importFile = (specs: readonly RecordSpec[], writerNow: () => number = clock) =>
          importVacancies(client, names, file(specs), { clock: CLOCK, now: writerNow });
        const expire = () =>
          runExpiry({ client, tables: names, clock: CLOCK, now: () => new Date(now), recount: NO_WAIT });

        /** The rule, checked as a reader at `now` would apply it once the settle window has passed. */
        const check = async (label: string) => {
          const summary = await storedSummary(client, names, vendorId);
          const readAt = now + INDEX_SETTLE_MS;
          const day = CLOCK.today(new Date(readAt));
          if (!summary || !isCurrent(summary, readAt, day, INDEX_SETTLE_MS)) return false;
          const listable = (await activeEntries(client, names, vendorId)).filter(
            (entry) => entry.day >= dayNumber(day),
          );
          for (const filters of FILTER_COMBINATIONS) {
            const exact = listable.filter(
              (entry) =>
                (filters.type === undefined || entry.type === filters.type) &&
                (filters.experienceMin === undefined || entry.min >= filters.experienceMin) &&
                (filters.experienceMax === undefined ||
                  (entry.max !== undefined && entry.max <= filters.experienceMax)),
            ).length;
            if (countMatching(summary, filters) !== exact) {
              throw new Error(
                `${label}: a trusted summary counts ${countMatching(summary, filters)} for ${JSON.stringify(filters)}, the index ${exact}`,
              );
            }
          }
          return true;
        };

        for (const [index, current] of steps.entries()) {
          now += 1_000;
          switch (current.kind) {
            case 'import':
              await importFile(current.records);
              break;
            case 'race':
              await Promise.all([importFile(current.a), importFile(current.b)]);
              break;
            case 'status':
              await setVacancyStatus(client, names, firstId + current.slot, current.status as never, {
                clock: CLOCK,
                now: clock,
              });
              break;
            case 'delete':
              await deleteVacancy(client, names, firstId + current.slot, { now: clock });
              break;
            case 'interrupted':
              proxy.inject(
                { operation: 'PutItem', kind: 'fail', after: current.after },
                ...(current.killed ? [{ operation: 'UpdateItem', kind: 'fail' as const, after: 1 }] : []),
              );
              try {
                await importFile(current.records);
              } finally {
                await proxy.clear();
              }
              break;
            case 'late':
              // Past the writers' 2-second window: given up, then found landed (by its token) or fenced.
              proxy.inject({
                operation: 'PutItem',
                kind: current.fault,
                after: current.after,
                times: 1,
                delayMs: 2_300,
              });
              try {
                await importFile(current.records);
              } finally {
                await proxy.clear();
              }
              break;
            case 'skewed':
              await importFile(current.records, () => clock() + current.skewMs);
              break;
            case 'expire':
              await expire();
              break;
            case 'next-day':
              now += DAY_MS;
              break;
            case 'purge':
              await purgeTombstones(client, names, vendorId, now, { now: clock });
              break;
          }
          await check(`step ${index + 1} (${current.kind})`);
        }

        // The repair path: once any dead writer's lease has run out, the expiry job makes the summary exact.
        now += LEASE_MS + LATE_WRITE_MS + 1_000;
        await expire();
        expect(await check('after repair')).toBe(true);
      }),
      { numRuns: Number(process.env.SUMMARY_PROPERTY_RUNS ?? 25), endOnFailure: true },
    );
  }, 240_000);
});
