/**
 * Search, filters by code and facets against a brute-force filter over what was written
 * (docs/api.md#search-filters-and-facets, docs/design.md#search): random vendors — titles in both languages with diacritics, every category,
 * city and workplace, vacancies in several cities (docs/api.md#many-places), random types and experience — random
 * writes, and random requests. Every page of every walk by
 * `next_page_url`, `total` and every facet count equal the brute force; a walk yields each listable match once, in
 * order; and one made while writes land between its pages still visits exactly once every vacancy that stayed
 * active and matching throughout.
 */

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { FACET_NAMES, FILTER_CODES } from '../../../../../lambda/domain/answers/query';
import { searchWords } from '../../../../../lambda/domain/schema/search-words';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { DICTIONARY, localize } from '../../../../../lambda/domain/vacancy/dictionary';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import {
  citiesOf,
  cityFields,
  type ListingWrite,
  listingWrites,
  type ModelledCities,
  type ModelledVacancy,
  modelledCities,
  modelledVendor,
  modelledWorkplace,
  withWorkplace,
  workplaceOf,
} from '../../../../../testkit/listing-model';

const WORDS = [
  'Mühəndis',
  'Baş',
  'mütəxəssis',
  'Senior',
  'Backend',
  'Engineer',
  'İnsan',
  'resursları',
  'Şöbə',
  'müdiri',
  'Satış',
  'Çağrı',
  'Developer',
  'Ağ',
  'IT',
  'Iğdır',
  'naïve',
  'Crème',
  'Data',
  'Analitik',
  '2026',
  'C++',
  'Sumqayıt',
  'Gəncə',
] as const;
const CATEGORIES = FILTER_CODES.category;
const CITIES = FILTER_CODES.city;
const WORKPLACES = FILTER_CODES.workplace;

interface Modelled extends ModelledVacancy, ModelledCities {
  readonly title: string;
  readonly category: string;
}

