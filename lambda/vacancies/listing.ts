import type { AuthorizedVendor } from '../auth/context';
import type { RateTier } from '../config/defaults';
import { type FieldErrors, invalidInput } from '../http/errors';
import { ifNoneMatchMatches } from '../http/middleware';
import { countMatching, INDEX_SETTLE_MS, isCurrent, type Summary } from '../schema/summary';
import type { Locale } from '../schema/vacancy';
import type { ZoneClock } from '../time/zone-clock';
import {
  type CursorBinding,
  decodeCursor,
  decodeSyncCursor,
  encodeCursor,
  type ListingCursor,
  listingBinding,
  type SyncCursor,
  syncBinding,
} from './cursor';
import { type BodyInputs, summaryETag } from './etag';
import { negotiateLocale } from './locale';
import { pageOffset, pageUrlBuilder, paginate, type RequestLocation, routeUrl } from './pagination';
import { toVacancyObjects } from './presenter';
import { type MultiValueParameters, parseListingQuery } from './query';
import type { PageStart, VacancyPage, VacancyRepository } from './repository';
import { syncVacancies } from './sync';
import type { ListingQuery, ListingResponse, SyncResponse } from './types';

/** Per-deployment behaviour of the listing (docs/operating.md#settings). */
export interface ListingSettings {
  readonly defaultLocale: Locale;
  /** The deployment's rate tiers: each 200 states the vendor's in `RateLimit-Policy`. */
  readonly rateTiers?: Readonly<Record<string, RateTier>>;
  /** The service time zone's clock: `created_at` and "today" for deadlines. */
  readonly clock: ZoneClock;
  readonly defaultPerPage: number;
  /** Base of pagination URLs (a custom domain, say); the request's own URL when absent. */
  readonly publicBaseUrl?: string | undefined;
}

/** A listing request, stripped of its transport. */
export interface ListingRequest {
  readonly vendor: AuthorizedVendor;
  readonly parameters: MultiValueParameters;
  readonly acceptLanguage: string | undefined;
  /** The request's `If-None-Match`, if any. */
  readonly ifNoneMatch?: string | undefined;
  readonly location: RequestLocation;
  readonly now: Date;
  /** The request's deadline for DynamoDB. */
  readonly signal?: AbortSignal;
}

/** What every answer of the listing reports (docs/operating.md#metrics). */
interface Served {
  readonly locale: Locale;
  readonly readUnits: number;
  readonly calls: number;
  readonly foreignItems: number;
}

/**
 * A listing's response body (a sync's, with `updated_since`), with its entity tag when the vendor's summary gave
 * one (docs/design.md#etags).
 */
export interface ListingResult extends Served {
  readonly body: ListingResponse | SyncResponse;
  readonly etag?: string;
}

/** A poll answered 304 from the summary alone: its tag, and what the body it stands for said of the listing. */
export interface NotModifiedResult extends Served {
  readonly notModified: true;
  readonly etag: string;
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
}

/** A valid request, with what it resolved to. */
export interface Resolved {
  readonly query: ListingQuery;
  /** The cursor given, decoded: a listing's, or — with `updated_since` — a sync's. */
  readonly cursor: ListingCursor | undefined;
  readonly syncCursor: SyncCursor | undefined;
  readonly locale: Locale;
  readonly perPage: number;
  readonly today: string;
  readonly routeUrl: string;
  readonly binding: CursorBinding;
}

/** Validates the query (422 naming every invalid parameter, the cursor last) and resolves its defaults. */
function resolve(request: ListingRequest, settings: ListingSettings): Resolved {
  const parsed = parseListingQuery(request.parameters);
  const errors: FieldErrors = parsed.ok ? {} : parsed.errors;
  const query = parsed.ok ? parsed.query : undefined;
  // A cursor is checked against the walk as given — the filters, or a sync's start — so only once that is valid.
  const filters = parsed.ok ? parsed.query.filters : parsed.filters;
  const given = parsed.ok ? parsed.query.cursor : parsed.cursor;
  const since = query?.updatedSince;
  const vendorId = request.vendor.vendorId;
  const binding =
    since === undefined ? listingBinding(vendorId, filters ?? {}) : syncBinding(vendorId, since);
  const checkable =
    given !== undefined && (since === undefined ? filters !== undefined : query !== undefined);
  const cursor = checkable && since === undefined ? decodeCursor(given, binding) : undefined;
  const syncCursor = checkable && since !== undefined ? decodeSyncCursor(given, binding) : undefined;
  if (checkable && !cursor && !syncCursor) errors.cursor = ['The cursor is invalid.'];
  if (!query || Object.keys(errors).length > 0) throw invalidInput(errors);
  return {
    query,
    cursor,
    syncCursor,
    locale: negotiateLocale(query.lang, request.acceptLanguage, settings.defaultLocale),
    perPage: query.perPage ?? settings.defaultPerPage,
    today: settings.clock.today(request.now),
    routeUrl: routeUrl(settings.publicBaseUrl, request.location),
    binding,
  };
}

/** What decides the body, for its entity tag, once the summary is known to be current. */
function bodyInputs(
  request: ListingRequest,
  settings: ListingSettings,
  resolved: Resolved,
  summary: Summary,
): BodyInputs {
  return {
    vendorId: request.vendor.vendorId,
    company: request.vendor.company,
    version: summary.version,
    today: resolved.today,
    zone: settings.clock.zone,
    locale: resolved.locale,
    filters: resolved.query.filters,
    page: resolved.query.page,
    perPage: resolved.perPage,
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
 * Lists the vendor's active vacancies for one request (docs/design.md#how-a-listing-reads): validates the query,
 * chooses the locale, and — for a poll whose `If-None-Match` the vendor's current summary already answers — stops
 * at a 304. Otherwise reads one page (from the top, an offset or a cursor), then the vendor's summary: when it was
 * provably current before the page was read, `total` and the entity tag come from it; when not, the index is
 * counted and the tag is the body's digest.
 */
export async function listVacancies(
  request: ListingRequest,
  repository: VacancyRepository,
  settings: ListingSettings,
): Promise<ListingResult | NotModifiedResult> {
  const resolved = resolve(request, settings);
  const { query, perPage, today } = resolved;
  if (query.updatedSince !== undefined) {
    return syncVacancies(request, { ...resolved, since: query.updatedSince }, repository, settings);
  }
  const vendorId = request.vendor.vendorId;
  const signal = request.signal;
  let readUnits = 0;
  let calls = 0;
  const cost = (read: { readUnits: number; calls: number }) => {
    readUnits += read.readUnits;
    calls += read.calls;
  };
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
          readUnits,
          calls,
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
    },
    ...(etag && { etag }),
    locale: resolved.locale,
    readUnits,
    calls,
    foreignItems: page.foreignItems,
  };
}
