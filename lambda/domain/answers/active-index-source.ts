/**
 * The listing's source without search's fields (docs/design.md#how-a-listing-reads): one page of the active index
 * (from the top, an offset or a cursor) with its items, then the vendor's summary — current, it gives `total` and the
 * version; not, the index is counted.
 */

import type { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import { countMatching } from '../schema/summary';
import { currentSummary, type ListingSource, type ListingWalk } from './source';

/** The active index as a listing's source, for one walk. */
export function activeIndexSource(
  walk: ListingWalk,
  repository: VacancyRepository,
  meter: ReadMeter,
): ListingSource {
  const { vendorId, filters, today, signal } = walk;
  return {
    summaryFirst: false,
    // The summary counts what matches each filter: `total` without reading the index.
    knownTotal: (summary) => () => countMatching(summary, filters),
    async find() {
      // A DynamoDB failure propagates: each door says it (the HTTP door as the 503, or the 500 if it is not one).
      const page = meter.add(
        await repository.readPage({ vendorId, filters, today, start: walk.start, limit: walk.limit, signal }),
      );
      // Read after the page: a summary that was already current when the request came (before the page was read)
      // describes what the page saw — no writer has been at work since it settled.
      const after = meter.add(await repository.readSummary(vendorId, signal));
      const summary = currentSummary(after.summary, walk);
      if (summary) return { page, total: countMatching(summary, filters), summary };
      const counted = meter.add(await repository.countActive({ vendorId, filters, today, signal }));
      return { page, total: counted.total, summary: undefined };
    },
  };
}
