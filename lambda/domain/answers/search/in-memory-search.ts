/**
 * The in-memory search (docs/design.md#search): one pass over a vendor's search entries, newest first, answers any
 * combination of filters, `q` and facets — the page's entries (from the top, an offset or a cursor), `total` and each
 * facet's counts. The exact, slow way it must equal is the brute-force model of the property tests.
 */
import type { VacancyFilters } from '../../schema/active-index';
import { searchWords } from '../../schema/search-words';
import { type Locale, VACANCY_TYPES } from '../../schema/vacancy';
import { localize } from '../../vacancy/dictionary';
import type { PageStart } from '../cursor';
import { FACET_NAMES, type FacetName, FILTER_CODES, type SearchFilters } from '../query';
import type { SearchEntry } from './search-entry';

/** One value of a facet: its code (a type's is a number), its label in the answer's locale, how many match. */
export interface FacetValue {
  code: string | number;
  label: string;
  count: number;
}

/** The facets asked for (docs/api.md#facets): for each, its values by count, then the dictionary's order. */
export type Facets = Partial<Record<FacetName, FacetValue[]>>;

/** What one request asks of a vendor's entries. */
export interface SearchRequest {
  readonly filters: VacancyFilters;
  readonly search: SearchFilters;
  /** Today in the service zone, as a day number (`dayNumber`): an entry whose deadline is earlier is not listed. */
  readonly today: number;
  readonly start: PageStart;
  readonly limit: number;
  readonly locale: Locale;
}

/** The page's entries in listing order, whether more match beyond it (the way it was read), `total` and facets. */
export interface SearchOutcome {
  readonly page: SearchEntry[];
  readonly more: boolean;
  readonly total: number;
  readonly facets: Facets | undefined;
}

const LOCALES: readonly Locale[] = ['az', 'en'];

/**
 * For each code of a coded field (and any other an entry holds), which of `q`'s words are a prefix of a word of its
 * label in either locale, as a bit mask (`q` has at most 10 words).
 */
function labelMasks(kind: 'category' | 'city', words: readonly string[], codes: Iterable<string>) {
  const masks = new Map<string, number>();
  for (const code of codes) {
    if (masks.has(code)) continue;
    const labelWords = LOCALES.flatMap((locale) => searchWords(localize(kind, code, locale)));
    masks.set(code, wordMask(words, labelWords));
  }
  return masks;
}

/** The bits of the words of `q` that are a prefix of one of `words`. */
function wordMask(q: readonly string[], words: readonly string[]): number {
  let mask = 0;
  q.forEach((word, i) => {
    if (words.some((candidate) => candidate.startsWith(word))) mask |= 1 << i;
  });
  return mask;
}

/** Byte-wise comparison of two order keys. */
function compareOrder(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

/** A facet's values, by count descending, then the dictionary's order (codes it lacks after, by code). */
function facetValues(
  kind: FacetName,
  counts: ReadonlyMap<string | number, number>,
  locale: Locale,
): FacetValue[] {
  const order: readonly (string | number)[] = kind === 'type' ? VACANCY_TYPES : FILTER_CODES[kind];
  const rank = (code: string | number) => {
    const at = order.indexOf(code);
    return at === -1 ? order.length : at;
  };
  return [...counts]
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || rank(a) - rank(b) || String(a).localeCompare(String(b)))
    .map(([code, count]) => ({ code, label: localize(kind, code, locale), count }));
}

/**
 * Answers a request from a vendor's entries (newest first): filters AND-ed (a code list OR-ed within; `city` met by
 * any city of the vacancy), `q`'s every word a prefix of a word of the title or of the category's or any city's label;
 * a facet counted over what matches every filter but its own (docs/api.md#facets), a vacancy under each of its cities.
 */
