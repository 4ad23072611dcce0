/**
 * The random MCP calls the tools' property tests make (`test/integration/lambda/functions/mcp/*.property.test.ts`),
 * and the vendors they make them of: vacancies with random titles, categories, cities, types, experience and statuses
 * (`listing-model.ts`'s slots), and `search_vacancies` arguments as JSON — valid values mostly, now and then one the
 * listing refuses — with the same call as the listing's query string.
 */
import { expect } from '@jest/globals';
import fc from 'fast-check';
import { FACET_NAMES, FILTER_CODES } from '../lambda/domain/answers/query';
import { INCLUDE_NAMES } from '../lambda/domain/vacancy/pay-and-place';
import type { ListingResponse } from '../lambda/functions/vacancies/bodies';
import {
  cityFields,
  type ModelledCities,
  type ModelledVacancy,
  modelledCities,
  modelledVacancy,
} from './listing-model';

const WORDS = [
  'Mühəndis',
  'Senior',
  'Backend',
  'Engineer',
  'Satış',
  'Şöbə',
  'müdiri',
  'Data',
  'Analitik',
] as const;
const CATEGORIES = FILTER_CODES.category;
const CITIES = FILTER_CODES.city;

/** A modelled vacancy with the fields search reads: its title's words, its category and its cities. */
export interface SearchedVacancy extends ModelledVacancy, ModelledCities {
  readonly title: string;
  readonly category: string;
}

/** A vacancy of a slot, with a title of one to three words, one of a few categories, and one city or several. */
export const searchedVacancy = (slot: number): fc.Arbitrary<SearchedVacancy> =>
  fc
    .tuple(
      modelledVacancy(slot),
      fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
      fc.constantFrom(...CATEGORIES.slice(0, 4)),
      modelledCities(CITIES.slice(0, 5), 2),
    )
    .map(([v, title, category, cities]) => ({ ...v, title, category, ...cities }));

/** The fields of a searched vacancy's record besides the model's (for `modelledVendor`). */
export const searchedFields = (v: SearchedVacancy) => ({
  title: v.title,
  category: v.category,
  ...cityFields(v),
});

/** Slots of a vendor. */
export const SLOTS = 12;

/** A value of `valid` mostly, now and then one of `invalid`, which the listing refuses. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: invalid, weight: 1 });

/** A `search_vacancies` call's arguments, as JSON: valid values mostly, now and then one the listing refuses. */
export const searchCall = fc.record(
  {
    q: mostly(
      fc.constantFrom('eng', 'mühəndis', 'muhendis', 'sen back', 'baku', 'gəncə', 'data an', 'zzz', ''),
      fc.constantFrom('  ', '!!', 'a b c d e f g h i j k'),
    ),
    category: mostly(
      fc.uniqueArray(fc.constantFrom(...CATEGORIES.slice(0, 5)), { minLength: 0, maxLength: 3 }),
      fc.constant(['nope']),
    ),
    city: fc.uniqueArray(fc.constantFrom(...CITIES.slice(0, 5)), { minLength: 1, maxLength: 3 }),
    type: mostly(fc.integer({ min: 1, max: 4 }), fc.constantFrom(0, 5, 2.5)),
    experience_min: mostly(fc.integer({ min: 0, max: 3 }), fc.constant(5)),
    experience_max: mostly(fc.integer({ min: 3, max: 5 }), fc.constant(101)),
    workplace: mostly(
      fc.uniqueArray(fc.constantFrom(...FILTER_CODES.workplace), { minLength: 1, maxLength: 3 }),
      fc.constant(['office']),
    ),
    facets: fc.uniqueArray(fc.constantFrom(...FACET_NAMES), { minLength: 1, maxLength: 3 }),
    page: mostly(fc.integer({ min: 1, max: 3 }), fc.constant(0)),
    per_page: mostly(fc.integer({ min: 1, max: 4 }), fc.constant(101)),
    lang: mostly(fc.constantFrom('az', 'en', 'EN'), fc.constant('fr')),
    include: mostly(
      fc.uniqueArray(fc.constantFrom(...INCLUDE_NAMES), { minLength: 1, maxLength: INCLUDE_NAMES.length }),
      fc.constant(['salary']),
    ),
  },
  { requiredKeys: [] },
);
export type SearchCall = typeof searchCall extends fc.Arbitrary<infer R> ? R : never;

/** A `get_vacancy` call's arguments: a slot's id (or one past the slots: none), a language, what to include. */
export const vacancyCall = (firstId: number) =>
  fc.record(
    {
      id: fc.integer({ min: firstId, max: firstId + SLOTS }),
      lang: fc.constantFrom('az', 'en'),
      include: fc.uniqueArray(fc.constantFrom(...INCLUDE_NAMES), {
        minLength: 1,
        maxLength: INCLUDE_NAMES.length,
      }),
    },
    { requiredKeys: ['id'] },
  );

/** The same call as the listing's query string: integers in decimal, lists comma-separated. */
export const queryString = (args: Readonly<Record<string, unknown>>) =>
  new URLSearchParams(
    Object.entries(args).map(([name, value]): [string, string] => [
      name,
      Array.isArray(value) ? value.join(',') : String(value),
    ]),
  ).toString();

/**
 * What `search_vacancies` answers for the listing's 200 to the same query: its body but the status, and the pagination
 * with a cursor (a string while the listing links a next page, else null) for its links.
 */
export function searchResultOf(body: ListingResponse) {
  const { company, data, pagination, facets } = body;
  return {
    company,
    data,
    pagination: {
      current_page: pagination.current_page,
      last_page: pagination.last_page,
      per_page: pagination.per_page,
      total: pagination.total,
      cursor: pagination.next_page_url === null ? null : expect.any(String),
    },
    ...(facets && { facets }),
  };
}
