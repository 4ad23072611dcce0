/**
 * The query string of the vacancies routes (docs/api.md#query-parameters), read as the HTTP door reads it: every
 * value of every name as API Gateway hands them over, an empty value as absent, a name given twice as invalid,
 * unknown names ignored, integers as ASCII digits, lists comma-separated — and `updated_since`, which makes the
 * listing's route a sync (docs/api.md#incremental-sync) and refuses the listing's own filters beside it. What it
 * reads goes to the core's checks (`domain/answers/query.ts`) with what it could not, so one 422 names every invalid
 * parameter, in the API's order.
 */

import { FIELD_ORDER, type FieldErrors, VacancyNotFoundError } from '../../domain/answers/errors';
import {
  checkListing,
  checkSync,
  checkVacancy,
  integerOf,
  LISTING_ONLY_FIELDS,
  type ListingDraft,
  type ListingQuery,
  notAnInteger,
  type SyncQuery,
  type VacancyQuery,
} from '../../domain/answers/query';
import { parseRfc3339 } from '../../platform/time/rfc3339';

/** Query parameters as API Gateway (REST, v1 event) hands them over: decoded, every value of every name. */
export type MultiValueParameters = Readonly<Record<string, readonly string[] | undefined>> | null | undefined;

/** The parameters the vacancies routes recognise (every field of a question but a tool's `id`); others are ignored. */
export const RECOGNISED_PARAMETERS = FIELD_ORDER.filter((name) => name !== 'id');
type ParameterName = (typeof RECOGNISED_PARAMETERS)[number];

const UPDATED_SINCE_MESSAGE =
  'The updated_since must be an RFC 3339 date-time with a time zone, such as 2026-11-23T10:15:30Z.';

/** The values a request gives a name (own names only: they are the client's, and `toString` must not find Object's). */
const valuesOf = (parameters: MultiValueParameters, name: string): readonly string[] =>
  (parameters && Object.hasOwn(parameters, name) ? parameters[name] : undefined) ?? [];

/**
 * Whether the request gives a parameter a value (an empty one is no value). `updated_since` given makes a request a
 * sync, whether or not its value is valid.
 */
export const givesValue = (parameters: MultiValueParameters, name: ParameterName): boolean =>
  valuesOf(parameters, name).some((value) => value !== '');

/** The reading of a query string: the draft of what could be read, and what could not, with why. */
class Reading {
  readonly refused: FieldErrors = Object.create(null);

  constructor(private readonly parameters: MultiValueParameters) {}

  /** A parameter's one value; absent when empty; refused when given more than once. */
  text(name: ParameterName): string | undefined {
    const values = valuesOf(this.parameters, name);
    if (values.length > 1) {
      this.refused[name] = [`The ${name} must not be given more than once.`];
      return undefined;
    }
    return values[0] === '' ? undefined : values[0];
  }

  integer(name: ParameterName): number | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    const number = integerOf(text);
    if (number === undefined) this.refused[name] = [notAnInteger(name)];
    return number;
  }

  list(name: ParameterName): string[] | undefined {
    return this.text(name)?.split(',');
  }

  /** The draft of a listing's question: each parameter as a value, or refused. */
  listing(): ListingDraft {
    const draft = {
      type: this.integer('type'),
      experience_min: this.integer('experience_min'),
      experience_max: this.integer('experience_max'),
      per_page: this.integer('per_page'),
      page: this.integer('page'),
      lang: this.text('lang'),
      category: this.list('category'),
      city: this.list('city'),
      workplace: this.list('workplace'),
      q: this.text('q'),
      facets: this.list('facets'),
      include: this.list('include'),
      cursor: this.text('cursor'),
    };
    return Object.fromEntries(Object.entries(draft).filter(([, value]) => value !== undefined));
  }
}

/**
 * The question of `GET /vendor/vacancies`: the listing's, or — with `updated_since` — a sync's, read and checked.
 * Throws `InvalidQueryError` naming every invalid parameter.
 */
export function readVacanciesQuery(
  vendorId: string,
  parameters: MultiValueParameters,
):
  | { readonly kind: 'listing'; readonly query: ListingQuery }
  | { readonly kind: 'sync'; readonly query: SyncQuery } {
  const reading = new Reading(parameters);
  const draft = reading.listing();
  if (!givesValue(parameters, 'updated_since')) {
    return { kind: 'listing', query: checkListing(vendorId, draft, reading.refused) };
  }
  const text = reading.text('updated_since');
  const since = text === undefined ? undefined : parseRfc3339(text);
  if (text !== undefined && since === undefined) reading.refused.updated_since = [UPDATED_SINCE_MESSAGE];
  // A sync (docs/api.md#incremental-sync): the listing's filters, and a page without a cursor, do not go with it.
  for (const name of LISTING_ONLY_FIELDS) {
    if (givesValue(parameters, name))
      reading.refused[name] = [`The ${name} cannot be combined with updated_since.`];
  }
  if (givesValue(parameters, 'page') && !givesValue(parameters, 'cursor')) {
    reading.refused.page = ['The page cannot be combined with updated_since.'];
  }
  return { kind: 'sync', query: checkSync(vendorId, since, draft, reading.refused) };
}

/** `{id}` in its canonical decimal form, 1 to 2^53 − 1: digits, no sign, no leading zero. */
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/** The id of a path segment, or undefined when it is not one in its canonical form. */
export function parseVacancyId(segment: string): number | undefined {
  if (!CANONICAL_ID.test(segment)) return undefined;
  const id = Number(segment);
  return id <= Number.MAX_SAFE_INTEGER ? id : undefined;
}

/**
 * The question of `GET /vendor/vacancies/{id}`: `lang` and `include` as the listing reads them (an invalid or repeated
 * one is a 422, whatever the id), the rest ignored; then the id, whose every other form is the vacancy not found.
 */
export function readVacancyQuery(
  vendorId: string,
  segment: string,
  parameters: MultiValueParameters,
): VacancyQuery {
  const reading = new Reading(parameters);
  const lang = reading.text('lang');
  const include = reading.list('include');
  const query = checkVacancy(
    vendorId,
    0,
    { ...(lang !== undefined && { lang }), ...(include !== undefined && { include }) },
    reading.refused,
  );
  const id = parseVacancyId(segment);
  if (id === undefined) throw new VacancyNotFoundError();
  return { ...query, id };
}
