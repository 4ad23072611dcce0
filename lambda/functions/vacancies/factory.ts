/**
 * The vacancies function's handler — the HTTP door of the core (docs/design.md#layout): both of its routes, the
 * listing or a sync (`GET /vendor/vacancies`) and one vacancy (`GET /vendor/vacancies/{id}`). Each request is read
 * here (the key's policy of use, the query string, `Accept-Language`, `Accept`, `If-None-Match`), answered by the core
 * (`domain/answers/`), and written here: the envelope with its links, the entity tags and 304s, the headers, the
 * core's refusals as HTTP's. (The function keeps its deployed name, "listing", in the template, metrics and logs.)
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { AnswerDependencies } from '../../domain/answers/dependencies';
import {
  ChangesPurgedError,
  InvalidQueryError,
  VACANCY_GONE,
  VacancyNotFoundError,
} from '../../domain/answers/errors';
import {
  type AnswerSources,
  type Asked,
  type ListingAnswer,
  listVacancies,
} from '../../domain/answers/listing';
import { showVacancy } from '../../domain/answers/one-vacancy';
import type { ListingQuery } from '../../domain/answers/query';
import { HeldEntries } from '../../domain/answers/search/held-entries';
import { recordServedPage, recordServedVacancy, type ServedPage } from '../../domain/answers/served';
import { jobPostingOf } from '../../domain/answers/settings';
import { syncVacancies } from '../../domain/answers/sync';
import { type AuthorizedVendor, requestVendor } from '../../domain/keys/context';
import { checkKeyUse } from '../../domain/keys/key-use';
import { FUNCTION_LIMITS } from '../../domain/service/limits';
import { VACANCY_ID_PARAMETER, VACANCY_RESOURCE } from '../../domain/service/routes';
import { cacheControl, findTier, rateLimitPolicy } from '../../domain/settings/rate-tiers';
import { serializeJobPosting, toJobPosting } from '../../domain/vacancy/job-posting';
import { negotiateLocale } from '../../domain/vacancy/locale';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { JSON_LD_CONTENT_TYPE, prefersJsonLd } from '../../platform/http/accept';
import { conditionalGet, ifNoneMatchMatches, notModified, strongETag } from '../../platform/http/conditional';
import { crossOriginHeaders, withHeaders } from '../../platform/http/cors';
import { HttpError, invalidInput, JSON_CONTENT_TYPE } from '../../platform/http/errors';
import { requestHeader } from '../../platform/http/headers';
import { httpRoute } from '../../platform/http/middleware';
import { listingBody, syncBody, type VacancyResponse } from './bodies';
import { summaryETag } from './etag';
import { routeUrl } from './links';
import { givesValue, readVacanciesQuery, readVacancyQuery } from './query-string';

/** What the one-vacancy route's answers vary by: it has two representations (docs/api.md#jobposting), by `Accept`. */
const VACANCY_VARY = 'Accept, Accept-Language';

/**
 * The core's refusals as HTTP's (docs/api.md#errors): invalid fields a 422 naming each; a vacancy not found the 404;
 * changes no longer kept a 410. Anything else as it is (a vacancy no longer open is an answer: `vacancy` says it).
 */
function httpErrorOf(error: unknown): unknown {
  if (error instanceof InvalidQueryError) return invalidInput(error.fields);
  if (error instanceof VacancyNotFoundError) return new HttpError(404, { message: error.message });
  if (error instanceof ChangesPurgedError) return new HttpError(410, { message: error.message });
  return error;
}

/** What the routes answer with: the core's sources (its settings too), the function's logger and metrics, its helpers. */
interface HttpDoor {
  readonly sources: AnswerSources;
  readonly logger: AnswerDependencies['logger'];
  readonly metrics: AnswerDependencies['metrics'];
  askedOf(
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    lang: ListingQuery['lang'],
    signal: AbortSignal,
  ): Asked;
  successHeaders(
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    locale: string,
    vary: string,
  ): Record<string, string>;
}

