/**
 * The links of the vacancies routes' answers (docs/api.md#pagination): absolute URLs of the listing's route that carry
 * the question's parameters in their canonical form, then `page` and the link's `cursor` — a page's `next_page_url` and
 * `prev_page_url`, and a sync's `next_sync_url`. Their base is the deployment's public base URL, else API Gateway's own
 * domain and the request's path; nothing the client sends decides it.
 */
import type { PageLink } from '../../domain/answers/pages';
import type { ListingQuery, SyncQuery } from '../../domain/answers/query';
import { LISTING_PATH } from '../../domain/service/routes';
import { formatRfc3339 } from '../../platform/time/rfc3339';

/**
 * The builder of a page's URLs: the absolute URL of the route with every recognised parameter the request gave
 * (normalised: `007` becomes `7`, `EN` becomes `en`, codes once each in the dictionary's order, `q` trimmed with single
 * spaces), then `page`, then the link's `cursor` if any.
 */
export function pageUrlBuilder(
  routeUrl: string,
  query: ListingQuery | SyncQuery,
): (link: PageLink) => string {
  const listing = 'filters' in query ? query : undefined;
  const carried: [string, string | number | undefined][] = [
    ['type', listing?.filters.type],
    ['experience_min', listing?.filters.experienceMin],
    ['experience_max', listing?.filters.experienceMax],
    ['category', listing?.search?.category?.join(',')],
    ['city', listing?.search?.city?.join(',')],
    ['workplace', listing?.search?.workplace?.join(',')],
    ['q', listing?.search?.q?.text],
    ['facets', listing?.search?.facets?.join(',')],
    ['include', query.include?.join(',')],
    ['per_page', query.perPage],
    ['lang', query.lang],
    ['updated_since', 'since' in query ? formatRfc3339(query.since) : undefined],
  ];
  const parameters = new URLSearchParams();
  for (const [name, value] of carried) if (value !== undefined) parameters.set(name, String(value));
  return ({ page, cursor }) => {
    const link = new URLSearchParams(parameters);
    link.set('page', String(page));
    if (cursor !== undefined) link.set('cursor', cursor);
    return `${routeUrl}?${link}`;
  };
}

/**
 * A sync's `next_sync_url` (docs/api.md#incremental-sync): the route with the request's `include`, `per_page` and
 * `lang`, and `updated_since` at the walk's snapshot time; no cursor.
 */
export function nextSyncUrl(routeUrl: string, query: SyncQuery, snapshot: number): string {
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
