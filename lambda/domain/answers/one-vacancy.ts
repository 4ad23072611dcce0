/**
 * `GET /vendor/vacancies/{id}`, stripped of its transport (docs/api.md#one-vacancy): what a career page's job page
 * needs. One GetItem of the id, then the vendor and the active rule checked (status `active`, deadline today or
 * later in the service zone). A vacancy of the vendor's that was open and is no longer — closed, expired (recorded,
 * or past its deadline and not recorded yet), deleted — is gone: the route says so, and since when (a 410, thrown by
 * the route's wiring). Every other way of not being one — not an id, not there (a purged tombstone too), another
 * vendor's, a draft, inactive — is the same 404, so the route never tells whether an id exists elsewhere. Two
 * representations: the JSON envelope, or — when `Accept` prefers it — the vacancy as a schema.org JobPosting
 * (`domain/vacancy/job-posting.ts`).
 */

import type { ReadCost } from '../../platform/dynamodb/capacity';
import { JSON_LD_CONTENT_TYPE, prefersJsonLd } from '../../platform/http/accept';
import { invalidInput, JSON_CONTENT_TYPE, vacancyNotFound } from '../../platform/http/errors';
import { formatRfc3339 } from '../../platform/time/rfc3339';
import type { ZoneClock } from '../../platform/time/zone-clock';
import type { AuthorizedVendor } from '../keys/context';
import type { ShownItem } from '../reads/item-reader';
import type { VacancyRepository } from '../reads/repository';
import { dayNumber } from '../schema/active-index';
import { ITEM } from '../schema/tables';
import type { Locale, VacancyObject } from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';
import { FUNCTION_SETTINGS } from '../settings/settings';
import { serializeJobPosting, toJobPosting } from '../vacancy/job-posting';
import { negotiateLocale } from '../vacancy/locale';
import { type Inclusion, toVacancyObjects } from '../vacancy/presenter';
import { type MultiValueParameters, parseListingQuery } from './query';
import type { Served, VacanciesSettings } from './request';
import { inclusion, PAY_DEFAULTS } from './inclusion';

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

/** A vacancy of the key's vendor that is no longer open: what the route's 410 says, and what its read cost. */
export interface GoneVacancyResult extends ReadCost {
  readonly gone: true;
  readonly id: number;
  /** When it stopped being open: RFC 3339, UTC, milliseconds (`closed_at`). */
  readonly closedAt: string;
}

/** The statuses of a vacancy that was open and is no longer (a draft or an inactive one may never have been). */
const GONE_STATUSES: ReadonlySet<string> = new Set(['closed', 'expired', 'deleted']);

/**
 * Where an item stands for the route: open (its vacancy), gone (since when, ms) or neither (a 404). Gone: closed,
 * expired or deleted, since its last change (`updated_at`: the change that closed it, or a later import that edited
 * the closed vacancy — the item keeps no other time); or active but past its deadline, which the expiry job records
 * within 15 minutes after the day begins (docs/design.md#expiry) — expired by the active rule since its deadline day
 * ended, the first moment of the next day in the service zone (or since its last change, should that be later).
 * Once the job records it, `closed_at` is the recording's `updated_at`, up to 15 minutes later.
 */
function standing(
  item: ShownItem | undefined,
  today: number,
  clock: ZoneClock,
): { open: ListedVacancy } | { closedAt: number } | undefined {
  if (item === undefined) return undefined;
  if (GONE_STATUSES.has(item.status)) return { closedAt: item[ITEM.updatedAt] };
  if (item.status !== 'active' || item.deadline === undefined) return undefined;
  if (dayNumber(item.deadline) >= today) return { open: item as ListedVacancy };
  const deadlinePassed = clock.nextDayStart(clock.fromLocal(`${item.deadline} 00:00:00`)).getTime();
  return { closedAt: Math.max(deadlinePassed, item[ITEM.updatedAt]) };
}

/** The deployment's defaults of what a JobPosting states, for settings that give none. */
const JOB_POSTING_DEFAULTS = { jobCountry: FUNCTION_SETTINGS.jobCountry.default, ...PAY_DEFAULTS };

/** `{id}` in its canonical decimal form, 1 to 2^53 − 1: digits, no sign, no leading zero. */
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/** The id of a path segment, or undefined when it is not one in its canonical form. */
export function parseVacancyId(segment: string): number | undefined {
  if (!CANONICAL_ID.test(segment)) return undefined;
  const id = Number(segment);
  return id <= Number.MAX_SAFE_INTEGER ? id : undefined;
}

/**
 * The response's locale — `lang` as the listing reads it (an invalid or repeated one is a 422), then
 * `Accept-Language`, then the default — and what the vacancy object includes (`include`, as the listing reads it).
 * The route has no other parameter: the rest are ignored.
 */
function requestQuery(
  request: VacancyRequest,
  settings: VacanciesSettings,
): { locale: Locale; inclusion: Inclusion | undefined } {
  const given = (name: 'lang' | 'include') =>
    request.parameters && Object.hasOwn(request.parameters, name) ? request.parameters[name] : undefined;
  const [lang, include] = [given('lang'), given('include')];
  const parsed = parseListingQuery({ ...(lang && { lang }), ...(include && { include }) });
  if (!parsed.ok) throw invalidInput(parsed.errors);
  return {
    locale: negotiateLocale(parsed.query.lang, request.acceptLanguage, settings.defaultLocale),
    inclusion: inclusion(parsed.query, settings),
  };
}

/**
 * Answers one request of the vacancy's route: its body, or that the vendor's vacancy is gone (the wiring answers 410),
 * or a `HttpError` (404, 422, or what the read threw).
 */
export async function showVacancy(
  request: VacancyRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
): Promise<VacancyResult | GoneVacancyResult> {
  // The query first: an invalid `lang` or `include` is a 422 whatever the id.
  const { locale, inclusion: included } = requestQuery(request, settings);
  const id = parseVacancyId(request.id);
  if (id === undefined) throw vacancyNotFound();
  const read = await repository.readVacancy(request.vendor.vendorId, id, request.signal);
  const today = dayNumber(settings.clock.today(request.now));
  const found = standing(read.item, today, settings.clock);
  if (found === undefined) throw vacancyNotFound();
  if ('closedAt' in found) {
    return {
      gone: true,
      id,
      closedAt: formatRfc3339(found.closedAt),
      readUnits: read.readUnits,
      calls: read.calls,
    };
  }
  const vacancy = found.open;
  const [data] = toVacancyObjects([vacancy], locale, settings.clock, included) as [VacancyObject];
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
