/** Types of the vacancy listing: stored items, import records, query and response shapes. */

/** Locales the service answers in. */
export type Locale = 'az' | 'en';

/** Employment type codes (spec §2.4). */
export type VacancyType = 1 | 2 | 3 | 4;

/** Stored status of a vacancy; only `active` ones (with a deadline not yet passed) are listed. */
export type VacancyStatus = 'active' | 'inactive' | 'draft' | 'closed';

/** How the salary fields are to be read. */
export type SalaryType = 'range' | 'fixed' | 'negotiable';

/** A vacancy as the import tool and the seed files take it (CONTRACT §4), once validated. */
export interface VacancyRecord {
  readonly id: number;
  readonly vendor_id: string;
  readonly status: VacancyStatus;
  readonly title: string;
  readonly url: string;
  readonly description: string;
  readonly requirements: string;
  readonly responsibilities: string;
  readonly category: string;
  readonly city: string;
  readonly type: VacancyType;
  readonly salary_type: SalaryType;
  readonly salary_min: number | null;
  readonly salary_max: number | null;
  readonly salary: number | null;
  readonly experience_min: number;
  readonly experience_max: number | null;
  /** `YYYY-MM-DD`. */
  readonly deadline: string;
  /** The instant of creation. */
  readonly created_at: Date;
}

/**
 * A vacancy item in the vacancies table. Unset salary fields and an open-ended `experience_max` are
 * absent (not stored as NULL). The short active-index attributes are added only while `status` is `active`.
 */
export interface StoredVacancy {
  readonly vendorId: string;
  readonly id: number;
  readonly status: VacancyStatus;
  readonly title: string;
  readonly url: string;
  readonly description: string;
  readonly requirements: string;
  readonly responsibilities: string;
  readonly category: string;
  readonly city: string;
  readonly type: VacancyType;
  readonly salary_type: SalaryType;
  readonly salary_min?: number;
  readonly salary_max?: number;
  readonly salary?: number;
  readonly experience_min: number;
  readonly experience_max?: number;
  readonly deadline: string;
  /** UTC instant, ISO 8601 to the second: `2026-03-01T05:30:00Z`. */
  readonly created_at: string;
}

/** The attributes of a stored vacancy that the listing reads to build a vacancy object. */
export type ListedVacancy = Pick<
  StoredVacancy,
  | 'id'
  | 'title'
  | 'url'
  | 'description'
  | 'requirements'
  | 'responsibilities'
  | 'category'
  | 'city'
  | 'type'
  | 'salary_min'
  | 'salary_max'
  | 'salary'
  | 'salary_type'
  | 'deadline'
  | 'created_at'
>;

/** A vacancy object of the response (spec §2.1): these 15 fields, in this order. */
export interface VacancyResource {
  id: number;
  title: string;
  url: string;
  description: string;
  requirements: string;
  responsibilities: string;
  category: string;
  city: string;
  type: string;
  salary_min: number | null;
  salary_max: number | null;
  salary: number | null;
  salary_type: string;
  deadline: string;
  created_at: string;
}

/** Filters of a listing request; absent means "no filter". */
export interface VacancyFilters {
  readonly type?: VacancyType;
  readonly experienceMin?: number;
  readonly experienceMax?: number;
}

/** A valid listing request's query parameters, defaults not yet applied where the request left them out. */
export interface ListingQuery {
  readonly filters: VacancyFilters;
  readonly page: number;
  /** Absent when the request gave none; the deployment's default applies. */
  readonly perPage?: number;
  /** Absent when the request gave none; `Accept-Language`, then the default locale apply. */
  readonly lang?: Locale;
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
  data: VacancyResource[];
  pagination: Pagination;
}
