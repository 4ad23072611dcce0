/**
 * What the listing's one flow (`listing.ts`) reads its page from: a source of entries — the active index
 * (`active-index-source.ts`) or, with search's fields, the vendor's search entries in memory (`search-source.ts`) —
 * the walk both read, and the rule both trust the vendor's summary by.
 */

import type { VacancyPage } from '../reads/repository';
import type { VacancyFilters } from '../schema/active-index';
import { isCurrent, type Summary } from '../schema/summary';
import type { Locale } from '../schema/vacancy';
import { INDEX_SETTLE_MS } from '../settings/recovery-waits';
import type { PageStart } from './cursor';
import type { SearchFilters } from './query';
import type { Facets } from './search/in-memory-search';

/** The one page a listing reads, and what it is read by: the vendor, the filters, where the page starts, today. */
export interface ListingWalk {
  readonly vendorId: string;
  readonly filters: VacancyFilters;
  readonly search?: SearchFilters | undefined;
  readonly start: PageStart;
  readonly limit: number;
  /** Today, `YYYY-MM-DD` in the service zone: an entry whose deadline is earlier is not listed. */
  readonly today: string;
  /** The facets' labels are in it. */
  readonly locale: Locale;
  readonly now: Date;
  /** The request's deadline for DynamoDB. */
  readonly signal?: AbortSignal | undefined;
}

/** What a source found for one listing: its page, `total`, the facets asked for, and the summary that proves them. */
export interface ListingFound {
  readonly page: VacancyPage;
  readonly total: number;
  readonly facets?: Facets | undefined;
  /** The vendor's summary, current before what the page shows was read; undefined when none was. */
  readonly summary: Summary | undefined;
}

/** A source of a listing's entries (docs/design.md#how-a-listing-reads, #search). */
export interface ListingSource {
  /** Whether the vendor's summary is read before anything else, whether or not the client holds an answer. */
  readonly summaryFirst: boolean;
  /**
   * With a current summary read first: `total` as the source knows it without another read — what lets a client
   * that holds the answer be told so on that one read — or undefined when it would have to read.
   */
  knownTotal(summary: Summary): (() => number) | undefined;
  /** The page and what proves it, given the current summary read first (if any). */
  find(before: Summary | undefined): Promise<ListingFound>;
}

/**
 * The summary when it is provably current for this walk (docs/design.md#the-summary): settled, as of its time and day;
 * otherwise undefined, and nothing is taken from it.
 */
export const currentSummary = (summary: Summary | undefined, walk: ListingWalk): Summary | undefined =>
  summary !== undefined && isCurrent(summary, walk.now.getTime(), walk.today, INDEX_SETTLE_MS)
    ? summary
    : undefined;
