/**
 * The MCP tools' calls — the MCP door of the core (docs/api.md#agents-mcp): `search_vacancies` asks the listing's
 * question and `get_vacancy` one vacancy's, answered by the same core (`domain/answers/`) as the HTTP routes — the same
 * checks, reads, filters, counts and facets. Only the door differs: arguments are JSON (integers, arrays of codes),
 * read here into the core's draft with what no JSON type could carry named, and a page is asked for by the tool's
 * cursor (`tool-cursor.ts`) rather than by a URL; a result is the answer without the HTTP envelope's status and links,
 * and a refusal the tool's error result, saying what the HTTP door's 4XX says.
 */

import {
  type FieldErrors,
  InvalidQueryError,
  VACANCY_GONE,
  VacancyNotFoundError,
} from '../../domain/answers/errors';
import { type AnswerSources, type ListingAnswer, listVacancies } from '../../domain/answers/listing';
import { type GoneVacancy, showVacancy, type VacancyAnswer } from '../../domain/answers/one-vacancy';
import { paginationFigures } from '../../domain/answers/pages';
import {
  checkListing,
  checkVacancy,
  integerOf,
  type ListingDraft,
  notAnInteger,
} from '../../domain/answers/query';
import type { Facets } from '../../domain/answers/search/in-memory-search';
import type { AuthorizedVendor } from '../../domain/keys/context';
import type { VacancyObject } from '../../domain/schema/vacancy';
import { negotiateLocale } from '../../domain/vacancy/locale';
import { mintToolCursor, readToolCursor } from './tool-cursor';

/** What a tool's call answers from: the request's vendor, language and deadline, and the function's reads. */
export interface ToolContext extends AnswerSources {
  readonly vendor: AuthorizedVendor;
  /** The HTTP request's `Accept-Language`: a tool answers in the language the listing would. */
  readonly acceptLanguage: string | undefined;
  readonly now: Date;
  readonly signal?: AbortSignal;
}

/** How an argument is read: a JSON integer, a string, or an array of codes. */
type ArgumentKind = 'integer' | 'string' | 'codes';

/** `search_vacancies`' arguments, each the listing's query parameter of the same name (and the tool's cursor). */
export const SEARCH_ARGUMENTS = {
  q: 'string',
  category: 'codes',
  city: 'codes',
  type: 'integer',
  experience_min: 'integer',
  experience_max: 'integer',
  workplace: 'codes',
  facets: 'codes',
  page: 'integer',
  per_page: 'integer',
  lang: 'string',
  include: 'codes',
} as const satisfies Record<string, ArgumentKind>;

/** `get_vacancy`'s arguments but its id, each the one-vacancy route's query parameter of the same name. */
export const VACANCY_ARGUMENTS = {
  lang: 'string',
  include: 'codes',
} as const satisfies Record<string, ArgumentKind>;

/** The arguments of a call, as the SDK hands them over (only the names the tool's schema declares). */
export type ToolArguments = Readonly<Record<string, unknown>>;

/** What a tool's result says of the page: the listing's pagination, with the next page's cursor instead of links. */
export interface ToolPagination {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  cursor: string | null;
}

/** `search_vacancies`' structured result: the listing's answer but its status. */
export interface SearchResult {
  company: string;
  data: VacancyObject[];
  pagination: ToolPagination;
  facets?: Facets;
}

/** `get_vacancy`'s structured result: the one-vacancy route's answer but its status. */
export interface VacancyToolResult {
  company: string;
  data: VacancyObject;
}

/** What a tool's error result says: the message of the HTTP door's 4XX, its `errors`, a closed vacancy's `closed_at`. */
export interface ToolRefusal {
  readonly message: string;
  readonly errors?: FieldErrors;
  readonly closed_at?: string;
}

/**
 * A call's arguments read into the core's draft — a map without a prototype, keyed by names the client chose — and
 * what is wrong with those whose JSON type no question takes (a string for a list, an array for a word …). An integer
 * is one whose JSON is ASCII digits, as a query string's: anything else is refused with the listing's own message.
 * `null` and `''` are an absent argument, as an empty value is an absent parameter; so is an empty array.
 */
