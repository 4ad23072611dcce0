import type { AuthorizedVendor } from '../auth/context';
import type { RateTier } from '../config/defaults';
import { invalidInput } from '../http/errors';
import type { Locale } from '../schema/vacancy';
import type { ZoneClock } from '../time/zone-clock';
import { negotiateLocale } from './locale';
import { pageOffset, pageUrlBuilder, paginate, type RequestLocation, routeUrl } from './pagination';
import { toVacancyObjects } from './presenter';
import { type MultiValueParameters, parseListingQuery } from './query';
import type { VacancyRepository } from './repository';
import type { ListingResponse } from './types';

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
  readonly location: RequestLocation;
  readonly now: Date;
  /** The request's deadline for DynamoDB. */
  readonly signal?: AbortSignal;
}

/** A listing's response body and what the HTTP layer needs to describe and log it. */
export interface ListingResult {
  readonly body: ListingResponse;
  readonly locale: Locale;
  readonly readUnits: number;
  readonly calls: number;
  readonly foreignItems: number;
}

/**
 * Lists the vendor's active vacancies for one request: validates the query (422 naming every invalid
 * parameter), chooses the locale, reads one page, and builds the envelope.
 */
export async function listVacancies(
  request: ListingRequest,
  repository: VacancyRepository,
  settings: ListingSettings,
): Promise<ListingResult> {
  const parsed = parseListingQuery(request.parameters);
  if (!parsed.ok) throw invalidInput(parsed.errors);
  const { query } = parsed;
  const locale = negotiateLocale(query.lang, request.acceptLanguage, settings.defaultLocale);
  const perPage = query.perPage ?? settings.defaultPerPage;

  // A DynamoDB failure propagates: the error middleware makes it the 503 (or, if it is not one, the 500).
  const page = await repository.listActive({
    vendorId: request.vendor.vendorId,
    filters: query.filters,
    offset: pageOffset(query.page, perPage),
    limit: perPage,
    today: settings.clock.today(request.now),
    ...(request.signal && { signal: request.signal }),
  });

  const pageUrl = pageUrlBuilder(routeUrl(settings.publicBaseUrl, request.location), query);
  return {
    body: {
      status: 'success',
      company: request.vendor.company,
      data: toVacancyObjects(page.vacancies, locale, settings.clock),
      pagination: paginate(page.total, query.page, perPage, pageUrl),
    },
    locale,
    readUnits: page.readUnits,
    calls: page.calls,
    foreignItems: page.foreignItems,
  };
}
