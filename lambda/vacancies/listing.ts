import { invalidInput, serviceUnavailable } from '../http/errors';
import { isDatabaseUnavailable } from '../shared/dynamodb';
import { inTimeZone, localDate } from '../shared/time';
import { negotiateLocale } from './locale';
import { pageOffset, pageUrlBuilder, paginate, type RequestLocation, routeUrl } from './pagination';
import { toVacancyResource } from './presenter';
import { type MultiValueParameters, parseListingQuery } from './query';
import type { VacancyRepository } from './repository';
import type { ListingResponse, Locale } from './types';

/** Per-deployment behaviour of the listing (DESIGN "Configuration"). */
export interface ListingSettings {
  readonly defaultLocale: Locale;
  /** IANA zone of `created_at` and of "today" for deadlines. */
  readonly timeZone: string;
  readonly defaultPerPage: number;
  /** Base of pagination URLs (a custom domain, say); the request's own URL when absent. */
  readonly publicBaseUrl?: string | undefined;
}

/** The authenticated vendor, as the authorizer resolved it from the API key. */
export interface Vendor {
  readonly vendorId: string;
  readonly company: string;
}

/** A listing request, stripped of its transport. */
export interface ListingRequest {
  readonly vendor: Vendor;
  readonly parameters: MultiValueParameters;
  readonly acceptLanguage: string | undefined;
  readonly location: RequestLocation;
  readonly now: Date;
}

/** A listing's response body and what the HTTP layer needs to describe it. */
export interface ListingResult {
  readonly body: ListingResponse;
  readonly locale: Locale;
  readonly readUnits: number;
  readonly calls: number;
}

/**
 * Lists the vendor's active vacancies for one request: validates the query (422 naming every invalid
 * parameter), chooses the locale, reads one page, and builds the envelope. DynamoDB throttling or
 * unavailability after retries becomes a 503; anything else propagates (a 500).
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

  let page: Awaited<ReturnType<VacancyRepository['listActive']>>;
  try {
    page = await repository.listActive({
      vendorId: request.vendor.vendorId,
      filters: query.filters,
      offset: pageOffset(query.page, perPage),
      limit: perPage,
      today: localDate(request.now, settings.timeZone),
    });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw serviceUnavailable(error);
    throw error;
  }

  const pageUrl = pageUrlBuilder(routeUrl(settings.publicBaseUrl, request.location), query);
  return {
    body: {
      status: 'success',
      company: request.vendor.company,
      // One time-zone switch for the whole page rather than one per vacancy.
      data: inTimeZone(settings.timeZone, () =>
        page.vacancies.map((vacancy) => toVacancyResource(vacancy, locale, settings.timeZone)),
      ),
      pagination: paginate(page.total, query.page, perPage, pageUrl),
    },
    locale,
    readUnits: page.readUnits,
    calls: page.calls,
  };
}
