/**
 * The MCP tools' calls as the listing's requests, and its answers as the tools' results (docs/api.md#agents-mcp):
 * `search_vacancies` is `GET /vendor/vacancies` and `get_vacancy` is `GET /vendor/vacancies/{id}`, answered by the
 * same code (`domain/listing/`) — the same validation, reads, filters, counts and facets. Only the envelope differs:
 * arguments are JSON (integers, arrays of codes) rather than a query string, and a page is asked for by the cursor a
 * result hands out rather than by a URL.
 */
import type { AuthorizedVendor } from '../../domain/keys/context';
import { answerVacancies } from '../../domain/answers/answer';
import {
  type GoneVacancyResult,
  showVacancy,
  type VacancyResult,
} from '../../domain/answers/one-vacancy';
import { type MultiValueParameters, RECOGNISED_PARAMETERS } from '../../domain/answers/query';
import {
  type NotModifiedResult,
  resolveRequest,
  type VacanciesResult,
  type VacanciesSettings,
} from '../../domain/answers/request';
import type { Facets, ListingResponse } from '../vacancies/bodies';
import type { HeldEntries } from '../../domain/answers/search/held-entries';
import type { VacancyRepository } from '../../domain/reads/repository';
import type { VacancyObject } from '../../domain/schema/vacancy';
import { type FieldErrors, HttpError, invalidInput } from '../../platform/http/errors';

/** What a tool's call answers from: the request's vendor, headers and deadline, and the function's reads. */
export interface ToolContext {
  readonly vendor: AuthorizedVendor;
  /** The HTTP request's `Accept-Language`: a tool answers in the language the listing would. */
  readonly acceptLanguage: string | undefined;
  readonly now: Date;
  readonly signal?: AbortSignal;
  readonly repository: VacancyRepository;
  readonly settings: VacanciesSettings;
  readonly heldEntries: HeldEntries;
}

/** How an argument becomes a query parameter: a JSON integer, a string, or an array of codes. */
type ArgumentKind = 'integer' | 'string' | 'codes';

/** `search_vacancies`' arguments, each the listing's query parameter of the same name. */
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

/**
 * A tool's cursor: the page it reads and the listing's cursor of its links (`domain/listing/request/cursor.ts`), as
 * `<page>.<cursor>` — or the page alone where the listing's link has no cursor. Opaque to clients.
 */
const TOOL_CURSOR = /^([1-9][0-9]{0,15})(?:\.([A-Za-z0-9_-]+))?$/;

/** The tool's cursor of the listing's link to the next page (its `page` and `cursor`), or null without one. */
function toolCursor(nextPageUrl: string | null): string | null {
  if (nextPageUrl === null) return null;
  const link = new URL(nextPageUrl).searchParams;
  const cursor = link.get('cursor');
  return cursor === null ? (link.get('page') ?? null) : `${link.get('page')}.${cursor}`;
}

/**
 * The query parameters of a call's arguments — in a map without a prototype, as API Gateway's are handled — and what
 * is wrong with those whose JSON type no query string could carry (a string for a list, an array for a word …). An
 * integer argument passes as its decimal form, whatever its value, and anything else as its JSON, which no integer
 * parameter accepts: the listing refuses it with its own message. `null` and `''` are an absent argument, as an empty
 * value is an absent parameter (an empty array is the empty list, absent as well).
 */
function queryParameters(
  args: ToolArguments,
  kinds: Readonly<Record<string, ArgumentKind>>,
): { parameters: Record<string, string[]>; errors: FieldErrors } {
  const parameters: Record<string, string[]> = Object.create(null);
  const errors: FieldErrors = Object.create(null);
  for (const [name, kind] of Object.entries(kinds)) {
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    // `null` or an empty string, as an empty value in a query string, means the argument is absent (whatever its kind).
    if (value === undefined || value === null || value === '') continue;
    if (kind === 'integer') {
      parameters[name] = [typeof value === 'number' ? String(value) : JSON.stringify(value)];
    } else if (kind === 'string') {
      if (typeof value === 'string') parameters[name] = [value];
      else errors[name] = [`The ${name} must be a string.`];
    } else if (
      Array.isArray(value) &&
      value.every((code) => typeof code === 'string' && !code.includes(','))
    ) {
      parameters[name] = [value.join(',')];
    } else {
      errors[name] = [`The ${name} must be an array of codes.`];
    }
  }
  return { parameters, errors };
}

