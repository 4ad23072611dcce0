/**
 * What the listing's one flow (`listing.ts`) reads its page from: a source of entries — the active index
 * (`active-index-source.ts`) or, with search's parameters, the vendor's search entries in memory
 * (`search-source.ts`) — and the rule both trust the vendor's summary by.
 */

import type { VacancyPage } from '../reads/repository';
import { isCurrent, type Summary } from '../schema/summary';
import { INDEX_SETTLE_MS } from '../settings/recovery-waits';
import type { ListingRequest, VacanciesRequest } from './request';
import type { Facets } from '../../functions/vacancies/bodies';

/** What a source found for one request: its page, `total`, the facets asked for, and the summary that proves them. */
export interface ListingFound {
  readonly page: VacancyPage;
  readonly total: number;
  readonly facets?: Facets | undefined;
  /** The vendor's summary, current before what the page shows was read: the entity tag's; undefined when none was. */
  readonly summary: Summary | undefined;
}

/** A source of a listing's entries (docs/design.md#how-a-listing-reads, #search). */
export interface ListingSource {
  /** Whether the vendor's summary is read before anything else, poll or not. */
  readonly summaryFirst: boolean;
  /**
   * With a current summary read first: `total` as the source knows it without another read — what lets a poll be a
   * 304 on that one read — or undefined when it would have to read.
   */
  knownTotal(summary: Summary): (() => number) | undefined;
  /** The page and what proves it, given the current summary read first (if any). */
  find(before: Summary | undefined): Promise<ListingFound>;
}

/**
 * The summary when it is provably current for this request (docs/design.md#the-summary): settled, as of the
 * request's time and day; otherwise undefined, and nothing is taken from it.
 */
export const currentSummary = (
  summary: Summary | undefined,
  request: VacanciesRequest,
  listing: ListingRequest,
): Summary | undefined =>
  summary !== undefined && isCurrent(summary, request.now.getTime(), listing.today, INDEX_SETTLE_MS)
    ? summary
    : undefined;
