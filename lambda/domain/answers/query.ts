/**
 * The query string of `GET /vendor/vacancies` (docs/api.md#query-parameters): every parameter parsed and checked —
 * each invalid one named with its reason, for one 422 — into a `ListingQuery`; the filters by code, `q`'s folded
 * words and the facets asked for (docs/api.md#search-filters-and-facets).
 */

import type { FieldErrors } from '../../platform/http/errors';
import { parseRfc3339 } from '../../platform/time/rfc3339';
import type { VacancyFilters } from '../schema/active-index';
import { searchWords } from '../schema/search-words';
import {
  type Locale,
  VACANCY_TYPES,
  type VacancyType,
  WORKPLACES,
  type Workplace,
} from '../schema/vacancy';
import { PER_PAGE_LIMITS } from '../service/limits';
import { DICTIONARY } from '../vacancy/dictionary';
import { isLocale } from '../vacancy/locale';
import { INCLUDE_NAMES, type IncludeName } from '../vacancy/pay-and-place';

/** A valid listing request's query parameters, defaults not yet applied where the request left them out. */
export interface ListingQuery {
  readonly filters: VacancyFilters;
  /** Search, filters by code and facets (docs/api.md#search-filters-and-facets); absent when none was given. */
  readonly search?: SearchFilters;
  readonly page: number;
  /** Absent when the request gave none; the deployment's default applies. */
  readonly perPage?: number;
  /** Absent when the request gave none; `Accept-Language`, then the default locale apply. */
  readonly lang?: Locale;
  /** The `cursor` as given (checked against the vendor and the filters once they are known). */
  readonly cursor?: string;
  /** `updated_since` (ms since 1970): a sync of what changed since then (docs/api.md#incremental-sync). */
  readonly updatedSince?: number;
  /** What the vacancy objects include besides their 15 fields (docs/api.md#pay-and-place), once each, in order. */
  readonly include?: readonly IncludeName[];
}