/** The listing's 422 with these errors added, each parameter in the listing's order. */
function withErrors(listing: FieldErrors, more: FieldErrors): HttpError {
  const all = { ...listing, ...more };
  const names: readonly string[] = [...RECOGNISED_PARAMETERS, 'id'];
  return invalidInput(
    Object.fromEntries(names.flatMap((name) => (all[name] ? [[name, all[name] as string[]]] : []))),
  );
}

/**
 * Validates a call's parameters as the listing validates its query, when some argument had a JSON type no query
 * string carries: the 422 naming those and every parameter the listing refuses, as one answer.
 */
function refuse(context: ToolContext, parameters: MultiValueParameters, errors: FieldErrors): HttpError {
  try {
    resolveRequest(listingRequest(context, parameters), context.settings);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 422)
      return withErrors(error.details.errors ?? {}, errors);
    throw error;
  }
  return withErrors({}, errors);
}

/** The listing's request of a call (`domain/listing/request/request.ts`): no `If-None-Match`, no URL to link. */
const listingRequest = (context: ToolContext, parameters: MultiValueParameters) => ({
  vendor: context.vendor,
  parameters,
  acceptLanguage: context.acceptLanguage,
  location: { domainName: 'mcp.invalid', path: '/' },
  now: context.now,
  ...(context.signal && { signal: context.signal }),
});

/**
 * `search_vacancies`: the listing's answer to the call's arguments — a page, its total and facets — with the
 * pagination's links replaced by the next page's cursor; or the listing's `HttpError` (a 422 naming each invalid
 * argument, a 503 …). The listing's served result comes with it, for the function's log line and metrics.
 */
export async function searchVacancies(
  args: ToolArguments,
  context: ToolContext,
): Promise<{ result: SearchResult; served: VacanciesResult | NotModifiedResult }> {
  const { parameters, errors } = queryParameters(args, SEARCH_ARGUMENTS);
  const cursor = Object.hasOwn(args, 'cursor') ? args.cursor : undefined;
  if (cursor !== undefined && cursor !== null && cursor !== '') {
    const match = typeof cursor === 'string' ? TOOL_CURSOR.exec(cursor) : null;
    if (!match) errors.cursor = ['The cursor is invalid.'];
    else {
      parameters.page = [match[1] as string];
      if (match[2] !== undefined) parameters.cursor = [match[2]];
    }
  }
  if (Object.keys(errors).length > 0) throw refuse(context, parameters, errors);
  const served = await answerVacancies(
    listingRequest(context, parameters),
    context.repository,
    context.settings,
    context.heldEntries,
  );
  // Never a 304: a call has no `If-None-Match`.
  const { company, data, pagination, facets } = (served as VacanciesResult).body as ListingResponse;
  return {
    result: {
      company,
      data,
      pagination: {
        current_page: pagination.current_page,
        last_page: pagination.last_page,
        per_page: pagination.per_page,
        total: pagination.total,
        cursor: toolCursor(pagination.next_page_url),
      },
      ...(facets && { facets }),
    },
    served,
  };
}

/**
 * `get_vacancy`: the one-vacancy route's answer to the call's `id`, `lang` and `include` — the vacancy, or that it is gone (the
 * route's 410, with `closed_at`); or its `HttpError` (404, 422, 503 …).
 */
export async function getVacancy(
  args: ToolArguments,
  context: ToolContext,
): Promise<{ result: VacancyToolResult | undefined; served: VacancyResult | GoneVacancyResult }> {
  const { parameters, errors } = queryParameters(args, VACANCY_ARGUMENTS);
  const id = Object.hasOwn(args, 'id') ? args.id : undefined;
  if (typeof id !== 'number') errors.id = ['The id must be an integer.'];
  if (Object.keys(errors).length > 0) throw refuse(context, parameters, errors);
  const served = await showVacancy(
    { ...listingRequest(context, parameters), id: String(id), accept: undefined },
    context.repository,
    context.settings,
  );
  if ('gone' in served) return { result: undefined, served };
  const { company, data } = JSON.parse(served.body) as VacancyToolResult;
  return { result: { company, data }, served };
}