export function searchEntries(entries: readonly SearchEntry[], request: SearchRequest): SearchOutcome {
  const { filters, search } = request;
  const { today } = request;
  const q = search.q?.words ?? [];
  const all = q.length === 0 ? 0 : 2 ** q.length - 1;
  const categories = search.category && new Set(search.category);
  const cities = search.city && new Set(search.city);
  const workplaces = search.workplace && new Set(search.workplace);
  const categoryMasks = labelMasks(
    'category',
    q,
    entries.map((entry) => entry.category),
  );
  const cityMasks = labelMasks(
    'city',
    q,
    entries.flatMap((entry) => entry.cities),
  );
  const asked = new Set(search.facets ?? []);
  const counts = new Map<FacetName, Map<string | number, number>>(
    FACET_NAMES.filter((name) => asked.has(name)).map((name) => [name, new Map()]),
  );
  const count = (name: FacetName, code: string | number) => {
    const facet = counts.get(name);
    if (facet) facet.set(code, (facet.get(code) ?? 0) + 1);
  };

  const matching: SearchEntry[] = [];
  for (const entry of entries) {
    if (entry.deadline < today) continue;
    if (filters.experienceMin !== undefined && entry.experienceMin < filters.experienceMin) continue;
    if (
      filters.experienceMax !== undefined &&
      (entry.experienceMax === undefined || entry.experienceMax > filters.experienceMax)
    ) {
      continue;
    }
    if (
      all !== 0 &&
      ((categoryMasks.get(entry.category) ?? 0) |
        entry.cities.reduce((mask, city) => mask | (cityMasks.get(city) ?? 0), 0) |
        wordMask(q, entry.words)) !==
        all
    ) {
      continue;
    }
    const typeOk = filters.type === undefined || entry.type === filters.type;
    const categoryOk = !categories || categories.has(entry.category);
    // Any of the vacancy's cities (docs/api.md#many-places); a facet counts it under each of them.
    const cityOk = !cities || entry.cities.some((city) => cities.has(city));
    const workplaceOk = !workplaces || workplaces.has(entry.workplace);
    if (categoryOk && cityOk && workplaceOk) count('type', entry.type);
    if (typeOk && cityOk && workplaceOk) count('category', entry.category);
    if (typeOk && categoryOk && workplaceOk) for (const city of entry.cities) count('city', city);
    if (typeOk && categoryOk && cityOk) count('workplace', entry.workplace);
    if (typeOk && categoryOk && cityOk && workplaceOk) matching.push(entry);
  }

  const page = pageOf(matching, request.start, request.limit);
  const facets =
    counts.size === 0
      ? undefined
      : Object.fromEntries(
          [...counts].map(([name, values]) => [name, facetValues(name, values, request.locale)]),
        );
  return { ...page, total: matching.length, facets };
}

/** A page of the matching entries (newest first): by offset from the top, or on one side of a cursor's position. */
function pageOf(
  matching: readonly SearchEntry[],
  start: PageStart,
  limit: number,
): { page: SearchEntry[]; more: boolean } {
  if ('offset' in start) {
    return {
      page: matching.slice(start.offset, start.offset + limit),
      more: matching.length > start.offset + limit,
    };
  }
  const { direction, inclusive, position } = start.cursor;
  if (direction === 'older') {
    // The first entry at or past the position, in listing order (descending keys).
    const from = matching.findIndex((entry) => {
      const side = compareOrder(entry.order, position);
      return inclusive ? side <= 0 : side < 0;
    });
    if (from === -1) return { page: [], more: false };
    return { page: matching.slice(from, from + limit), more: matching.length > from + limit };
  }
  // Newer: the `limit` entries nearest the position on its newer side, still in listing order.
  let end = matching.findIndex((entry) => {
    const side = compareOrder(entry.order, position);
    return inclusive ? side < 0 : side <= 0;
  });
  if (end === -1) end = matching.length;
  const begin = Math.max(0, end - limit);
  return { page: matching.slice(begin, end), more: begin > 0 };
}
