/**
 * The listing (docs/api.md#pagination, docs/design.md#how-a-listing-reads): one flow for every request without
 * `updated_since`, over a source of entries — the active index, or with search's parameters the vendor's search
 * entries in memory (`source.ts`). In order: the vendor's summary, when the source or a poll needs it first; a 304
 * when a current summary alone answers the poll; the page, `total` and facets from the source; the entity tag from
 * the summary that proves them; the body with its links.
 */

import { ifNoneMatchMatches } from '../../platform/http/conditional';
import type { ReadMeter } from '../reads/read-meter';
import type { VacancyPage, VacancyRepository } from '../reads/repository';
import type { Summary } from '../schema/summary';
import { toVacancyObjects } from '../vacancy/presenter';
import { encodeCursor, type ListingCursor } from './cursor';
import { pageUrlBuilder, paginate } from '../../functions/vacancies/links';
import { isSearch } from './query';
import type {
  ListingRequest,
  NotModifiedResult,
  VacanciesRequest,
  VacanciesResult,
  VacanciesSettings,
} from './request';
import type { HeldEntries } from './search/held-entries';
import { activeIndexSource } from './active-index-source';
import { type BodyInputs, summaryETag } from '../../functions/vacancies/etag';
import { inclusion } from './inclusion';
import { searchSource } from './search-source';
import { currentSummary, type ListingFound } from './source';

/**
 * One request of the listing: a 304 for a poll whose `If-None-Match` the vendor's current summary already answers;
 * otherwise a page (from the top, an offset or a cursor), its `total` and facets, tagged from the summary when it
 * was provably current before the page was read (when not, the tag is the body's digest, made by the route).
 */
export async function listVacancies(
  request: VacanciesRequest,
  listing: ListingRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
  meter: ReadMeter,
  heldEntries: HeldEntries,
): Promise<VacanciesResult | NotModifiedResult> {
  const { query, perPage } = listing;
  const source = isSearch(query.search)
    ? searchSource(request, listing, repository, meter, heldEntries)
    : activeIndexSource(request, listing, repository, meter);
  const tagOf = (summary: Summary) => summaryETag(bodyInputs(request, settings, listing, summary));

  let before: Summary | undefined;
  if (source.summaryFirst || request.ifNoneMatch !== undefined) {
    const read = meter.add(await repository.readSummary(request.vendor.vendorId, request.signal));
    before = currentSummary(read.summary, request, listing);
  }
  // A poll: the summary read first may answer it.
  const knownTotal = before && request.ifNoneMatch !== undefined ? source.knownTotal(before) : undefined;
  if (before && knownTotal && request.ifNoneMatch !== undefined) {
    const etag = tagOf(before);
    if (ifNoneMatchMatches(request.ifNoneMatch, etag)) {
      return {
        notModified: true,
        etag,
        page: query.page,
        perPage,
        total: knownTotal(),
        locale: listing.locale,
        readUnits: meter.readUnits,
        calls: meter.calls,
        foreignItems: 0,
      };
    }
  }

  const found = await source.find(before);
  return listingAnswer(request, listing, settings, meter, found, found.summary && tagOf(found.summary));
}

/** What decides the body, for its entity tag, once the summary is known to be current. */
function bodyInputs(
  request: VacanciesRequest,
  settings: VacanciesSettings,
  resolved: ListingRequest,
  summary: Summary,
): BodyInputs {
  return {
    vendorId: request.vendor.vendorId,
    company: request.vendor.company,
    version: summary.version,
    today: resolved.today,
    zone: settings.clock.zone,
    locale: resolved.locale,
    lang: resolved.query.lang,
    filters: resolved.query.filters,
    search: resolved.query.search,
    include: resolved.query.include,
    page: resolved.query.page,
    perPage: resolved.perPage,
    perPageGiven: resolved.query.perPage !== undefined,
    cursor: resolved.query.cursor,
    routeUrl: resolved.routeUrl,
  };
}

/**
 * The cursors of a page's links (docs/design.md#walks-by-cursor): next starts after its last vacancy, previous
 * before its first. A page that came out empty has neither: reached by a cursor, its links start at that cursor's
 * position — towards the same side as it, not again including it; towards the other side, including it — and
 * reached by an offset, they are offsets too.
 */
function linkCursors(page: VacancyPage, from: ListingCursor | undefined) {
  if (page.first && page.last) {
    return {
      next: { direction: 'older', position: page.last, inclusive: false },
      prev: { direction: 'newer', position: page.first, inclusive: false },
    } as const;
  }
  if (!from) return { next: undefined, prev: undefined };
  const opposite = { position: from.position, inclusive: !from.inclusive };
  return from.direction === 'older'
    ? ({ next: from, prev: { direction: 'newer', ...opposite } } as const)
    : ({ next: { direction: 'older', ...opposite }, prev: from } as const);
}

/** The answer of a listing from what it found: the body, its links and their cursors, and what the reads cost. */
function listingAnswer(
  request: VacanciesRequest,
  resolved: ListingRequest,
  settings: VacanciesSettings,
  meter: ReadMeter,
  { page, total, facets }: ListingFound,
  etag: string | undefined,
): VacanciesResult {
  const { query, perPage } = resolved;
  const pageUrl = pageUrlBuilder(resolved.routeUrl, query);
  const cursors = linkCursors(page, resolved.cursor);
  const link = (number: number, cursor: ListingCursor | undefined) =>
    pageUrl(number, cursor && encodeCursor(cursor, resolved.binding));
  // Read towards newer vacancies, the page does not know what follows it; the page it came from, at least.
  const more = resolved.cursor?.direction === 'newer' ? page.vacancies.length > 0 : page.more;
  return {
    body: {
      status: 'success',
      company: request.vendor.company,
      data: toVacancyObjects(
        page.vacancies,
        resolved.locale,
        settings.clock,
        inclusion(resolved.query, settings),
      ),
      pagination: paginate(total, query.page, perPage, {
        more,
        next: () => link(query.page + 1, cursors.next),
        prev: () => link(query.page - 1, cursors.prev),
      }),
      ...(facets && { facets }),
    },
    ...(etag && { etag }),
    locale: resolved.locale,
    readUnits: meter.readUnits,
    calls: meter.calls,
    foreignItems: page.foreignItems,
  };
}
