/**
 * The vacancies function's handler, as wiring (docs/design.md#layout): both of its routes — the listing or a sync
 * (`answers/answer.ts`) and one vacancy (`answers/one-vacancy.ts`) — with their key checks, conditional requests,
 * headers and reports. (The function keeps its deployed name, "listing", in the template, metrics and logs.)
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type AuthorizedVendor, requestVendor } from '../../domain/keys/context';
import { checkKeyUse } from '../../domain/keys/key-use';
import { answerVacancies } from '../../domain/answers/answer';
import { showVacancy } from '../../domain/answers/one-vacancy';
import type { ListingDependencies } from '../../domain/answers/dependencies';
import { givesValue } from '../../domain/answers/query';
import type { NotModifiedResult, VacanciesResult } from '../../domain/answers/request';
import { HeldEntries } from '../../domain/answers/search/held-entries';
import { recordServedPage, recordServedVacancy } from '../../domain/answers/served';
import { FUNCTION_LIMITS } from '../../domain/service/limits';
import { VACANCY_ID_PARAMETER, VACANCY_RESOURCE } from '../../domain/service/routes';
import { cacheControl, findTier, rateLimitPolicy } from '../../domain/settings/rate-tiers';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { conditionalGet, ifNoneMatchMatches, notModified, strongETag } from '../../platform/http/conditional';
import { crossOriginHeaders, withHeaders } from '../../platform/http/cors';
import { JSON_CONTENT_TYPE, vacancyGone } from '../../platform/http/errors';
import { requestHeader } from '../../platform/http/headers';
import { httpRoute } from '../../platform/http/middleware';

/** What the one-vacancy route's answers vary by: it has two representations (docs/api.md#jobposting), by `Accept`. */
const VACANCY_VARY = 'Accept, Accept-Language';

/**
 * A page's answer to its poll (docs/design.md#etags): the 304 when `If-None-Match` holds the page's tag — the
 * summary's, or without one the digest of the body — or, for a page tagged by its summary, the digest of these very
 * bytes: the tag the same body had while the summary could not be trusted (in its writer's settle window, say). The
 * body is then the one the client holds, byte for byte, and keeps its tag. Otherwise the 200, tagged.
 */
function answerToPoll(
  result: VacanciesResult | NotModifiedResult,
  body: string,
  ifNoneMatch: string | undefined,
): VacanciesResult | NotModifiedResult {
  if ('notModified' in result) return result;
  const own = () => strongETag(result.locale, body);
  const etag = result.etag ?? own();
  const matched =
    ifNoneMatch === undefined
      ? undefined
      : ifNoneMatchMatches(ifNoneMatch, etag)
        ? etag
        : result.etag !== undefined && ifNoneMatchMatches(ifNoneMatch, own())
          ? own()
          : undefined;
  if (matched === undefined) return { ...result, etag };
  const { pagination } = result.body;
  return {
    notModified: true,
    etag: matched,
    page: pagination.current_page,
    perPage: pagination.per_page,
    total: pagination.total,
    locale: result.locale,
    readUnits: result.readUnits,
    calls: result.calls,
    foreignItems: result.foreignItems,
  };
}

/**
 * The vacancies routes — `GET /vendor/vacancies` and `GET /vendor/vacancies/{id}`, told apart by API Gateway's
 * resource — as one Middy-wrapped Lambda handler for API Gateway REST proxy events.
 */
export function createVacanciesHandler(dependencies: ListingDependencies) {
  const { repository, settings, logger, metrics, now = () => new Date() } = dependencies;
  const reserveMs = dependencies.reserveMs ?? FUNCTION_LIMITS.listing.reserveMs;
  const heldEntries = dependencies.heldEntries ?? new HeldEntries();

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

  /** `GET /vendor/vacancies`: a page of the listing or of a sync. */
  const listPage = async (
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    signal: AbortSignal,
  ): Promise<APIGatewayProxyResult> => {
    const result = await answerVacancies(
      {
        vendor,
        parameters: event.multiValueQueryStringParameters,
        acceptLanguage: requestHeader(event, 'Accept-Language'),
        ifNoneMatch: requestHeader(event, 'If-None-Match'),
        location: { domainName: event.requestContext.domainName ?? '', path: event.requestContext.path },
        now: now(),
        signal,
      },
      repository,
      settings,
      heldEntries,
    );
    const body = 'notModified' in result ? '' : JSON.stringify(result.body);
    const answered = answerToPoll(result, body, requestHeader(event, 'If-None-Match'));
    recordServedPage(logger, metrics, vendor, answered, event.requestContext.requestId);
    const headers = {
      ...successHeaders(event, vendor, answered.locale, 'Accept-Language'),
      // The summary's tag, or the body's (docs/design.md#etags).
      ...(answered.etag && { ETag: answered.etag }),
    };
    if ('notModified' in answered) return notModified(headers);
    return { statusCode: 200, headers, body };
  };

  /**
   * `GET /vendor/vacancies/{id}`: one vacancy; `conditionalGet` tags its body and answers a matching poll 304. One of
   * the vendor's that is no longer open is a 410 saying since when.
   */
  const vacancy = async (
    event: APIGatewayProxyEvent,
    vendor: AuthorizedVendor,
    signal: AbortSignal,
  ): Promise<APIGatewayProxyResult> => {
    const result = await showVacancy(
      {
        vendor,
        id: event.pathParameters?.[VACANCY_ID_PARAMETER] ?? '',
        parameters: event.multiValueQueryStringParameters,
        acceptLanguage: requestHeader(event, 'Accept-Language'),
        accept: requestHeader(event, 'Accept'),
        now: now(),
        signal,
      },
      repository,
      settings,
    );
    recordServedVacancy(logger, metrics, vendor, result, event.requestContext.requestId);
    if ('gone' in result) {
      // The 410 of a vacancy no longer open is an error envelope (the error middleware writes it) with the 404's
      // headers, but kept as long as a 200 of the route would be (docs/api.md#one-vacancy); one body whatever
      // Accept or the language, so no Vary of its own.
      throw vacancyGone(result.closedAt, { 'Cache-Control': cacheControl(vendor.keyKind) });
    }
    return {
      statusCode: 200,
      headers: {
        ...successHeaders(event, vendor, result.locale, VACANCY_VARY),
        'Content-Type': result.contentType,
      },
      body: result.body,
    };
  };

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
    return !listing ? vacancy(event, vendor, signal) : listPage(event, vendor, signal);
  };

  return httpRoute(route, { logger, metrics, reserveMs }, conditionalGet());
}
