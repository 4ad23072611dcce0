import type { APIGatewayProxyEvent } from 'aws-lambda';
import { VACANCY_RESOURCE } from '../lambda/domain/service/routes';
import { listingEvent as proxyEvent, queryParameters } from '../lib/local/proxy-event';

/** What a test request differs in. */
export interface TestRequest {
  /** The raw query string, as a client would write it (`type=1&lang=en`). */
  readonly query?: string;
  readonly headers?: Record<string, string>;
  /** The authorizer's context (its `rateTier` is `standard` unless given); null means no authorizer ran. */
  readonly authorizer?: Record<string, string> | null;
  readonly requestId?: string;
  readonly domainName?: string;
  readonly path?: string;
  /** The `{id}` of `GET /vendor/vacancies/{id}` (as API Gateway passes it on); the listing's route when absent. */
  readonly vacancyId?: string;
}

/** A raw query string decoded into the multi-value map API Gateway builds: every value of every name. */
export const multiValueQuery = (query: string): Record<string, string[]> =>
  queryParameters(query).multi ?? {};

/**
 * A `GET /vendor/vacancies` proxy event of the `prod` stage of `api.example.com`, for vendor `acme` unless the
 * request says otherwise.
 */
export function listingEvent(request: TestRequest = {}): APIGatewayProxyEvent {
  const headers = { Host: 'api.example.com', 'X-Forwarded-Proto': 'https', ...request.headers };
  return proxyEvent({
    ...(request.vacancyId !== undefined && { route: VACANCY_RESOURCE, vacancyId: request.vacancyId }),
    query: request.query ?? '',
    headers: new Map(Object.entries(headers).map(([name, value]) => [name, [value]])),
    authorizer:
      request.authorizer === null
        ? null
        : { vendorId: 'acme', company: 'Acme LLC', rateTier: 'standard', ...request.authorizer },
    requestId: request.requestId ?? 'req-1',
    domainName: request.domainName ?? 'api.example.com',
    path:
      request.path ??
      (request.vacancyId === undefined
        ? '/prod/vendor/vacancies'
        : `/prod/vendor/vacancies/${request.vacancyId}`),
    stage: 'prod',
  });
}

/** A `GET /vendor/vacancies/{id}` proxy event: `listingEvent` with the vacancy's route. */
export const vacancyEvent = (id: string, request: TestRequest = {}): APIGatewayProxyEvent =>
  listingEvent({ ...request, vacancyId: id });
