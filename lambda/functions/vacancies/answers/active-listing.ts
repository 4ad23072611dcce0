/**
 * The active listing (docs/api.md#pagination): one strategy of the vacancies route — the other is the sync
 * (`sync.ts`) — for a request without `updated_since`.
 */

import { countMatching, isCurrent, type Summary } from '../../../domain/schema/summary';
import { INDEX_SETTLE_MS } from '../../../domain/settings/recovery-waits';
import { toVacancyObjects } from '../../../domain/vacancy/presenter';
import type { ReadCost } from '../../../platform/dynamodb/capacity';
import { ifNoneMatchMatches } from '../../../platform/http/conditional';
import type { PageStart } from '../reads/active-index-reader';
import type { ReadMeter } from '../reads/read-meter';
import type { VacancyPage, VacancyRepository } from '../reads/repository';
import { encodeCursor, type ListingCursor } from '../request/cursor';
import { pageOffset, pageUrlBuilder, paginate } from '../request/pagination';
import type {
  NotModifiedResult,
  ResolvedRequest,
  VacanciesRequest,
  VacanciesResult,
  VacanciesSettings,
} from '../request/request';
import type { Facets } from '../request/types';
import { type BodyInputs, summaryETag } from './etag';

/** A request of the active listing, resolved. */
export type ActiveRequest = Extract<ResolvedRequest, { kind: 'active' }>;

/** What decides the body, for its entity tag, once the summary is known to be current. */
export function bodyInputs(
  request: VacanciesRequest,
  settings: VacanciesSettings,
  resolved: ActiveRequest,
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

/**
 * The active listing, for one request (docs/design.md#how-a-listing-reads): for a poll whose `If-None-Match` the
 * vendor's current summary already answers, a 304. Otherwise one page (from the top, an offset or a cursor), then
 * the vendor's summary: when it was provably current before the page was read, `total` and the entity tag come
 * from it; when not, the index is counted and the tag is the body's digest.
 */
export async function listActive(
  request: VacanciesRequest,
  resolved: ActiveRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
  meter: ReadMeter,
): Promise<VacanciesResult | NotModifiedResult> {
  const { query, perPage, today } = resolved;
  const vendorId = request.vendor.vendorId;
  const signal = request.signal;
  const cost = <T extends ReadCost>(read: T): T => meter.add(read);
  const trusted = (summary: Summary | undefined, at: number): summary is Summary =>
    summary !== undefined && isCurrent(summary, at, today, INDEX_SETTLE_MS);

  // A poll: one read of the summary may answer it.
  if (request.ifNoneMatch !== undefined) {
    const before = await repository.readSummary(vendorId, signal);
    cost(before);
    if (trusted(before.summary, request.now.getTime())) {
      const etag = summaryETag(bodyInputs(request, settings, resolved, before.summary));
      if (ifNoneMatchMatches(request.ifNoneMatch, etag)) {
        return {
          notModified: true,
          etag,
          page: query.page,
          perPage,
          total: countMatching(before.summary, query.filters),
          locale: resolved.locale,
          readUnits: meter.readUnits,
          calls: meter.calls,
          foreignItems: 0,
        };
      }
    }
  }

  // A DynamoDB failure propagates: the error middleware makes it the 503 (or, if it is not one, the 500).
  const start: PageStart = resolved.cursor
    ? { cursor: resolved.cursor }
    : { offset: pageOffset(query.page, perPage) };
  const page = await repository.readPage({
    vendorId,
    filters: query.filters,
    today,
    start,
    limit: perPage,
    signal,
  });
  cost(page);
  // Read after the page: a summary that was already current when the request came (before the page was read)
  // describes what the page saw — no writer has been at work since it settled.
  const after = await repository.readSummary(vendorId, signal);
  cost(after);
  let total: number;
  let etag: string | undefined;
  if (trusted(after.summary, request.now.getTime())) {
    total = countMatching(after.summary, query.filters);
    etag = summaryETag(bodyInputs(request, settings, resolved, after.summary));
  } else {
    const counted = await repository.countActive({ vendorId, filters: query.filters, today, signal });
    cost(counted);
    total = counted.total;
  }

  return listingAnswer(request, resolved, settings, meter, { page, total, etag });
}

/** What a listing found: its page, `total`, the summary's tag when it was current, the facets asked for. */
export interface ListingFound {
  readonly page: VacancyPage;
  readonly total: number;
  readonly etag: string | undefined;
  readonly facets?: Facets | undefined;
}

/** The answer of a listing from what it found: the body, its links and their cursors, and what the reads cost. */
export function listingAnswer(
  request: VacanciesRequest,
  resolved: ActiveRequest,
  settings: VacanciesSettings,
  meter: ReadMeter,
  { page, total, etag, facets }: ListingFound,
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
      data: toVacancyObjects(page.vacancies, resolved.locale, settings.clock),
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