const vacancy = (slot: number): fc.Arbitrary<Modelled> =>
  fc
    .record({
      id: fc.constant(slot),
      title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
      category: fc.constantFrom(...CATEGORIES),
      cities: modelledCities(CITIES),
      type: fc.integer({ min: 1, max: 4 }),
      workplace: modelledWorkplace,
      min: fc.integer({ min: 0, max: 3 }),
      max: fc.option(fc.integer({ min: 3, max: 5 }), { nil: null }),
      status: fc.constantFrom('active', 'active', 'active', 'inactive'),
      dayOffset: fc.constantFrom(-2, 1, 3),
      // Few distinct seconds: ties broken by id.
      createdAt: fc
        .integer({ min: 0, max: 20 })
        .map((minutes) =>
          new Date(Date.UTC(2026, 8, 1) + minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        ),
    })
    .map(({ cities, ...v }) => withWorkplace({ ...v, ...cities }));

type Write = ListingWrite<Modelled>;

const SLOTS = 14;
const write = listingWrites(vacancy, SLOTS, ['active', 'closed']);

/** A word of `q`: a prefix of a title word or label, in any case, folded or not; now and then one that matches nothing. */
const labelWords = [
  ...Object.values(DICTIONARY.category).flatMap((l) => [l.az, l.en]),
  ...Object.values(DICTIONARY.city).flatMap((l) => [l.az, l.en]),
].flatMap((label) => label.split(/\s+/));
const queryWord = fc.oneof(
  fc
    .tuple(fc.constantFrom(...WORDS, ...labelWords), fc.integer({ min: 1, max: 8 }), fc.boolean())
    .map(([word, length, upper]) => {
      const prefix = [...word].slice(0, length).join('');
      return upper ? prefix.toUpperCase() : prefix.toLowerCase();
    }),
  fc.constantFrom('muhendis', 'baki', 'sen', 'back', 'sr', 'zzz', 'gence', 'insan', 'ı', 'I'),
);
const request = fc.record(
  {
    category: fc.uniqueArray(fc.constantFrom(...CATEGORIES), { minLength: 1, maxLength: 4 }),
    city: fc.uniqueArray(fc.constantFrom(...CITIES), { minLength: 1, maxLength: 4 }),
    workplace: fc.uniqueArray(fc.constantFrom(...WORKPLACES), { minLength: 1, maxLength: 2 }),
    q: fc.array(queryWord, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
    type: fc.integer({ min: 1, max: 4 }),
    experience_min: fc.integer({ min: 0, max: 3 }),
    experience_max: fc.integer({ min: 3, max: 5 }),
    facets: fc.uniqueArray(fc.constantFrom(...FACET_NAMES), { minLength: 1, maxLength: 4 }),
    per_page: fc.integer({ min: 1, max: 5 }),
    lang: fc.constantFrom('az', 'en'),
    include: fc.constant('locations'),
  },
  { requiredKeys: [] },
);
type Request = typeof request extends fc.Arbitrary<infer R> ? R : never;

/**
 * A request about places: words of city labels (which an additional city alone may match), cities, and the city facet
 * — what a vacancy in several cities answers differently from one in its primary city alone.
 */
const cityLabelWords = Object.values(DICTIONARY.city).flatMap((l) => [l.az, l.en]);
const placesRequest: fc.Arbitrary<Request> = fc.record(
  {
    q: fc
      .tuple(fc.constantFrom(...cityLabelWords), fc.integer({ min: 2, max: 6 }))
      .map(([word, length]) => [...word].slice(0, length).join('').toLowerCase()),
    city: fc.uniqueArray(fc.constantFrom(...CITIES), { minLength: 1, maxLength: 2 }),
    facets: fc.constant(['city'] as (typeof FACET_NAMES)[number][]),
    per_page: fc.integer({ min: 1, max: 5 }),
    lang: fc.constantFrom('az', 'en'),
    include: fc.constant('locations'),
  },
  { requiredKeys: [] },
);

/** The brute force: whether a modelled vacancy is listable on `today` (day offsets) and matches `r`, but for `except`. */
function matches(v: Modelled, r: Request, except?: (typeof FACET_NAMES)[number]): boolean {
  if (v.status !== 'active' || v.dayOffset < 0) return false;
  if (except !== 'type' && r.type !== undefined && v.type !== r.type) return false;
  if (except !== 'category' && r.category && !r.category.includes(v.category)) return false;
  if (except !== 'city' && r.city && !citiesOf(v).some((city) => r.city?.includes(city))) return false;
  if (except !== 'workplace' && r.workplace && !r.workplace.includes(workplaceOf(v))) return false;
  if (r.experience_min !== undefined && v.min < r.experience_min) return false;
  if (r.experience_max !== undefined && (v.max === null || v.max > r.experience_max)) return false;
  if (r.q !== undefined) {
    const words = [
      ...searchWords(v.title),
      ...(['az', 'en'] as const).flatMap((l) => [
        ...searchWords(localize('category', v.category, l)),
        ...citiesOf(v).flatMap((city) => searchWords(localize('city', city, l))),
      ]),
    ];
    if (!searchWords(r.q).every((q) => words.some((w) => w.startsWith(q)))) return false;
  }
  return true;
}

/** Listing order: created_at newest first, then id descending. */
const byListingOrder = (a: Modelled, b: Modelled) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/** The facets the brute force expects. */
function expectedFacets(model: readonly Modelled[], r: Request) {
  if (!r.facets) return undefined;
  const locale = r.lang ?? 'en';
  const facets: Record<string, unknown> = {};
  for (const name of FACET_NAMES) {
    if (!r.facets.includes(name)) continue;
    const order: readonly (string | number)[] =
      name === 'type'
        ? [1, 2, 3, 4]
        : name === 'category'
          ? CATEGORIES
          : name === 'city'
            ? CITIES
            : WORKPLACES;
    const counts = new Map<string | number, number>();
    // A vacancy counts once under each of its cities.
    const codesOf = (v: Modelled) =>
      name === 'workplace' ? [workplaceOf(v)] : name === 'city' ? citiesOf(v) : [v[name]];
    for (const v of model) {
      if (!matches(v, r, name)) continue;
      for (const code of codesOf(v)) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    facets[name] = order
      .filter((code) => counts.has(code))
      .map((code) => ({ code, label: localize(name, code, locale), count: counts.get(code) as number }))
      .sort((a, b) => b.count - a.count);
  }
  return facets;
}

const queryString = (r: Request) =>
  new URLSearchParams(
    Object.entries(r).map(([name, value]): [string, string] => [
      name,
      Array.isArray(value) ? value.join(',') : String(value),
    ]),
  ).toString();

describe('search, filters by code and facets, against a brute force over the table', () => {
  let tables: TestTables;
  let run = 0;
  let now = Date.now();
  let handler: ReturnType<typeof testListingHandler>;

  beforeAll(async () => {
    tables = await createTestTables();
    handler = testListingHandler(tables, { now: () => new Date(now) });
  });
  afterAll(async () => tables.drop());

  it('gives every page, total and facet count of the brute force; walks visit each match once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...Array.from({ length: SLOTS }, (_, i) => vacancy(i))),
        fc.array(write, { maxLength: 4 }),
        fc.array(fc.oneof(request, placesRequest), { minLength: 1, maxLength: 4 }),
        fc.array(write, { minLength: 1, maxLength: 3 }),
        async (initial, writes, requests, racing) => {
          run += 1;
          const vendorId = `s${run}`;
          const firstId = run * 100;
          const vendor = await modelledVendor<Modelled>(tables, vendorId, firstId, (v) => ({
            title: v.title,
            category: v.category,
            ...cityFields(v),
          }));
          const model = vendor.vacancies;
          const apply = (change: Write) => vendor.apply(change);
          await vendor.importAll(initial);
          for (const change of writes) await apply(change);
          const settle = () => {
            now = Date.now() + INDEX_SETTLE_MS + 1_000;
          };
          settle();

          const authorizer = { vendorId, company: 'Acme' };
          const call = async (query: string) => {
            const response = await handler(listingEvent({ authorizer, query }), lambdaContext('listing'));
            expect(response.statusCode).toBe(200);
            return JSON.parse(response.body) as ListingResponse;
          };
          const next = (body: ListingResponse) =>
            body.pagination.next_page_url
              ? new URL(body.pagination.next_page_url).search.slice(1)
              : undefined;

          for (const r of requests) {
            const listable = [...model.values()].filter((v) => matches(v, r)).sort(byListingOrder);
            const perPage = r.per_page ?? 15;
            const facets = expectedFacets([...model.values()], r);
            const seen: number[] = [];
            const pages: number[][] = [];
            let query: string | undefined = queryString(r);
            let last: ListingResponse | undefined;
            while (query !== undefined) {
              const body = await call(query);
              const page = pages.length;
              expect(body.pagination.total).toBe(listable.length);
              expect(body.data.map((v) => v.id - firstId)).toEqual(
                listable.slice(page * perPage, (page + 1) * perPage).map((v) => v.id),
              );
              expect(body.facets).toEqual(facets);
              // With include=locations, each vacancy's cities, the primary first.
              if (r.include) {
                expect(body.data.map((v) => v.locations?.map((location) => location.city))).toEqual(
                  body.data.map((v) => citiesOf(model.get(v.id - firstId) as Modelled)),
                );
              }
              pages.push(body.data.map((v) => v.id - firstId));
              seen.push(...body.data.map((v) => v.id - firstId));
              query = next(body);
              last = body;
            }
            expect(seen).toEqual(listable.map((v) => v.id));
            // And back by `prev_page_url`, page by page.
            let back = last?.pagination.prev_page_url;
            for (let page = pages.length - 2; page >= 0; page -= 1) {
              expect(back).toEqual(expect.any(String));
              const body = await call(new URL(back as string).search.slice(1));
              expect(body.data.map((v) => v.id - firstId)).toEqual(pages[page]);
              back = body.pagination.prev_page_url;
            }
            expect(back).toBeNull();
          }

          // A walk with writes landing between its pages: what stayed active and matching throughout is visited
          // exactly once, in order.
          const r = { ...requests[0], per_page: 2 } as Request;
          const before = new Set([...model.values()].filter((v) => matches(v, r)).map((v) => v.id));
          const touched = new Set<number>();
          const seen: number[] = [];
          let query: string | undefined = queryString(r);
          const pending = [...racing];
          while (query !== undefined) {
            const body = await call(query);
            seen.push(...body.data.map((v) => v.id - firstId));
            query = next(body);
            const change = pending.shift();
            if (change) {
              touched.add(change.kind === 'import' ? change.vacancy.id : change.slot);
              await apply(change);
              settle();
            }
          }
          const after = new Set([...model.values()].filter((v) => matches(v, r)).map((v) => v.id));
          const stayed = [...before].filter((id) => after.has(id) && !touched.has(id));
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of stayed) expect(seen).toContain(id);
        },
      ),
      { numRuns: Number(process.env.SEARCH_PROPERTY_RUNS ?? 25), endOnFailure: true },
    );
  }, 180_000);
});
