/**
 * The listing with search, filters by code or facets (docs/api.md#search-filters-and-facets, docs/design.md#search):
 * answered from the vendor's search index as the function holds it — valid for one state of the vendor's summary,
 * read strongly on every request — or, when it holds none for that state, from one read of the vendor's entries.
 * Then one BatchGetItem of the page's items.
 */

import { isCurrent, type Summary } from '../../../domain/schema/summary';
import { INDEX_SETTLE_MS } from '../../../domain/settings/recovery-waits';
import { ifNoneMatchMatches } from '../../../platform/http/conditional';
import type { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import {
  type SearchEntry,
  type SearchIndexCache,
  type SearchRequest,
  searchEntries,
  summaryStamp,
} from '../reads/search-index';
import { pageOffset } from '../request/pagination';
import type { SearchFilters } from '../request/query';
import type {
  NotModifiedResult,
  VacanciesRequest,
  VacanciesResult,
  VacanciesSettings,
} from '../request/request';
import { type ActiveRequest, bodyInputs, listingAnswer } from './active-listing';
import { summaryETag } from './etag';

/**
 * One request with search's parameters. The summary first: when it is provably current and the function holds the
 * vendor's entries for exactly its state, they are the vendor's listable vacancies now — a poll whose tag matches is a
 * 304 on that one read, and a page costs the BatchGetItem of its items. Otherwise the entries are read (once), then
 * the summary again: current as of before that read, it proves the entries exact for its state, and they are held.
 */
export async function listSearch(
  request: VacanciesRequest,
  resolved: ActiveRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
  meter: ReadMeter,
  held: SearchIndexCache,
): Promise<VacanciesResult | NotModifiedResult> {
  const { query, perPage, today } = resolved;
  const search = query.search as SearchFilters;
  const vendorId = request.vendor.vendorId;
  const signal = request.signal;
  const at = request.now.getTime();
  const trusted = (summary: Summary | undefined): summary is Summary =>
    summary !== undefined && isCurrent(summary, at, today, INDEX_SETTLE_MS);
  const tagOf = (summary: Summary) => summaryETag(bodyInputs(request, settings, resolved, summary));
  const ask = (start: SearchRequest['start']): SearchRequest => ({
    filters: query.filters,
    search,
    today,
    start,
    limit: perPage,
    locale: resolved.locale,
  });
  const start = resolved.cursor ? { cursor: resolved.cursor } : { offset: pageOffset(query.page, perPage) };

  const before = meter.add(await repository.readSummary(vendorId, signal));
  let summary = trusted(before.summary) ? before.summary : undefined;
  let entries: readonly SearchEntry[] | undefined = summary && held.get(vendorId, summaryStamp(summary));

  if (summary && entries && request.ifNoneMatch !== undefined) {
    const etag = tagOf(summary);
    if (ifNoneMatchMatches(request.ifNoneMatch, etag)) {
      return {
        notModified: true,
        etag,
        page: query.page,
        perPage,
        total: searchEntries(entries, ask({ offset: 0 })).total,
        locale: resolved.locale,
        readUnits: meter.readUnits,
        calls: meter.calls,
        foreignItems: 0,
      };
    }
  }

  if (!entries) {
    const read = meter.add(await repository.readSearchEntries(vendorId, signal));
    entries = read.entries;
    const after = meter.add(await repository.readSummary(vendorId, signal));
    summary = trusted(after.summary) ? after.summary : undefined;
    if (summary) held.set(vendorId, summaryStamp(summary), entries);
  }

  const found = searchEntries(entries, ask(start));
  const items = meter.add(
    await repository.readListed(
      vendorId,
      found.page.map(({ id }) => id),
      signal,
    ),
  );
  return listingAnswer(request, resolved, settings, meter, {
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
    etag: summary && tagOf(summary),
    facets: found.facets,
  });
}
