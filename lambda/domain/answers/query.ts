/**
 * The questions the core answers (docs/api.md#query-parameters), typed, and their checks: a door reads its own
 * representation — a query string, a tool's JSON arguments — into a draft of plain values, names what it could not
 * read, and the check here applies every rule of the API to the rest, once, with the contract's messages: the limits,
 * the codes, `q`'s words, the facets, `include`, and a cursor against the walk it belongs to. What comes out is a
 * question the core can answer without checking anything again; what does not is an `InvalidQueryError` naming every
 * invalid field in the API's order.
 */

import type { VacancyFilters } from '../schema/active-index';
import { searchWords } from '../schema/search-words';
import { type Locale, VACANCY_TYPES, type VacancyType, WORKPLACES, type Workplace } from '../schema/vacancy';
import { PER_PAGE_LIMITS } from '../service/limits';
import { DICTIONARY } from '../vacancy/dictionary';
import { isLocale } from '../vacancy/locale';
import { INCLUDE_NAMES, type IncludeName } from '../vacancy/pay-and-place';
import {
  type CursorBinding,
  cursorShaped,
  decodeCursor,
  decodeSyncCursor,
  type ListingCursor,
  type SyncCursor,
} from './cursor';
import { type FieldErrors, type FieldName, InvalidQueryError } from './errors';

/** The facets a listing can count (docs/api.md#search-filters-and-facets), in the order an answer lists them. */
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

/** The questions' limits (docs/api.md#query-parameters). */
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

/** The fields of search (docs/api.md#search-filters-and-facets): none goes with a sync. */
export const SEARCH_FIELDS = [...CODE_FILTERS, 'q', 'facets'] as const;

/** The fields only the listing has (a sync refuses them): its filters and search's. */
export const LISTING_ONLY_FIELDS = ['type', 'experience_min', 'experience_max', ...SEARCH_FIELDS] as const;

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

/** Whether a listing asks for any of search's fields: then it is answered from the search index. */
export const isSearch = (search: SearchFilters | undefined): search is SearchFilters =>
  search !== undefined && Object.keys(search).length > 0;

/**
 * The binding of a listing's walk: its filters — and search's, when given (`q` by its folded words: `Müh` and `muh`
 * are one filter); a walk without them is bound as before search existed, so its cursors stay valid. Not `include`:
 * what a vacancy object shows is not where a walk is.
 */
export function listingBinding(
  vendorId: string,
  filters: VacancyFilters,
  search?: SearchFilters,
): CursorBinding {
  const { type, experienceMin, experienceMax } = filters;
  const walk = `list|${type ?? ''}|${experienceMin ?? ''}|${experienceMax ?? ''}`;
  if (!isSearch(search)) return { vendorId, walk };
  const { category = [], city = [], workplace, q, facets = [] } = search;
  // JSON keeps the parts apart whatever the words hold; a walk without `workplace` is bound as before it existed.
  const searched = JSON.stringify([
    category,
    city,
    q?.words ?? [],
    facets,
    ...(workplace ? [workplace] : []),
  ]);
  return { vendorId, walk: `${walk}|${searched}` };
}

/** The binding of a sync's walk: its `updated_since` (ms). */
export const syncBinding = (vendorId: string, since: number): CursorBinding => ({
  vendorId,
  walk: `sync|${since}`,
});

/** What the fields of a question are before they are checked: plain values, as a door read them. */
export interface ListingDraft {
  readonly type?: number;
  readonly experience_min?: number;
  readonly experience_max?: number;
  readonly per_page?: number;
  readonly page?: number;
  readonly lang?: string;
  readonly category?: readonly string[];
  readonly city?: readonly string[];
  readonly workplace?: readonly string[];
  readonly q?: string;
  readonly facets?: readonly string[];
  readonly include?: readonly string[];
  readonly cursor?: string;
}

/** A sync's draft: what it shares with the listing's. */
export type SyncDraft = Pick<ListingDraft, 'per_page' | 'page' | 'lang' | 'include' | 'cursor'>;

/** One vacancy's draft (docs/api.md#one-vacancy): its language and what it includes. */
export type VacancyDraft = Pick<ListingDraft, 'lang' | 'include'>;

/** What every question has once checked: its vendor, the language it gave, and what its vacancies include. */
interface Checked {
  readonly vendorId: string;
  /** `lang` as given (normalised), or none: then the door's other signals and the default decide. */
  readonly lang?: Locale;
  /** What the vacancy objects include besides their 15 fields (docs/api.md#pay-and-place), once each, in order. */
  readonly include?: readonly IncludeName[];
}

