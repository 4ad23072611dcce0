/**
 * The listing's source without search's parameters (docs/design.md#how-a-listing-reads): one page of the active
 * index (from the top, an offset or a cursor) with its items, then the vendor's summary — current, it gives `total`
 * and the tag; not, the index is counted.
 */

import type { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import { countMatching } from '../schema/summary';
import { pageOffset } from '../../functions/vacancies/links';
import type { ListingRequest, VacanciesRequest } from './request';
import { currentSummary, type ListingSource } from './source';

/** The active index as a listing's source, for one request. */
export function activeIndexSource(
  request: VacanciesRequest,
  listing: ListingRequest,
  repository: VacancyRepository,
  meter: ReadMeter,
): ListingSource {
  const { query, perPage, today } = listing;
  const { vendorId } = request.vendor;
  const { signal } = request;
  return {
    summaryFirst: false,
    // The summary counts what matches each filter: `total` without reading the index.
    knownTotal: (summary) => () => countMatching(summary, query.filters),
    async find() {
      // A DynamoDB failure propagates: the error middleware makes it the 503 (or, if it is not one, the 500).
      const page = meter.add(
        await repository.readPage({
          vendorId,
          filters: query.filters,
          today,
          start: listing.cursor ? { cursor: listing.cursor } : { offset: pageOffset(query.page, perPage) },
          limit: perPage,
          signal,
        }),
      );
      // Read after the page: a summary that was already current when the request came (before the page was read)
      // describes what the page saw — no writer has been at work since it settled.
      const after = meter.add(await repository.readSummary(vendorId, signal));
      const summary = currentSummary(after.summary, request, listing);
      if (summary) return { page, total: countMatching(summary, query.filters), summary };
      const counted = meter.add(
        await repository.countActive({ vendorId, filters: query.filters, today, signal }),
      );
      return { page, total: counted.total, summary: undefined };
    },
  };
}
