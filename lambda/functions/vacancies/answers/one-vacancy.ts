/**
 * `GET /vendor/vacancies/{id}`, stripped of its transport (docs/api.md#one-vacancy): what a career page's job page
 * needs. One GetItem of the id, then the vendor and the active rule checked (status `active`, deadline today or
 * later in the service zone); every way of not being one — not an id, not there, another vendor's, not active —
 * is the same 404, so the route never tells whether an id exists elsewhere. Two representations: the JSON envelope,
 * or — when `Accept` prefers it — the vacancy as a schema.org JobPosting (`domain/vacancy/job-posting.ts`).
 */
import type { AuthorizedVendor } from '../../../domain/keys/context';
import { dayNumber } from '../../../domain/schema/active-index';
import type { Locale, VacancyObject } from '../../../domain/schema/vacancy';
import type { ListedVacancy } from '../../../domain/schema/vacancy-item';
import { FUNCTION_SETTINGS } from '../../../domain/settings/function-settings';
import { serializeJobPosting, toJobPosting } from '../../../domain/vacancy/job-posting';
import { negotiateLocale } from '../../../domain/vacancy/locale';
import { toVacancyObjects } from '../../../domain/vacancy/presenter';
import { JSON_LD_CONTENT_TYPE, prefersJsonLd } from '../../../platform/http/accept';
import { invalidInput, JSON_CONTENT_TYPE, vacancyNotFound } from '../../../platform/http/errors';
import type { VacancyRepository } from '../reads/repository';
import { type MultiValueParameters, parseListingQuery } from '../request/query';
import type { Served, VacanciesSettings } from '../request/request';

/** A request of one vacancy, stripped of its transport. */
export interface VacancyRequest {
  readonly vendor: AuthorizedVendor;
  /** The `{id}` path segment as sent. */
  readonly id: string;
  readonly parameters: MultiValueParameters;
  readonly acceptLanguage: string | undefined;
  /** The request's `Accept`: the JobPosting when it prefers `application/ld+json`. */
  readonly accept: string | undefined;
  readonly now: Date;
  /** The request's deadline for DynamoDB. */
  readonly signal?: AbortSignal;
}

/** The body of a 200 (docs/api.md#one-vacancy). */
export interface VacancyResponse {
  status: 'success';
  company: string;
  data: VacancyObject;
}

/** What the route answers: the body and its media type, and what every answer reports. */
export interface VacancyResult extends Served {
  /**
   * The body as sent — a `VacancyResponse`, or the JobPosting safe to embed in a page (`serializeJobPosting`) — so
   * that the ETag the middleware makes of it is the tag of these very bytes.
   */
  readonly body: string;
  readonly contentType: string;
  readonly id: number;
}

/** The deployment's defaults of what a JobPosting states, for settings that give none. */
const JOB_POSTING_DEFAULTS = {
  jobCountry: FUNCTION_SETTINGS.jobCountry.default,
  salaryCurrency: FUNCTION_SETTINGS.salaryCurrency.default,
  salaryPeriod: FUNCTION_SETTINGS.salaryPeriod.default,
};

/** `{id}` in its canonical decimal form, 1 to 2^53 − 1: digits, no sign, no leading zero. */
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/** The id of a path segment, or undefined when it is not one in its canonical form. */
export function parseVacancyId(segment: string): number | undefined {
  if (!CANONICAL_ID.test(segment)) return undefined;
  const id = Number(segment);
  return id <= Number.MAX_SAFE_INTEGER ? id : undefined;
}

/**
 * The response's locale: `lang` as the listing reads it (an invalid or repeated one is a 422), then
 * `Accept-Language`, then the default. The route has no other parameter: the rest are ignored.
 */
function requestLocale(request: VacancyRequest, settings: VacanciesSettings): Locale {
  const lang =
    request.parameters && Object.hasOwn(request.parameters, 'lang') ? request.parameters.lang : undefined;
  const parsed = parseListingQuery(lang ? { lang } : null);
  if (!parsed.ok) throw invalidInput(parsed.errors);
  return negotiateLocale(parsed.query.lang, request.acceptLanguage, settings.defaultLocale);
}

/** Answers one request of the vacancy's route: its body, or a `HttpError` (404, 422, or what the read threw). */
export async function showVacancy(
  request: VacancyRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
): Promise<VacancyResult> {
  // The locale first: an invalid `lang` is a 422 whatever the id.
  const locale = requestLocale(request, settings);
  const id = parseVacancyId(request.id);
  if (id === undefined) throw vacancyNotFound();
  const read = await repository.readVacancy(request.vendor.vendorId, id, request.signal);
  const { item } = read;
  const today = dayNumber(settings.clock.today(request.now));
  if (item?.status !== 'active' || item.deadline === undefined || dayNumber(item.deadline) < today) {
    throw vacancyNotFound();
  }
  const vacancy = item as ListedVacancy;
  const [data] = toVacancyObjects([vacancy], locale, settings.clock) as [VacancyObject];
  const jsonLd = prefersJsonLd(request.accept);
  return {
    id,
    body: jsonLd
      ? serializeJobPosting(
          toJobPosting(vacancy, data, request.vendor, locale, {
            ...(settings.jobPosting ?? JOB_POSTING_DEFAULTS),
            clock: settings.clock,
          }),
        )
      : JSON.stringify({
          status: 'success',
          company: request.vendor.company,
          data,
        } satisfies VacancyResponse),
    contentType: jsonLd ? JSON_LD_CONTENT_TYPE : JSON_CONTENT_TYPE,
    locale,
    readUnits: read.readUnits,
    calls: read.calls,
    foreignItems: 0,
  };
}