function draftOf(
  args: ToolArguments,
  kinds: Readonly<Record<string, ArgumentKind>>,
): { draft: Record<string, unknown>; refused: FieldErrors } {
  const draft: Record<string, unknown> = Object.create(null);
  const refused: FieldErrors = Object.create(null);
  for (const [name, kind] of Object.entries(kinds)) {
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    if (value === undefined || value === null || value === '') continue;
    if (kind === 'integer') {
      const number = typeof value === 'number' ? integerOf(String(value)) : undefined;
      if (number === undefined) refused[name] = [notAnInteger(name as keyof typeof SEARCH_ARGUMENTS)];
      else draft[name] = number;
    } else if (kind === 'string') {
      if (typeof value === 'string') draft[name] = value;
      else refused[name] = [`The ${name} must be a string.`];
    } else if (
      Array.isArray(value) &&
      value.every((code) => typeof code === 'string' && !code.includes(','))
    ) {
      // As a query string's list: `[]` and `['']` are no list at all.
      const joined = value.join(',');
      if (joined !== '') draft[name] = joined.split(',');
    } else {
      refused[name] = [`The ${name} must be an array of codes.`];
    }
  }
  return { draft, refused };
}

/** The language of a call's answer: its `lang`, else the HTTP request's `Accept-Language`, else the default. */
const localeOf = (context: ToolContext, lang: Parameters<typeof negotiateLocale>[0]) =>
  negotiateLocale(lang, context.acceptLanguage, context.settings.defaultLocale);

/** What a call is asked with: the vendor's company, the language, the time and the deadline. */
const askedOf = (context: ToolContext, lang: Parameters<typeof negotiateLocale>[0]) => ({
  company: context.vendor.company,
  locale: localeOf(context, lang),
  now: context.now,
  ...(context.signal && { signal: context.signal }),
});

/**
 * `search_vacancies`: the listing's answer to the call's arguments — a page, its total and facets — with the
 * pagination's links replaced by the next page's cursor; or the core's refusal (`toolRefusal`), or a failure of the
 * reads. The core's answer comes with it, for the function's log line and metrics.
 */
export async function searchVacancies(
  args: ToolArguments,
  context: ToolContext,
): Promise<{ result: SearchResult; served: ListingAnswer }> {
  const { vendorId } = context.vendor;
  const { draft, refused } = draftOf(args, SEARCH_ARGUMENTS);
  const token = Object.hasOwn(args, 'cursor') ? args.cursor : undefined;
  if (token !== undefined && token !== null && token !== '') {
    const link = typeof token === 'string' ? readToolCursor(vendorId, token) : undefined;
    if (!link) refused.cursor = ['The cursor is invalid.'];
    else {
      draft.page = link.page;
      if (link.cursor !== undefined) draft.cursor = link.cursor;
    }
  }
  const query = checkListing(vendorId, draft as ListingDraft, refused);
  // Never unchanged: a call holds no earlier answer.
  const answer = (await listVacancies(query, askedOf(context, query.lang), context)) as ListingAnswer;
  return {
    result: {
      company: answer.company,
      data: answer.vacancies,
      pagination: {
        ...paginationFigures(answer),
        cursor: answer.next && mintToolCursor(vendorId, answer.next),
      },
      ...(answer.facets && { facets: answer.facets }),
    },
    served: answer,
  };
}

/**
 * `get_vacancy`: the one-vacancy route's answer to the call's `id`, `lang` and `include` — the vacancy, or that it is
 * gone (with `closed_at`, as the route's 410); or the core's refusal, or a failure of the read.
 */
export async function getVacancy(
  args: ToolArguments,
  context: ToolContext,
): Promise<
  | { result: VacancyToolResult; served: VacancyAnswer }
  | {
      result: undefined;
      served: GoneVacancy;
    }
> {
  const { draft, refused } = draftOf(args, VACANCY_ARGUMENTS);
  const id = Object.hasOwn(args, 'id') ? args.id : undefined;
  if (typeof id !== 'number') refused.id = ['The id must be an integer.'];
  const query = checkVacancy(context.vendor.vendorId, Number(id), draft, refused);
  const answer = await showVacancy(query, askedOf(context, query.lang), context);
  if ('gone' in answer) return { result: undefined, served: answer };
  return { result: { company: answer.company, data: answer.object }, served: answer };
}

/**
 * What a tool's error result says of the core's refusal — invalid arguments naming each, a vacancy not found — as the
 * HTTP door's 422 and 404 say it; undefined for any other failure, which is the HTTP request's.
 */
export function toolRefusal(error: unknown): ToolRefusal | undefined {
  if (error instanceof InvalidQueryError) return { message: error.message, errors: error.fields };
  if (error instanceof VacancyNotFoundError) return { message: error.message };
  return undefined;
}

/** What a tool's error result says of a vacancy no longer open (the HTTP door's 410). */
export const goneRefusal = (closedAt: string): ToolRefusal => ({
  message: VACANCY_GONE,
  closed_at: closedAt,
});
