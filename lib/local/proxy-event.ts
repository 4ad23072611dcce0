/**
 * API Gateway's REST proxy event (v1) for `GET /vendor/vacancies`, `GET /vendor/vacancies/{id}`, `POST /mcp` and `POST /mcp/{token}`, built one way for the local server's stand-in
 * for API Gateway, the tests and the benchmark: query and headers in the single- and multi-value maps API Gateway
 * fills (a repeated name keeps every value; the single map the last), client-chosen names in null-prototype maps.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  AGENT_TOKEN_PARAMETER,
  LISTING_PATH,
  MCP_AGENT_RESOURCE,
  MCP_PATH,
  ROUTE_METHOD,
  type Route,
  VACANCY_ID_PARAMETER,
  VACANCY_RESOURCE,
} from '../../lambda/domain/service/routes';

/** A map from client-chosen names with no prototype: `__proto__` or `constructor` is just another name. */
export function namedMap<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const map: Record<string, V> = Object.create(null);
  for (const [name, value] of entries) map[name] = value;
  return map;
}

/** The query parameters of a raw query string as API Gateway decodes them: every value of every name. */
export function queryParameters(rawQuery: string): {
  readonly single: Record<string, string> | null;
  readonly multi: Record<string, string[]> | null;
} {
  const multi = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    multi.set(name, [...(multi.get(name) ?? []), value]);
  }
  if (multi.size === 0) return { single: null, multi: null };
  return {
    single: namedMap([...multi].map(([name, values]) => [name, values.at(-1) ?? ''] as const)),
    multi: namedMap(multi),
  };
}

/** What a listing request is made of. */
export interface ListingEventInput {
  /** The raw query string, as the client wrote it (`type=1&lang=en`); none when absent. */
  readonly query?: string;
  /** Each header's values, under the name the client first wrote it with. */
  readonly headers?: ReadonlyMap<string, readonly string[]>;
  /** The authorizer's context (`lambda/domain/keys/context.ts`); null when no authorizer ran. */
  readonly authorizer: Record<string, unknown> | null;
  readonly requestId: string;
  /** The API's own domain name (`requestContext.domainName`), never the client's `Host`. */
  readonly domainName: string;
  /** The path as the client sent it, stage or base path included (`requestContext.path`). */
  readonly path: string;
  readonly stage: string;
  readonly sourceIp?: string;
  /** `HTTP/1.1` unless given. */
  readonly protocol?: string;
  /** The route, as API Gateway names its resource; the listing's unless given. */
  readonly route?: Route;
  /** The vacancy's route: its `{id}` segment, decoded as API Gateway decodes path parameters. */
  readonly vacancyId?: string;
  /** A public agent endpoint's route: its `{token}` segment, decoded as API Gateway decodes path parameters. */
  readonly agentToken?: string;
  /** A POST's body, as text (the MCP route's JSON-RPC message); none for a GET. */
  readonly body?: string;
}

/**
 * The proxy event of a `GET /vendor/vacancies`, `GET /vendor/vacancies/{id}`, `POST /mcp` or `POST /mcp/{token}`
 * request.
 */
export function listingEvent(input: ListingEventInput): APIGatewayProxyEvent {
  const query = queryParameters(input.query ?? '');
  const headers = [...(input.headers ?? new Map<string, readonly string[]>())];
  const route = input.route ?? LISTING_PATH;
  const id = route === VACANCY_RESOURCE ? (input.vacancyId ?? '') : undefined;
  const token = route === MCP_AGENT_RESOURCE ? (input.agentToken ?? '') : undefined;
  const method = ROUTE_METHOD[route];
  return {
    resource: route,
    path:
      id !== undefined
        ? `${LISTING_PATH}/${id}`
        : token !== undefined
          ? `${MCP_PATH}/${encodeURIComponent(token)}`
          : route,
    httpMethod: method,
    headers: namedMap(headers.map(([name, values]) => [name, values.at(-1) ?? ''] as const)),
    multiValueHeaders: namedMap(headers.map(([name, values]) => [name, [...values]] as const)),
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters:
      id !== undefined
        ? namedMap([[VACANCY_ID_PARAMETER, id]])
        : token !== undefined
          ? namedMap([[AGENT_TOKEN_PARAMETER, token]])
          : null,
    stageVariables: null,
    body: input.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: input.authorizer,
      domainName: input.domainName,
      httpMethod: method,
      identity: { sourceIp: input.sourceIp ?? '' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: input.path,
      protocol: input.protocol ?? 'HTTP/1.1',
      requestId: input.requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: route,
      stage: input.stage,
    },
  };
}
