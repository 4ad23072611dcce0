/** Types of the listing request and response (the vacancy itself is described in `schema/vacancy.ts`). */
import type { VacancyFilters } from '../schema/active-index';
import type { Locale, VacancyObject } from '../schema/vacancy';

/** A valid listing request's query parameters, defaults not yet applied where the request left them out. */
export interface ListingQuery {
  readonly filters: VacancyFilters;
  readonly page: number;
  /** Absent when the request gave none; the deployment's default applies. */
  readonly perPage?: number;
  /** Absent when the request gave none; `Accept-Language`, then the default locale apply. */
  readonly lang?: Locale;
  /** The `cursor` as given (checked against the vendor and the filters once they are known). */
  readonly cursor?: string;
}

/** The pagination object of the response (spec §2.3). */
export interface Pagination {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
  prev_page_url: string | null;
}

/** The success envelope (spec §2.2). */
export interface ListingResponse {
  status: 'success';
  company: string;
  data: VacancyObject[];
  pagination: Pagination;
}