/**
 * `GET /vendor/vacancies`: a page of the listing or of a sync. A poll (`If-None-Match`) is answered 304 when the
 * tag it holds is the page's — the summary's, or the digest of the body (docs/design.md#etags): the core says
 * without reading the page when its version of the data proves it; otherwise the page is read, and for a page
 * tagged by its summary, the digest of these very bytes counts too (the tag the same body had while the summary
 * could not be trusted, in its writer's settle window, say).
 */
async function listPage(
  event: APIGatewayProxyEvent,
  vendor: AuthorizedVendor,
  signal: AbortSignal,
  door: HttpDoor,
): Promise<APIGatewayProxyResult> {
  const { sources, logger, metrics } = door;
  const { settings } = sources;
  const read = readVacanciesQuery(vendor.vendorId, event.multiValueQueryStringParameters);
  const asked = door.askedOf(event, vendor, read.query.lang, signal);
  const route = routeUrl(settings.publicBaseUrl, {
    domainName: event.requestContext.domainName ?? '',
    path: event.requestContext.path,
  });
  const ifNoneMatch = requestHeader(event, 'If-None-Match');
  const perPage = read.query.perPage ?? settings.defaultPerPage;
  let served: ServedPage;
  let body = '';
  let etag: string;
  if (read.kind === 'sync') {
    const answer = await syncVacancies(read.query, asked, sources);
    body = JSON.stringify(syncBody(answer, read.query, route));
    etag = strongETag(answer.locale, body);
    served = { ...answer, items: answer.changes.length };
  } else {
    const tagOf = (version: NonNullable<ListingAnswer['version']>) =>
      summaryETag(read.query, {
        company: vendor.company,
        version,
        zone: settings.clock.zone,
        locale: asked.locale,
        perPage,
        routeUrl: route,
      });
    const answer = await listVacancies(
      read.query,
      {
        ...asked,
        ...(ifNoneMatch !== undefined && {
          holds: (version) => ifNoneMatchMatches(ifNoneMatch, tagOf(version)),
        }),
      },
      sources,
    );
    if ('unchanged' in answer) {
      etag = tagOf(answer.version);
      served = { ...answer, items: 0, notModified: true };
    } else {
      body = JSON.stringify(listingBody(answer, read.query, route));
      // The body's own tag, a digest of its bytes: only without the summary's version, or for a poll that holds it.
      const own = () => strongETag(answer.locale, body);
      etag = answer.version ? tagOf(answer.version) : own();
      // The same bytes as a tag of their own: a client that holds them holds this body.
      if (ifNoneMatch !== undefined && answer.version && !ifNoneMatchMatches(ifNoneMatch, etag)) {
        const bodyTag = own();
        if (ifNoneMatchMatches(ifNoneMatch, bodyTag)) etag = bodyTag;
      }
      served = { ...answer, items: answer.vacancies.length };
    }
  }
  const unchanged =
    served.notModified === true || (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag));
  recordServedPage(
    logger,
    metrics,
    vendor.vendorId,
    unchanged ? { ...served, items: 0, notModified: true } : served,
    event.requestContext.requestId,
  );
  const headers = { ...door.successHeaders(event, vendor, asked.locale, 'Accept-Language'), ETag: etag };
  if (unchanged) return notModified(headers);
  return { statusCode: 200, headers, body };
}

/**
 * The vacancies routes — `GET /vendor/vacancies` and `GET /vendor/vacancies/{id}`, told apart by API Gateway's
 * resource — as one Middy-wrapped Lambda handler for API Gateway REST proxy events.
 */
