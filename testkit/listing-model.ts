/**
 * The model the listing's property tests check the vacancies function against
 * (`test/integration/lambda/domain/answers/*.property.test.ts`): a vendor's vacancies in a few slots,
 * the random writes made to them — imports, status changes, deletions — and what the table holds after them, kept
 * in step with each write as it is made through the tools' own writers.
 */
import fc from 'fast-check';
import { defaultWorkplace, WORKPLACES, type Workplace } from '../lambda/domain/schema/vacancy';
import { deleteVacancy, setVacancyStatus } from '../lib/ops/vacancies';
import { putVendor } from '../lib/ops/vendors';
import type { TestTables } from './dynamodb';
import { importRecords } from './listing';
import { CLOCK, vacancyRecord } from './vacancies';

const DAY_MS = 86_400_000;

/** What the model holds of a vacancy: the fields the listing filters and orders by. */
export interface ModelledVacancy {
  /** Its slot: its id, less the run's first id. */
  readonly id: number;
  readonly type: number;
  /** The workplace the record names; null: none (the type's default, `workplaceOf`). */
  readonly workplace: Workplace | null;
  readonly min: number;
  readonly max: number | null;
  readonly status: string;
  /** Days from the run's today to its deadline; the tests keep off the day boundary's edges (0, −1). */
  readonly dayOffset: number;
  readonly createdAt: string;
}

/** Where a modelled vacancy's work is done: the record's workplace, or its type's default. */
export const workplaceOf = (v: ModelledVacancy): Workplace => v.workplace ?? defaultWorkplace(v.type);

/** A random workplace a record names: none (the type's default) or any of them; `withWorkplace` fits it to the type. */
export const modelledWorkplace = fc.option(fc.constantFrom(...WORKPLACES), { nil: null });

/** A modelled vacancy whose workplace its type allows: the Remote type (3) allows `remote` alone. */
export const withWorkplace = <V extends ModelledVacancy>(v: V): V =>
  v.type === 3 && v.workplace !== null ? { ...v, workplace: defaultWorkplace(v.type) } : v;

/** A vacancy's cities as the model holds them: the primary, and the others (docs/api.md#many-places). */
export interface ModelledCities {
  readonly city: string;
  /** In the record's order; empty: none (the record leaves `additional_cities` out, or gives `[]`). */
  readonly additionalCities: readonly string[];
}

/**
 * Random cities of `codes`: a primary, and most often no other — else up to `most` others, never the primary, in any
 * order.
 */
export const modelledCities = (codes: readonly string[], most = 3): fc.Arbitrary<ModelledCities> =>
  fc
    .tuple(
      fc.constantFrom(...codes),
      fc.oneof(
        { arbitrary: fc.constant([]), weight: 2 },
        {
          arbitrary: fc.uniqueArray(fc.constantFrom(...codes), { minLength: 1, maxLength: most + 1 }),
          weight: 3,
        },
      ),
    )
    .map(([city, others]) => ({
      city,
      additionalCities: others.filter((other) => other !== city).slice(0, most),
    }));

/** Every city of a modelled vacancy, the primary first: what `city` matches, `q` reads and a facet counts. */
export const citiesOf = (v: ModelledCities): readonly string[] => [v.city, ...v.additionalCities];

/** The record's fields of modelled cities: `additional_cities` left out or `[]` when there are none. */
export const cityFields = (v: ModelledCities & { readonly id: number }) => ({
  city: v.city,
  ...(v.additionalCities.length > 0
    ? { additional_cities: v.additionalCities }
    : v.id % 2 === 0 && { additional_cities: [] }),
});

/** A modelled vacancy's statuses as imported, active most often. */
const MODELLED_STATUSES = ['active', 'active', 'active', 'inactive', 'closed'] as const;

/**
 * A random vacancy of slot `slot`: any type, an experience range (open-ended or not), active most often, a deadline
 * two days past or some days ahead (off the day boundary's edges), created some time in one month.
 */
