/** Types of the listing's and the sync's response bodies (the vacancy itself is described in `domain/schema/vacancy.ts`). */
import type { StoredStatus, VacancyObject } from '../../domain/schema/vacancy';
import type { IncludedFields } from '../../domain/vacancy/pay-and-place';
import type { FacetName } from '../../domain/answers/query';

/** A vacancy object as an answer shows it: its 15 fields, then what `include` asked for (docs/api.md#pay-and-place). */
export type ShownVacancy = VacancyObject & IncludedFields;

/** The pagination object of the response (docs/api.md#pagination). */
export interface Pagination {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
  prev_page_url: string | null;
}

/** One value of a facet: its code (a type's is a number), its label in the response's locale, how many match. */
export interface FacetValue {
  code: string | number;
  label: string;
  count: number;
}

/** The facets asked for (docs/api.md#facets): for each, its values by count, then the dictionary's order. */
export type Facets = Partial<Record<FacetName, FacetValue[]>>;

/** The success envelope (docs/api.md#the-listing); `facets` only when asked for. */
export interface ListingResponse {
  status: 'success';
  company: string;
  data: ShownVacancy[];
  pagination: Pagination;
  facets?: Facets;
}

/** An active vacancy in a sync: the vacancy object, then its status and when it last changed, then what `include` asked for. */
export type SyncedVacancy = VacancyObject & { status: 'active'; updated_at: string } & IncludedFields;

/** A vacancy a sync reports as no longer listable: deleted, expired, or not active. */
export interface SyncTombstone {
  id: number;
  status: Exclude<StoredStatus, 'active'>;
  updated_at: string;
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