/** A checked listing (docs/api.md#the-listing). */
export interface ListingQuery extends Checked {
  readonly filters: VacancyFilters;
  /** Search, filters by code and facets; absent when none was given. */
  readonly search?: SearchFilters;
  readonly page: number;
  /** Absent when none was given: the deployment's default applies. */
  readonly perPage?: number;
  /** The cursor given, as given and as the position it holds in this walk. */
  readonly cursor?: { readonly text: string; readonly at: ListingCursor };
}

/** A checked sync (docs/api.md#incremental-sync). */
export interface SyncQuery extends Checked {
  /** `updated_since` (ms). */
  readonly since: number;
  readonly page: number;
  readonly perPage?: number;
  readonly cursor?: { readonly text: string; readonly at: SyncCursor };
}

/** A checked question of one vacancy. */
export type VacancyQuery = Checked & { readonly id: number };

/** The message of an integer field's value that is not one — `type`'s says what it must be, whatever it is. */
export const notAnInteger = (name: FieldName) =>
  name === 'type' ? TYPE_MESSAGE : `The ${name} must be an integer.`;

const TYPE_MESSAGE = `The type must be one of ${VACANCY_TYPES.join(', ')}.`;

/** An integer as a text writes one: ASCII decimal digits only — no sign, no blank, no exponent, no fraction. */
export function integerOf(text: string): number | undefined {
  return /^[0-9]+$/.test(text) ? Number(text) : undefined;
}

/** The check of a draft: the errors found so far (the door's first), and each rule's verdict on one field. */
class Checker {
  readonly errors: FieldErrors = Object.create(null);

  constructor(refused: FieldErrors) {
    for (const [name, messages] of Object.entries(refused)) this.errors[name] = messages;
  }

  /** Whether a field is already refused (by the door, or by an earlier rule). */
  refused = (name: FieldName) => Object.hasOwn(this.errors, name);

  fail = (name: FieldName, message: string): undefined => {
    this.errors[name] = [message];
    return undefined;
  };

  /** A field's value, unless the door could not read it. */
  given<T>(name: FieldName, value: T | undefined): T | undefined {
    return value === undefined || this.refused(name) ? undefined : value;
  }

  between(
    name: FieldName,
    value: number | undefined,
    limits: { min: number; max: number },
    message?: string,
  ) {
    const number = this.given(name, value);
    if (number === undefined) return undefined;
    if (number < limits.min || number > limits.max)
      return this.fail(name, message ?? `The ${name} must be between ${limits.min} and ${limits.max}.`);
    return number;
  }

  lang(value: string | undefined): Locale | undefined {
    const lang = this.given('lang', value)?.toLowerCase();
    if (lang === undefined) return undefined;
    return isLocale(lang) ? lang : this.fail('lang', 'The lang must be one of az, en.');
  }

  /** `include`: one or more of `INCLUDE_NAMES`, once each, in their order. */
  include(value: readonly string[] | undefined): readonly IncludeName[] | undefined {
    const asked = this.given('include', value);
    if (asked === undefined) return undefined;
    if (!asked.every((name) => (INCLUDE_NAMES as readonly string[]).includes(name))) {
      return this.fail('include', `The include must be one or more of: ${INCLUDE_NAMES.join(', ')}.`);
    }
    return INCLUDE_NAMES.filter((name) => asked.includes(name));
  }

  /** A list of codes: each one of `codes`, at most `LIMITS.codes.max` entries; once each, in `codes`' order. */
  codes(name: CodeFilter, value: readonly string[] | undefined): string[] | undefined {
    const entries = this.given(name, value);
    if (entries === undefined) return undefined;
    const codes: readonly string[] = FILTER_CODES[name];
    if (entries.length > LIMITS.codes.max) {
      return this.fail(name, `The ${name} must have at most ${LIMITS.codes.max} entries.`);
    }
    if (!entries.every((entry) => codes.includes(entry))) {
      return this.fail(name, `The ${name} must be one or more of: ${codes.join(', ')}.`);
    }
    return codes.filter((code) => entries.includes(code));
  }

  /**
   * `q`: 1–100 characters (code points) once its ends are trimmed — the blanks inside count as sent — with a letter
   * or digit, at most 10 words; its canonical form has each run of blanks as one space.
   */
  q(value: string | undefined): SearchFilters['q'] {
    const given = this.given('q', value);
    if (given === undefined) return undefined;
    const trimmed = given.trim();
    const { min, max, words: most } = LIMITS.q;
    if ([...trimmed].length > max)
      return this.fail('q', `The q must be between ${min} and ${max} characters.`);
    const text = trimmed.replace(/\s+/gu, ' ');
    const words = searchWords(text);
    if (words.length === 0) return this.fail('q', 'The q must contain a letter or a digit.');
    if (words.length > most) return this.fail('q', `The q must have at most ${most} words.`);
    return { text, words };
  }