/** The facets a listing can count (docs/api.md#search-filters-and-facets), in the order a response lists them. */
export const FACET_NAMES = ['type', 'category', 'city', 'workplace'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** The codes each coded filter accepts, in the dictionary's order (docs/api.md#dictionary). */
export const FILTER_CODES = {
  category: Object.keys(DICTIONARY.category),
  city: Object.keys(DICTIONARY.city),
  workplace: WORKPLACES as readonly Workplace[],
} as const;

/** A filter by a list of codes. */
export type CodeFilter = keyof typeof FILTER_CODES;
/** The filters by a list of codes, in the order their errors come. */
export const CODE_FILTERS = Object.keys(FILTER_CODES) as CodeFilter[];

/**
 * A listing's search, filters by code and facets (docs/api.md#search-filters-and-facets), each in its canonical form:
 * codes once each, in the dictionary's order; `q` trimmed with its blanks as single spaces, and its folded words.
 */
export interface SearchFilters {
  readonly category?: readonly string[];
  readonly city?: readonly string[];
  readonly workplace?: readonly Workplace[];
  readonly q?: { readonly text: string; readonly words: readonly string[] };
  readonly facets?: readonly FacetName[];
}

/** Whether a listing request asks for any of search's parameters: then it is answered from the search index. */
export const isSearch = (search: SearchFilters | undefined): search is SearchFilters =>
  search !== undefined && Object.keys(search).length > 0;

/** Query parameters as API Gateway (REST, v1 event) hands them over: decoded, every value of every name. */
export type MultiValueParameters = Readonly<Record<string, readonly string[] | undefined>> | null | undefined;

/**
 * The outcome of parsing: a query, or every invalid parameter with its reason — and, so that a cursor can still be
 * checked, the cursor given and the filters when they were all valid.
 */
export type ParseResult =
  | { ok: true; query: ListingQuery }
  | {
      ok: false;
      errors: FieldErrors;
      cursor?: string;
      filters?: VacancyFilters;
      search?: SearchFilters;
      sync?: true;
    };

interface Range {
  readonly min: number;
  readonly max: number;
}

/** The parameters' limits (docs/api.md#query-parameters). */
export const LIMITS = {
  type: { min: Math.min(...VACANCY_TYPES), max: Math.max(...VACANCY_TYPES) },
  perPage: PER_PAGE_LIMITS,
  experience: { min: 0, max: 100 },
  // Past the last page is allowed; beyond this a page number cannot be represented exactly in JSON.
  page: { min: 1, max: Number.MAX_SAFE_INTEGER },
  /** Entries of `category` or `city`, repeats included. */
  codes: { max: 20 },
  /** Characters of `q` once trimmed, and its words. */
  q: { min: 1, max: 100, words: 10 },
} as const;

/** The parameters of search (docs/api.md#search-filters-and-facets): none goes with `updated_since`. */
const SEARCH_PARAMETERS = [...CODE_FILTERS, 'q', 'facets'] as const;

/** The parameters the listing recognises; any other name is ignored. */
export const RECOGNISED_PARAMETERS = [
  'type',
  'experience_min',
  'experience_max',
  'per_page',
  'page',
  'lang',
  'updated_since',
  ...SEARCH_PARAMETERS,
  'include',
  'cursor',
] as const;
type ParameterName = (typeof RECOGNISED_PARAMETERS)[number];

const UPDATED_SINCE_MESSAGE =
  'The updated_since must be an RFC 3339 date-time with a time zone, such as 2026-11-23T10:15:30Z.';

// An integer is ASCII decimal digits only: no sign, no blank, no exponent, no fraction.
const DIGITS = /^[0-9]+$/;

/**
 * Whether the request gives a parameter a value (an empty one is no value; own names only: they are the client's).
 * `updated_since` given makes a request a sync, whether or not its value is valid.
 */
export function givesValue(parameters: MultiValueParameters, name: ParameterName): boolean {
  return ((parameters && Object.hasOwn(parameters, name) ? parameters[name] : undefined) ?? []).some(
    (value) => value !== '',
  );
}

/**
 * Parses and validates the listing's query parameters (docs/api.md#query-parameters): an empty value means the parameter is
 * absent, a parameter given twice is invalid, unknown parameters are ignored. Every invalid parameter is
 * reported, not only the first.
 */
export function parseListingQuery(parameters: MultiValueParameters): ParseResult {
  const errors: FieldErrors = {};
  const fail = (name: ParameterName, message: string): undefined => {
    errors[name] = [message];
    return undefined;
  };

  const given = (name: ParameterName): boolean => givesValue(parameters, name);

  const raw = (name: ParameterName): string | undefined => {
    // Own properties only: the names are the client's, and `toString` must not find Object's.
    const values = (parameters && Object.hasOwn(parameters, name) ? parameters[name] : undefined) ?? [];
    if (values.length > 1) return fail(name, `The ${name} must not be given more than once.`);
    return values[0] === '' ? undefined : values[0];
  };

  /** An integer within its limits; `notIntegerMessage` is the message for a value that is not one (when it differs). */
  const integer = (
    name: ParameterName,
    limits: Range,
    rangeMessage: string,
    notIntegerMessage = `The ${name} must be an integer.`,
  ): number | undefined => {
    const value = raw(name);
    if (value === undefined || errors[name]) return undefined;
    if (!DIGITS.test(value)) return fail(name, notIntegerMessage);
    const number = Number(value);
    return number < limits.min || number > limits.max ? fail(name, rangeMessage) : number;
  };
  const between = (name: ParameterName, limits: Range) =>
    integer(name, limits, `The ${name} must be between ${limits.min} and ${limits.max}.`);

  // `type` is one of four codes, whatever else the value is (`abc`, `+1`, `1.0`, `9`): one message for all.
  const typeMessage = `The type must be one of ${VACANCY_TYPES.join(', ')}.`;
  const type = integer('type', LIMITS.type, typeMessage, typeMessage) as VacancyType | undefined;
  const experienceMin = between('experience_min', LIMITS.experience);
  const experienceMax = between('experience_max', LIMITS.experience);
  if (experienceMin !== undefined && experienceMax !== undefined && experienceMax < experienceMin) {
    fail('experience_max', 'The experience_max must be greater than or equal to experience_min.');
  }
  const perPage = between('per_page', LIMITS.perPage);
  const page = between('page', LIMITS.page);

  let lang: Locale | undefined;
  const langValue = raw('lang')?.toLowerCase();
  if (langValue !== undefined && !errors.lang) {
    if (isLocale(langValue)) lang = langValue;
    else fail('lang', 'The lang must be one of az, en.');
  }

  // Whether the cursor is one of ours, for this vendor and these filters, is the listing's to say.
  const cursor = raw('cursor');

  // A sync (docs/api.md#incremental-sync): filters, and a page without a cursor, do not go with it.
  const updatedSinceText = raw('updated_since');
  let updatedSince: number | undefined;
  if (updatedSinceText !== undefined && !errors.updated_since) {
    updatedSince = parseRfc3339(updatedSinceText);
    if (updatedSince === undefined) fail('updated_since', UPDATED_SINCE_MESSAGE);
  }
  const search = parseSearch(raw, fail);
  const include = parseInclude(raw('include'), fail);

  if (given('updated_since')) {
    for (const name of ['type', 'experience_min', 'experience_max', ...SEARCH_PARAMETERS] as const) {
      if (given(name)) errors[name] = [`The ${name} cannot be combined with updated_since.`];
    }
    if (given('page') && !given('cursor')) errors.page = ['The page cannot be combined with updated_since.'];
  }

  const filters: VacancyFilters = {
    ...(type !== undefined && { type }),
    ...(experienceMin !== undefined && { experienceMin }),
    ...(experienceMax !== undefined && { experienceMax }),
  };
  if (Object.keys(errors).length > 0) {
    const filtersValid = !errors.type && !errors.experience_min && !errors.experience_max;
    const searchValid = SEARCH_PARAMETERS.every((name) => !errors[name]);
    return {
      ok: false,
      // In the order of the parameters, whatever order they were found in.
      errors: Object.fromEntries(
        RECOGNISED_PARAMETERS.flatMap((name) => (errors[name] ? [[name, errors[name]]] : [])),
      ),
      ...(cursor !== undefined && { cursor }),
      // The filters (search's too), when all are valid: a cursor is checked against them.
      ...(filtersValid && searchValid && { filters, ...(isSearch(search) && { search }) }),
      ...(given('updated_since') && { sync: true as const }),
    };
  }
  return {
    ok: true,
    query: {
      filters,
      ...(isSearch(search) && { search }),
      page: page ?? 1,
      ...(perPage !== undefined && { perPage }),
      ...(lang && { lang }),
      ...(cursor !== undefined && { cursor }),
      ...(updatedSince !== undefined && { updatedSince }),
      ...(include && { include }),
    },
  };
}

/** `include`: one or more of `INCLUDE_NAMES`, once each, in their order. */
function parseInclude(
  value: string | undefined,
  fail: (name: ParameterName, message: string) => undefined,
): readonly IncludeName[] | undefined {
  if (value === undefined) return undefined;
  const asked = value.split(',');
  if (!asked.every((name) => (INCLUDE_NAMES as readonly string[]).includes(name))) {
    return fail('include', `The include must be one or more of: ${INCLUDE_NAMES.join(', ')}.`);
  }
  return INCLUDE_NAMES.filter((name) => asked.includes(name));
}

/** A comma list of codes: each one of `codes`, at most `LIMITS.codes.max` entries; once each, in `codes`' order. */
function codeList(
  name: CodeFilter,
  value: string,
  fail: (name: ParameterName, message: string) => undefined,
): string[] | undefined {
  const codes: readonly string[] = FILTER_CODES[name];
  const entries = value.split(',');
  if (entries.length > LIMITS.codes.max) {
    return fail(name, `The ${name} must have at most ${LIMITS.codes.max} entries.`);
  }
  if (!entries.every((entry) => codes.includes(entry))) {
    return fail(name, `The ${name} must be one or more of: ${codes.join(', ')}.`);
  }
  return codes.filter((code) => entries.includes(code));
}

/**
 * `q`: 1–100 characters (code points) once its ends are trimmed — the blanks inside count as sent (§14) — with a
 * letter or digit, at most 10 words; its canonical form has each run of blanks as one space.
 */
function searchText(
  value: string,
  fail: (name: ParameterName, message: string) => undefined,
): SearchFilters['q'] {
  const trimmed = value.trim();
  const { min, max } = LIMITS.q;
  if ([...trimmed].length > max) return fail('q', `The q must be between ${min} and ${max} characters.`);
  const text = trimmed.replace(/\s+/gu, ' ');
  const words = searchWords(text);
  if (words.length === 0) return fail('q', 'The q must contain a letter or a digit.');
  if (words.length > LIMITS.q.words) return fail('q', `The q must have at most ${LIMITS.q.words} words.`);
  return { text, words };
}

/** The search parameters given (each valid one; an invalid one is reported through `fail`). */
function parseSearch(
  raw: (name: ParameterName) => string | undefined,
  fail: (name: ParameterName, message: string) => undefined,
): SearchFilters {
  const search: { -readonly [K in keyof SearchFilters]: SearchFilters[K] } = {};
  for (const name of CODE_FILTERS) {
    const value = raw(name);
    const codes = value === undefined ? undefined : codeList(name, value, fail);
    if (codes) search[name] = codes as Workplace[];
  }
  const text = raw('q');
  const q = text === undefined ? undefined : searchText(text, fail);
  if (q) search.q = q;
  const facets = raw('facets');
  if (facets !== undefined) {
    const asked = facets.split(',');
    if (asked.every((name) => (FACET_NAMES as readonly string[]).includes(name))) {
      search.facets = FACET_NAMES.filter((name) => asked.includes(name));
    } else fail('facets', `The facets must be one or more of: ${FACET_NAMES.join(', ')}.`);
  }
  return search;
}
