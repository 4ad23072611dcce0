/**
 * The listing's source with search, filters by code or facets (docs/api.md#search-filters-and-facets,
 * docs/design.md#search): the vendor's search entries as the function holds them — valid for one state of the
 * vendor's summary, read first on every request — or, when it holds none for that state, read once (then the summary
 * again: current as of before that read, it proves them exact, and they are held). The in-memory search finds the
 * page, `total` and facets; one BatchGetItem reads the page's items.
 */

import type { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import { dayNumber } from '../schema/active-index';
import type { Summary } from '../schema/summary';
import type { SearchFilters } from './query';
import { type HeldEntries, summaryStamp } from './search/held-entries';
import { type SearchRequest, searchEntries } from './search/in-memory-search';
import type { SearchEntry } from './search/search-entry';
import { currentSummary, type ListingSource, type ListingWalk } from './source';

/** The vendor's search entries as a listing's source, for one walk. */
export function searchSource(
  walk: ListingWalk,
  repository: VacancyRepository,
  meter: ReadMeter,
  heldEntries: HeldEntries,
): ListingSource {
  const { vendorId, signal } = walk;
  const ask = (start: SearchRequest['start']): SearchRequest => ({
    filters: walk.filters,
    search: walk.search as SearchFilters,
    today: dayNumber(walk.today),
    start,
    limit: walk.limit,
    locale: walk.locale,
  });
  // The entries held for the summary read first, looked up once.
  let lookedUp: { readonly entries: readonly SearchEntry[] | undefined } | undefined;
  const heldFor = (summary: Summary | undefined) => {
    lookedUp ??= { entries: summary && heldEntries.get(vendorId, summaryStamp(summary)) };
    return lookedUp.entries;
  };
  return {
    summaryFirst: true,
    knownTotal(summary) {
      const entries = heldFor(summary);
      return entries && (() => searchEntries(entries, ask({ offset: 0 })).total);
    },
    async find(before) {
      let summary = before;
      let entries = heldFor(before);
      if (!entries) {
        const read = meter.add(await repository.readSearchEntries(vendorId, signal));
        entries = read.entries;
        const after = meter.add(await repository.readSummary(vendorId, signal));
        summary = currentSummary(after.summary, walk);
        if (summary) heldEntries.set(vendorId, summaryStamp(summary), entries);
      }
      const found = searchEntries(entries, ask(walk.start));
      const items = meter.add(
        await repository.readListed(
          vendorId,
          found.page.map(({ id }) => id),
          signal,
        ),
      );
      return {
        page: {
          vacancies: items.items,
          ...(found.page.length > 0 && {
            first: (found.page[0] as SearchEntry).order,
            last: (found.page.at(-1) as SearchEntry).order,
          }),
          more: found.more,
          readUnits: items.readUnits,
          calls: items.calls,
          foreignItems: items.foreignItems,
        },
        total: found.total,
        facets: found.facets,
        summary,
      };
    },
  };
}