  facets(value: readonly string[] | undefined): readonly FacetName[] | undefined {
    const asked = this.given('facets', value);
    if (asked === undefined) return undefined;
    if (asked.every((name) => (FACET_NAMES as readonly string[]).includes(name))) {
      return FACET_NAMES.filter((name) => asked.includes(name));
    }
    return this.fail('facets', `The facets must be one or more of: ${FACET_NAMES.join(', ')}.`);
  }

  /**
   * A cursor, checked against the walk it is given for once that walk is known (`decode`, when its parameters are
   * valid); before then only its shape can be: one that could be no walk's is named all the same.
   */
  cursor<T>(value: string | undefined, decode: ((text: string) => T | undefined) | undefined) {
    const text = this.given('cursor', value);
    if (text === undefined) return undefined;
    const at = decode ? decode(text) : undefined;
    if (decode ? at === undefined : !cursorShaped(text)) return this.fail('cursor', 'The cursor is invalid.');
    return at === undefined ? undefined : { text, at };
  }

  /** What every question checks alike: its page, `per_page`, `lang` and `include`, for its vendor. */
  common(vendorId: string, draft: SyncDraft) {
    const perPage = this.between('per_page', draft.per_page, LIMITS.perPage);
    const page = this.between('page', draft.page, LIMITS.page);
    const lang = this.lang(draft.lang);
    const include = this.include(draft.include);
    return {
      vendorId,
      page: page ?? 1,
      ...(perPage !== undefined && { perPage }),
      ...(lang && { lang }),
      ...(include && { include }),
    };
  }

  /** The question, or every invalid field at once. */
  done<T>(question: T): T {
    if (Object.keys(this.errors).length > 0) throw new InvalidQueryError(this.errors);
    return question;
  }
}

/**
 * A listing's question, checked (docs/api.md#query-parameters, #search-filters-and-facets): every field's rule, and
 * the cursor against the walk its filters make.
 */
export function checkListing(vendorId: string, draft: ListingDraft, refused: FieldErrors = {}): ListingQuery {
  const check = new Checker(refused);
  const type = check.between('type', draft.type, LIMITS.type, TYPE_MESSAGE) as VacancyType | undefined;
  const experienceMin = check.between('experience_min', draft.experience_min, LIMITS.experience);
  const experienceMax = check.between('experience_max', draft.experience_max, LIMITS.experience);
  if (experienceMin !== undefined && experienceMax !== undefined && experienceMax < experienceMin) {
    check.fail('experience_max', 'The experience_max must be greater than or equal to experience_min.');
  }
  const common = check.common(vendorId, draft);
  const search: { -readonly [K in keyof SearchFilters]: SearchFilters[K] } = {};
  for (const name of CODE_FILTERS) {
    const codes = check.codes(name, draft[name]);
    if (codes) search[name] = codes as Workplace[];
  }
  const q = check.q(draft.q);
  if (q) search.q = q;
  const facets = check.facets(draft.facets);
  if (facets) search.facets = facets;
  const filters: VacancyFilters = {
    ...(type !== undefined && { type }),
    ...(experienceMin !== undefined && { experienceMin }),
    ...(experienceMax !== undefined && { experienceMax }),
  };
  // The walk a cursor belongs to is known once the filters, search's too, are valid.
  const walkKnown = LISTING_ONLY_FIELDS.every((name) => !check.refused(name));
  const binding = listingBinding(vendorId, filters, search);
  const cursor = check.cursor(draft.cursor, walkKnown ? (text) => decodeCursor(text, binding) : undefined);
  return check.done({ ...common, filters, ...(isSearch(search) && { search }), ...(cursor && { cursor }) });
}

/**
 * A sync's question, checked (docs/api.md#incremental-sync): `since` is `updated_since` as the door read it (undefined
 * when it could not), which its cursor belongs to.
 */
export function checkSync(
  vendorId: string,
  since: number | undefined,
  draft: SyncDraft,
  refused: FieldErrors = {},
): SyncQuery {
  const check = new Checker(refused);
  const common = check.common(vendorId, draft);
  const binding = since === undefined ? undefined : syncBinding(vendorId, since);
  const cursor = check.cursor(draft.cursor, binding && ((text) => decodeSyncCursor(text, binding)));
  return check.done({ ...common, since: since ?? 0, ...(cursor && { cursor }) });
}

/** One vacancy's question, checked: its language and what it includes; the id is the door's to read. */
export function checkVacancy(
  vendorId: string,
  id: number,
  draft: VacancyDraft,
  refused: FieldErrors = {},
): VacancyQuery {
  const check = new Checker(refused);
  const lang = check.lang(draft.lang);
  const include = check.include(draft.include);
  return check.done({ vendorId, id, ...(lang && { lang }), ...(include && { include }) });
}
