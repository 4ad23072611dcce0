/**
 * Structured log lines that the monitoring reads by their fields (docs/operating.md#top-vendors): the
 * Contributor Insights rules rank vendors by these, so their names are written here once, for the functions
 * that write them and the stack that reads them.
 */

/** The message of the line a listing logs when it is served. */
export const LISTING_SERVED = 'Listing served';

/** The fields of that line. */
export interface ListingServedLog {
  readonly vendorId: string;
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
  /** DynamoDB read units the listing consumed. */
  readonly readUnits: number;
  readonly dynamodbCalls: number;
  readonly itemsReturned: number;
  /**
   * Set on a 304 — answered from the vendor's summary, or after the page was read and its bytes matched: `total` is
   * what the body it stands for says.
   */
  readonly notModified?: true;
}

/** The message of the line the one-vacancy route logs when it answers 200 or 304 — or 410, for one no longer open. */
export const VACANCY_SERVED = 'Vacancy served';

/** The fields of that line. */
export interface VacancyServedLog {
  readonly vendorId: string;
  readonly vacancyId: number;
  /** DynamoDB read units the request consumed. */
  readonly readUnits: number;
  readonly dynamodbCalls: number;
  /** Set on a 410: the vacancy is the vendor's, and no longer open. */
  readonly gone?: true;
}
