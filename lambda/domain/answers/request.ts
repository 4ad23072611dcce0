/**
 * A request of the vacancies route (docs/api.md#query-parameters), stripped of its transport: the deployment's
 * settings, the request, what it resolves to — the active listing or a sync, a tagged union the choice of answer
 * (`answers/answer.ts`) switches on — and what either answers.
 */

import { type FieldErrors, invalidInput } from '../../platform/http/errors';
import type { ZoneClock } from '../../platform/time/zone-clock';
import type { AuthorizedVendor } from '../keys/context';
import type { Locale } from '../schema/vacancy';
import type { RateTier } from '../settings/rate-tiers';
import type { JobPostingSettings } from '../vacancy/job-posting';
import { negotiateLocale } from '../vacancy/locale';
import {
  type CursorBinding,
  cursorShaped,
  decodeCursor,
  decodeSyncCursor,
  type ListingCursor,
  listingBinding,
  type SyncCursor,
  syncBinding,
} from './cursor';
import { type RequestLocation, routeUrl } from '../../functions/vacancies/links';
import { type ListingQuery, type MultiValueParameters, parseListingQuery } from './query';
import type { ListingResponse, SyncResponse } from '../../functions/vacancies/bodies';

/** Per-deployment behaviour of the vacancies route (docs/operating.md#settings): its settings. */
export interface VacanciesSettings {
  readonly defaultLocale: Locale;
  /** The deployment's rate tiers: each 200 states the vendor's in `RateLimit-Policy`. */
  readonly rateTiers?: Readonly<Record<string, RateTier>>;
  /** The service time zone's clock: `created_at` and "today" for deadlines. */
  readonly clock: ZoneClock;
  readonly defaultPerPage: number;
  /** Base of pagination URLs (a custom domain, say); the request's own URL when absent. */
  readonly publicBaseUrl?: string | undefined;
  /** What a JobPosting states of every job (docs/api.md#jobposting); the deployment defaults when absent. */
  readonly jobPosting?: Omit<JobPostingSettings, 'clock'>;
}

/** A request of the vacancies route — for the listing or a sync — stripped of its transport. */
export interface VacanciesRequest {
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

/** What every answer of the route reports (docs/operating.md#metrics). */
export interface Served {
  readonly locale: Locale;
  readonly readUnits: number;
  readonly calls: number;
  readonly foreignItems: number;
}

/**
 * A listing's response body (a sync's, with `updated_since`), with its entity tag when the vendor's summary gave
 * one (docs/design.md#etags).
 */
export interface VacanciesResult extends Served {
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

/** What both kinds of request resolve to. */
interface ResolvedCommon {
  readonly query: ListingQuery;
  readonly locale: Locale;
  readonly perPage: number;
  readonly today: string;
  readonly routeUrl: string;
  readonly binding: CursorBinding;
}

/**
 * A valid request, with what it resolved to: the listing (`answers/listing.ts`), or — with `updated_since` — a sync
 * (`answers/sync.ts`); each with its own kind of cursor, when one was given.
 */
export type ResolvedRequest =
  | (ResolvedCommon & { readonly kind: 'active'; readonly cursor: ListingCursor | undefined })
  | (ResolvedCommon & {
      readonly kind: 'sync';
      /** `updated_since` (ms). */
      readonly since: number;
      readonly cursor: SyncCursor | undefined;
    });

/** A request of the listing (without `updated_since`), resolved. */
export type ListingRequest = Extract<ResolvedRequest, { kind: 'active' }>;

/** Validates the query (422 naming every invalid parameter, the cursor last) and resolves its defaults. */
export function resolveRequest(request: VacanciesRequest, settings: VacanciesSettings): ResolvedRequest {
  const parsed = parseListingQuery(request.parameters);
  const errors: FieldErrors = parsed.ok ? {} : parsed.errors;
  const query = parsed.ok ? parsed.query : undefined;
  // A cursor is checked against the walk as given — the filters, or a sync's start — so only once that is valid.
  const filters = parsed.ok ? parsed.query.filters : parsed.filters;
  const search = parsed.ok ? parsed.query.search : parsed.search;
  const given = parsed.ok ? parsed.query.cursor : parsed.cursor;
  const since = query?.updatedSince;
  const vendorId = request.vendor.vendorId;
  const binding =
    since === undefined ? listingBinding(vendorId, filters ?? {}, search) : syncBinding(vendorId, since);
  const checkable =
    given !== undefined && (since === undefined ? filters !== undefined : query !== undefined);
  const cursor = checkable && since === undefined ? decodeCursor(given, binding) : undefined;
  const syncCursor = checkable && since !== undefined ? decodeSyncCursor(given, binding) : undefined;
  // A cursor that could be no walk's is named even when the walk it would be checked against is not valid.
  const invalid = checkable ? !cursor && !syncCursor : given !== undefined && !cursorShaped(given);
  if (invalid) errors.cursor = ['The cursor is invalid.'];
  if (!query || Object.keys(errors).length > 0) throw invalidInput(errors);
  const common: ResolvedCommon = {
    query,
    locale: negotiateLocale(query.lang, request.acceptLanguage, settings.defaultLocale),
    perPage: query.perPage ?? settings.defaultPerPage,
    today: settings.clock.today(request.now),
    routeUrl: routeUrl(settings.publicBaseUrl, request.location),
    binding,
  };
  return query.updatedSince === undefined
    ? { ...common, kind: 'active', cursor }
    : { ...common, kind: 'sync', since: query.updatedSince, cursor: syncCursor };
}