export function createVacanciesHandler(dependencies: AnswerDependencies) {
  const { repository, settings, logger, metrics, now = () => new Date() } = dependencies;
  const reserveMs = dependencies.reserveMs ?? FUNCTION_LIMITS.listing.reserveMs;
  const sources: AnswerSources = {
    repository,
    settings,
    heldEntries: dependencies.heldEntries ?? new HeldEntries(),
  };

  /**
   * The headers of every 200 (and of the 304 standing for it) of both routes. A page (a publishable key, from one
   * of its origins: `checkKeyUse` let nothing else through) may keep the answer a minute; and reads it by CORS.
   */
  const successHeaders = (
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    locale: string,
    vary: string,
  ) => {
    const tier = findTier(settings.rateTiers, vendor.rateTier);
    if (!tier)
      logger.warn("The vendor's rate tier is not one of the deployment's", { rateTier: vendor.rateTier });
    const headers = {
      'Content-Type': JSON_CONTENT_TYPE,
      'Content-Language': locale,
      Vary: vary,
      'Cache-Control': cacheControl(vendor.keyKind),
      // So a client can pace itself (IETF draft "RateLimit header fields for HTTP").
      ...(tier && { 'RateLimit-Policy': rateLimitPolicy(vendor.rateTier, tier) }),
    };
    return withHeaders(headers, crossOriginHeaders(requestHeader(event, 'Origin'), true));
  };

  /** What a request is asked with: its vendor's company, its language, its time and deadline. */
  const askedOf = (
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    lang: ListingQuery['lang'],
    signal: AbortSignal,
  ) => ({
    company: vendor.company,
    locale: negotiateLocale(lang, requestHeader(event, 'Accept-Language'), settings.defaultLocale),
    now: now(),
    signal,
  });

  /**
   * `GET /vendor/vacancies/{id}`: one vacancy, as JSON or — when `Accept` prefers it — as a schema.org JobPosting;
   * `conditionalGet` tags its body and answers a matching poll 304. One of the vendor's that is no longer open is a
   * 410 saying since when.
   */
  const vacancy = async (
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    signal: AbortSignal,
  ): Promise<APIGatewayProxyResult> => {
    const query = readVacancyQuery(
      vendor.vendorId,
      event.pathParameters?.[VACANCY_ID_PARAMETER] ?? '',
      event.multiValueQueryStringParameters,
    );
    const asked = askedOf(event, vendor, query.lang, signal);
    const answer = await showVacancy(query, asked, sources);
    recordServedVacancy(logger, metrics, vendor.vendorId, answer, event.requestContext.requestId);
    // The 410 of a vacancy no longer open has the 404's headers, but is kept as long as a 200 of the route would be
    // (docs/api.md#one-vacancy); one body whatever Accept or the language, so no Vary of its own.
    if ('gone' in answer) {
      throw new HttpError(410, {
        message: VACANCY_GONE,
        fields: { closed_at: answer.closedAt },
        headers: { 'Cache-Control': cacheControl(vendor.keyKind) },
      });
    }
    const jsonLd = prefersJsonLd(requestHeader(event, 'Accept'));
    const body = jsonLd
      ? serializeJobPosting(
          toJobPosting(answer.vacancy, answer.object, vendor, answer.locale, {
            ...jobPostingOf(settings),
            clock: settings.clock,
          }),
        )
      : JSON.stringify({
          status: 'success',
          company: answer.company,
          data: answer.object,
        } satisfies VacancyResponse);
    return {
      statusCode: 200,
      headers: {
        ...successHeaders(event, vendor, answer.locale, VACANCY_VARY),
        'Content-Type': jsonLd ? JSON_LD_CONTENT_TYPE : JSON_CONTENT_TYPE,
      },
      body,
    };
  };

  const door: HttpDoor = { sources, logger, metrics, askedOf, successHeaders };

  const route = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    // Every line of this request carries API Gateway's request id, as its access log line does
    // (docs/operating.md#logs): one id finds both. Cleared after the invocation (`resetKeys`).
    logger.setCorrelationId(event.requestContext.requestId);
    const vendor = requestVendor(event);
    const listing = event.resource !== VACANCY_RESOURCE;
    // Who may ask (docs/api.md#from-a-web-page): before anything is read or validated.
    const sync = listing && givesValue(event.multiValueQueryStringParameters, 'updated_since');
    checkKeyUse(vendor, requestHeader(event, 'Origin'), sync);
    const signal = deadlineSignal(context, reserveMs);
    try {
      return await (listing ? listPage(event, vendor, signal, door) : vacancy(event, vendor, signal));
    } catch (error) {
      throw httpErrorOf(error);
    }
  };

  return httpRoute(route, { logger, metrics, reserveMs }, conditionalGet());
}
