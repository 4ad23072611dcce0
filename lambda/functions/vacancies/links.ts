import { formatRfc3339 } from '../../platform/time/rfc3339';
import { LISTING_PATH } from '../../domain/service/routes';
import type { ListingQuery } from '../../domain/answers/query';
import type { Pagination } from './bodies';

/** The parameters a page URL carries over from the request, in this order; `page` and `cursor` are set per link. */
type CarriedParameter =
  | 'type'
  | 'experience_min'
  | 'experience_max'
  | 'category'
  | 'city'
  | 'workplace'
  | 'q'
  | 'facets'
  | 'include'
  | 'per_page'
  | 'lang'
  | 'updated_since';

/** Position (from 0) of the first vacancy of a page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/** Number of pages: never 0, so that an empty listing still has page 1 as its last page. */
export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * The builder of a listing's page URLs: the absolute URL of the route with every recognised parameter the
 * request gave (normalised: `007` becomes `7`, `EN` becomes `en`, codes once each in the dictionary's order, `q`
 * trimmed with single spaces), then `page`, then the link's `cursor` if any.
 */
export function pageUrlBuilder(
  routeUrl: string,
  query: ListingQuery,
): (page: number, cursor?: string) => string {
  const carried: [CarriedParameter, string | number | undefined][] = [
    ['type', query.filters.type],
    ['experience_min', query.filters.experienceMin],
    ['experience_max', query.filters.experienceMax],
    ['category', query.search?.category?.join(',')],
    ['city', query.search?.city?.join(',')],
    ['workplace', query.search?.workplace?.join(',')],
    ['q', query.search?.q?.text],
    ['facets', query.search?.facets?.join(',')],
    ['include', query.include?.join(',')],
    ['per_page', query.perPage],
    ['lang', query.lang],
    ['updated_since', query.updatedSince === undefined ? undefined : formatRfc3339(query.updatedSince)],
  ];
  const parameters = new URLSearchParams();
  for (const [name, value] of carried) if (value !== undefined) parameters.set(name, String(value));
  return (page, cursor) => {
    const link = new URLSearchParams(parameters);
    link.set('page', String(page));
    if (cursor !== undefined) link.set('cursor', cursor);
    return `${routeUrl}?${link}`;
  };
}

/**
 * The pagination object (docs/api.md#pagination): `current_page` is the requested page even past the end; a next link
 * exists while `current_page < last_page` — or while more vacancies follow the page, which a walk by cursor needs
 * when the data changed under it — and a previous link while `current_page > 1`.
 */
export function paginate(
  total: number,
  page: number,
  perPage: number,
  links: { readonly more: boolean; readonly next: () => string; readonly prev: () => string },
): Pagination {
  const last = lastPage(total, perPage);
  return {
    current_page: page,
    last_page: last,
    per_page: perPage,
    total,
    next_page_url: page < last || links.more ? links.next() : null,
    prev_page_url: page > 1 ? links.prev() : null,
  };
}

/**
 * A sync's `next_sync_url` (docs/api.md#incremental-sync): the route with the request's `include`, `per_page` and
 * `lang`, and `updated_since` at the walk's snapshot time; no cursor.
 */
export function nextSyncUrl(routeUrl: string, query: ListingQuery, snapshot: number): string {
  const parameters = new URLSearchParams();
  if (query.include !== undefined) parameters.set('include', query.include.join(','));
  if (query.perPage !== undefined) parameters.set('per_page', String(query.perPage));
  if (query.lang !== undefined) parameters.set('lang', query.lang);
  parameters.set('updated_since', formatRfc3339(snapshot));
  return `${routeUrl}?${parameters}`;
}

/** What the route URL is built from when no public base URL is configured. */
export interface RequestLocation {
  /** `requestContext.domainName`: the API's own domain (or custom domain), set by API Gateway — never `Host`. */
  readonly domainName: string;
  /** `requestContext.path`: the path as the client sent it, stage or base path included. */
  readonly path: string;
}

/**
 * The absolute URL of the listing route: the configured public base URL (a custom domain, say; the local server
 * sets its own address) followed by the route, or else `https://` with API Gateway's domain name and the
 * request's path, so a stage prefix such as `/prod` is kept. Nothing the client sends decides it: not `Host`,
 * not `X-Forwarded-Proto` (API Gateway serves HTTPS only).
 */
export function routeUrl(publicBaseUrl: string | undefined, location: RequestLocation): string {
  if (publicBaseUrl) return `${publicBaseUrl.replace(/\/+$/, '')}${LISTING_PATH}`;
  return `https://${location.domainName}${location.path}`;
}
