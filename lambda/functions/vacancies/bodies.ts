/**
 * The bodies of the vacancies routes' 200s (docs/api.md#the-listing): the core's answers in the contract's envelope
 * — `status`, `company`, `data`, and a page's `pagination` with its links as URLs (`links.ts`); a sync's with
 * `next_sync_url`.
 */
import type { ListingAnswer } from '../../domain/answers/listing';
import { type PageFigures, paginationFigures } from '../../domain/answers/pages';
import type { ListingQuery, SyncQuery } from '../../domain/answers/query';
import type { Facets } from '../../domain/answers/search/in-memory-search';
import type { SyncAnswer, SyncedVacancy, SyncTombstone } from '../../domain/answers/sync';
import type { VacancyObject } from '../../domain/schema/vacancy';
import type { ShownVacancy } from '../../domain/vacancy/presenter';
import { nextSyncUrl, pageUrlBuilder } from './links';

/** The pagination object of the response (docs/api.md#pagination). */
export interface Pagination {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
  prev_page_url: string | null;
}

/** The success envelope (docs/api.md#the-listing); `facets` only when asked for. */
export interface ListingResponse {
  status: 'success';
  company: string;
  data: ShownVacancy[];
  pagination: Pagination;
  facets?: Facets;
}

/** The pagination of a sync: the listing's, and the URL of the next sync. */
export interface SyncPagination extends Pagination {
  next_sync_url: string;
}

/** The envelope of a sync (docs/api.md#incremental-sync): the listing's, with changes for data. */
export interface SyncResponse {
  status: 'success';
  company: string;
  data: (SyncedVacancy | SyncTombstone)[];
  pagination: SyncPagination;
}

/** The body of one vacancy's 200 (docs/api.md#one-vacancy). */
export interface VacancyResponse {
  status: 'success';
  company: string;
  data: VacancyObject;
}

/** A page's body: the envelope of an answer, its data and its pagination, figures first, then the links given. */
function pageBody<D, L>(answer: PageFigures & { readonly company: string }, data: D, links: L) {
  return {
    status: 'success' as const,
    company: answer.company,
    data,
    pagination: { ...paginationFigures(answer), ...links },
  };
}

/** A listing's body: the answer in the envelope, its links under the route's URL. */
export function listingBody(answer: ListingAnswer, query: ListingQuery, routeUrl: string): ListingResponse {
  const pageUrl = pageUrlBuilder(routeUrl, query);
  return {
    ...pageBody(answer, answer.vacancies, {
      next_page_url: answer.next && pageUrl(answer.next),
      prev_page_url: answer.prev && pageUrl(answer.prev),
    }),
    ...(answer.facets && { facets: answer.facets }),
  };
}

/** A sync's body: the answer in the envelope, its next page's and next sync's URLs under the route's URL. */
export function syncBody(answer: SyncAnswer, query: SyncQuery, routeUrl: string): SyncResponse {
  return pageBody(answer, answer.changes, {
    next_page_url: answer.next && pageUrlBuilder(routeUrl, query)(answer.next),
    prev_page_url: null,
    next_sync_url: nextSyncUrl(routeUrl, query, answer.snapshot),
  });
}