export const modelledVacancy = (slot: number): fc.Arbitrary<ModelledVacancy> =>
  fc
    .record({
      id: fc.constant(slot),
      type: fc.integer({ min: 1, max: 4 }),
      workplace: modelledWorkplace,
      min: fc.integer({ min: 0, max: 3 }),
      max: fc.option(fc.integer({ min: 3, max: 5 }), { nil: null }),
      status: fc.constantFrom(...MODELLED_STATUSES),
      dayOffset: fc.constantFrom(-2, 1, 2, 5),
      createdAt: fc
        .integer({ min: 0, max: 60 * 24 * 30 })
        .map((minutes) =>
          new Date(Date.UTC(2026, 8, 1) + minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        ),
    })
    .map(withWorkplace);

/** A write to one slot: a vacancy imported there, its status changed, or it deleted. */
export type ListingWrite<V extends ModelledVacancy> =
  | { readonly kind: 'import'; readonly vacancy: V }
  | { readonly kind: 'status'; readonly slot: number; readonly status: string }
  | { readonly kind: 'delete'; readonly slot: number };

/** Random writes to `slots` slots: a vacancy of `vacancy` imported, a status of `statuses` set, or a deletion. */
export function listingWrites<V extends ModelledVacancy>(
  vacancy: (slot: number) => fc.Arbitrary<V>,
  slots: number,
  statuses: readonly string[],
): fc.Arbitrary<ListingWrite<V>> {
  const slot = fc.integer({ min: 0, max: slots - 1 });
  return fc.oneof(
    slot.chain((s) => vacancy(s)).map((v) => ({ kind: 'import' as const, vacancy: v })),
    fc.record({ kind: fc.constant('status' as const), slot, status: fc.constantFrom(...statuses) }),
    fc.record({ kind: fc.constant('delete' as const), slot }),
  );
}

/**
 * A vendor of the test's tables (company Acme) whose vacancies are ids `firstId` + slot, and the model of them:
 * `vacancies` is what the table holds once the writes made through `importAll` and `apply` have landed. A modelled
 * vacancy becomes a record of its fields and `fields(v)` (a title, a category, a city …).
 */
export async function modelledVendor<V extends ModelledVacancy>(
  tables: TestTables,
  vendorId: string,
  firstId: number,
  fields: (v: V) => Record<string, unknown> = () => ({}),
) {
  await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: 'Acme' });
  const vacancies = new Map<number, V>();
  const todayStart = new Date(`${CLOCK.today(new Date())}T00:00:00Z`).getTime();
  const record = (v: V) =>
    vacancyRecord({
      id: firstId + v.id,
      vendor_id: vendorId,
      ...fields(v),
      type: v.type,
      ...(v.workplace !== null && { workplace: v.workplace }),
      experience_min: v.min,
      experience_max: v.max,
      status: v.status,
      deadline: new Date(todayStart + v.dayOffset * DAY_MS).toISOString().slice(0, 10),
      created_at: v.createdAt,
    });
  const importAll = async (imported: readonly V[]) => {
    await importRecords(tables, imported.map(record));
    for (const v of imported) vacancies.set(v.id, v);
  };
  const apply = async (change: ListingWrite<V>) => {
    if (change.kind === 'import') await importAll([change.vacancy]);
    else if (change.kind === 'status') {
      const outcome = await setVacancyStatus(
        tables.documentClient,
        tables.names,
        firstId + change.slot,
        change.status as never,
        { clock: CLOCK },
      );
      const current = vacancies.get(change.slot);
      if (current && 'now' in outcome) vacancies.set(change.slot, { ...current, status: outcome.now.status });
    } else {
      await deleteVacancy(tables.documentClient, tables.names, firstId + change.slot);
      vacancies.delete(change.slot);
    }
  };
  return { vacancies, importAll, apply };
}
