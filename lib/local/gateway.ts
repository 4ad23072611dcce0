/**
 * The local stand-in for API Gateway: what it does for this API, as strictly as it does it (docs/api.md#the-local-server), around the real Lambda handlers.
 *
 * - CORS (docs/api.md#from-a-web-page): `OPTIONS` on a route is the preflight's 204, without a key; every
 *   gateway response to a request with an `Origin` carries the headers that let the page read it.
 * - Routing on the raw path, exactly: `/vendor/vacancies` and `/vendor/vacancies/{id}` (one non-empty segment,
 *   passed on decoded, as API Gateway decodes path parameters) to the listing function, GET only, and `/mcp` and
 *   `/mcp/{token}` (a public agent endpoint, behind the REQUEST authorizer on its token) to the MCP function, POST only (its body passed on as text; past API Gateway's 10 MB, a 413) — nothing that merely
 *   normalises to them (no `//`, `.` or `..` segments): 404; another method: 405.
 * - The identity source and `validationRegex`: a missing, repeated or malformed `Authorization` header is a 401
 *   without running the authorizer.
 * - Each Lambda invoked as Lambda would: the event and the result cross a JSON boundary, the function's timeout
 *   is enforced and its memory size reported as deployed, a thrown error is `{ errorType, errorMessage }`. The authorizer's "Unauthorized" is a 401, its
 *   other failures and its timeout the AUTHORIZER_FAILURE response (503); the policy decides 403; a failed or
 *   timed-out listing is a 502. The method requires an API key from the authorizer: none is INVALID_API_KEY.
 * - With a rate limiter (`--rate-limits`), each usage key is throttled by its tier, and all by the stage: 429.
 * - Requests past API Gateway's 10,240 bytes of request line and headers, requests that Node's HTTP parser refuses
 *   (bad bytes, an unknown `Expect`) and requests without `Host` are answered in the envelope too, with an
 *   `X-Request-Id` — and, like every other error, with the CORS headers when the request has an `Origin`. A query
 *   with a byte that must be percent-encoded (`?q=bakı` as curl sends it: raw UTF-8) is refused as API Gateway
 *   refuses the characters it does not take unencoded (docs/design.md#a-query-sent-unencoded), in a 400 naming the
 *   cause, and reported to the server's request log and summary like any answered request (`onRefused`).
 * - Client-chosen names (headers, parameters) are kept in `Map`s and null-prototype objects. The `Host` header
 *   is never used: the API's domain is the server's own address.
 * No authorizer cache: a revoked key is refused at once.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { authorizedVendor } from '../../lambda/domain/keys/context';
import { routeMethodNotAllowed, UNENCODED_QUERY } from '../../lambda/domain/service/gateway-answers';
import { FUNCTION_LIMITS, type FunctionName } from '../../lambda/domain/service/limits';
import {
  AGENT_TOKEN_PARAMETER,
  MCP_AGENT_RESOURCE,
  MCP_PATH,
  matchRoute,
  ROUTE_METHOD,
  ROUTE_PREFLIGHT,
} from '../../lambda/domain/service/routes';
import { AGENT_TIER } from '../../lambda/domain/settings/rate-tiers';
import { BEARER_HEADER_PATTERN } from '../../lambda/functions/authorizer/bearer';
import type { AuthorizerEvent } from '../../lambda/functions/authorizer/factory';
import { preflightHeaders } from '../../lambda/platform/http/cors';
import { ERROR_MESSAGES, RETRY_AFTER } from '../../lambda/platform/http/errors';
import {
  AUTHORIZER_UNAUTHORIZED_MESSAGE,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  renderGatewayResponse,
} from '../../lambda/platform/http/gateway-responses';
import { lambdaContext } from './lambda-runtime';
import { listingEvent } from './proxy-event';
import type { RateLimiter } from './rate-limiter';

/** A Lambda handler of API Gateway's REST proxy events. */
type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The Lambda handlers behind the API, exactly as deployed. */
export interface GatewayHandlers {
  /** The keys' TOKEN authorizer, which is also the public agent endpoints' REQUEST authorizer. */
  readonly authorizer: (event: AuthorizerEvent, context: Context) => Promise<APIGatewayAuthorizerResult>;
  readonly listing: ProxyHandler;
  /**
   * The MCP server's, `POST /mcp` and `POST /mcp/{token}`; the routes answer 404 without it, as a stage without them
   * would.
   */
  readonly mcp?: ProxyHandler;
}

/** How the stand-in runs. */
export interface GatewayOptions {
  /** The API's own domain as API Gateway would report it (`requestContext.domainName`): `127.0.0.1:<port>`. */
  readonly domainName: string;
  /** Each function's timeout, as deployed. */
  readonly timeoutsMs: { readonly authorizer: number; readonly listing: number; readonly mcp?: number };
  /** The usage plans' and the stage's throttling; none when absent (`npm start` without `--rate-limits`). */
  readonly rateLimiter?: RateLimiter;
  /**
   * Pages of the local server that are not the API's (the reference at `/docs`, the career page, the feeds under
   * `/feeds/`, before any key or rate limit): a handler that answers a request and returns true, or leaves it to the
   * gateway.
   */
  readonly localPages?: (request: IncomingMessage, response: ServerResponse, requestId: string) => boolean;
  /** Whether the server is stopping: a request that arrives then is refused (503), not started. */
  readonly stopping?: () => boolean;
}

/**
 * What a request that arrives while the server starts or stops gets: the 503 of a service that is not there, to
 * retry after `Retry-After`.
 */
const UNAVAILABLE: GatewayResponseDefinition = {
  statusCode: 503,
  message: ERROR_MESSAGES[503],
  headers: RETRY_AFTER,
};

/** API Gateway's limit on the request line and headers together, in bytes (its quotas page). */
export const MAX_HEADER_BYTES = 10_240;

/** API Gateway's limit on a request's payload, in bytes (its quotas page): past it, a 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A request's body as text (UTF-8, as API Gateway passes a body of a media type it does not treat as binary), or
 * undefined past `MAX_BODY_BYTES`.
 */
async function requestBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * What the server's HTTP parser takes (`maxHeaderSize`): well past `MAX_HEADER_BYTES`, so that an oversized request
 * is parsed, measured by the gateway (`headBytes`) and answered 400 with its `Origin`'s CORS headers, as API
 * Gateway's other errors are; only a head past this is refused by the parser itself (`answerRefusedRequests`).
 */
export const PARSER_MAX_HEADER_BYTES = 64 * 1024;

/** The bytes of a request's line and headers as it sent them (each header `name: value`), and the blank line. */
function headBytes(request: IncomingMessage): number {
  let bytes = Buffer.byteLength(`${request.method} ${request.url} HTTP/${request.httpVersion}\r\n\r\n`);
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2)
    bytes += Buffer.byteLength(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}\r\n`);
  return bytes;
}

/** A request's `Origin`, when it has one. */
const requestOrigin = (request: IncomingMessage) =>
  typeof request.headers.origin === 'string' ? request.headers.origin : undefined;

/**
 * The `Origin` of a request the parser refused, read from the bytes it gave up on (`rawPacket`) when they start
 * with the request line: then they are the head as sent, or its start. Whatever it finds is echoed only if
 * `crossOriginHeaders` finds it fit to be; a head split across packets has none.
 */
function refusedRequestOrigin(packet: Buffer | undefined): string | undefined {
  const [line, ...headers] = (packet?.toString('latin1') ?? '').split('\r\n\r\n', 1)[0]?.split('\r\n') ?? [];
  if (!line || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.[01]$/.test(line)) return undefined;
  const origins = headers.flatMap((header) => /^origin:[ \t]*(.*?)[ \t]*$/i.exec(header)?.[1] ?? []);
  return origins.length === 1 ? origins[0] : undefined;
}

const STAGE = 'local';
/** The ARN of the method a request calls, as API Gateway gives it to the authorizer: the path as requested. */
const methodArn = (method: string, path: string) =>
  `arn:aws:execute-api:local:000000000000:local/${STAGE}/${method}${path}`;
const BEARER_HEADER = new RegExp(BEARER_HEADER_PATTERN);

/** What invoking a Lambda function gave: its result, its error as Lambda reports it, or its timeout. */
type Invocation<Result> =
  | { readonly result: Result }
  | { readonly error: { readonly errorType: string; readonly errorMessage: string } }
  | { readonly timedOut: true };

/** What crosses the Lambda boundary: JSON, so the handler sees plain data and nothing else. */
const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null)) as T;

/**
 * Invokes a handler the way Lambda does: the event as JSON, a context counting down from the timeout, no
 * answer after the timeout (the handler cannot be stopped, but nothing waits for it), the error as
 * `{ errorType, errorMessage }`.
 */
async function invoke<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
  event: Event,
  functionName: FunctionName,
  timeoutMs: number,
): Promise<Invocation<Result>> {
  const { memoryMb } = FUNCTION_LIMITS[functionName];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Invocation<Result>>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
  });
  const run = (async (): Promise<Invocation<Result>> => {
    try {
      return {
        result: throughJson(
          await handler(throughJson(event), lambdaContext(functionName, { timeoutMs, memoryMb })),
        ),
      };
    } catch (error) {
      const { name = 'Error', message = String(error) } = error instanceof Error ? error : {};
      return { error: { errorType: name, errorMessage: message } };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether an IAM policy resource pattern (`*` wildcards) covers an ARN. */
function resourceMatches(pattern: string, arn: string): boolean {
  const expression = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${expression.join('.*')}$`).test(arn);
}

/** What API Gateway makes of an authorizer's policy for one method: an explicit Deny wins, then an Allow. */
function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const statement of result.policyDocument?.Statement ?? []) {
    const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
    if (!resources.some((resource) => resourceMatches(String(resource), methodArn))) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/**
 * The request's headers as API Gateway passes them on: each name as the client first wrote it (a repeated header,
 * in any case, keeps every value), and its own `X-Forwarded-Proto`, never the client's.
 */
function requestHeaders(request: IncomingMessage) {
  const byLowerName = new Map<string, { name: string; values: string[] }>();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] as string;
    const value = request.rawHeaders[i + 1] as string;
    const key = name.toLowerCase();
    if (key === 'x-forwarded-proto') continue;
    const entry = byLowerName.get(key) ?? { name, values: [] };
    entry.values.push(value);
    byLowerName.set(key, entry);
  }
  byLowerName.set('x-forwarded-proto', { name: 'X-Forwarded-Proto', values: ['http'] });
  return {
    headers: new Map([...byLowerName.values()].map(({ name, values }) => [name, values])),
    authorization: byLowerName.get('authorization')?.values ?? [],
  };
}

/** Writes a handler's proxy result; one that is not a valid proxy result is API Gateway's 502. */
function send(response: ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  if (!result || typeof result.statusCode !== 'number' || typeof (result.body ?? '') !== 'string') {
    sendGatewayResponse(response, GATEWAY_RESPONSES.DEFAULT_5XX, requestId, 502);
    return;
  }
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

function sendGatewayResponse(
  response: ServerResponse,
  definition: GatewayResponseDefinition,
  requestId: string,
  fallbackStatus?: number,
  origin?: string,
): void {
  const rendered = renderGatewayResponse(definition, requestId, fallbackStatus, origin);
  response.writeHead(rendered.statusCode, rendered.headers);
  response.end(rendered.body);
}

/** A gateway response as raw HTTP, for a socket that no `ServerResponse` serves. */
function rawGatewayResponse(
  definition: GatewayResponseDefinition,
  fallbackStatus: number,
  origin?: string,
  requestId: string = randomUUID(),
): string {
  const { statusCode, headers, body } = renderGatewayResponse(definition, requestId, fallbackStatus, origin);
  const lines = [
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** A path segment decoded as API Gateway decodes a path parameter; null when its percent-encoding is malformed. */
function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The path of a request target, without its query. */
const pathOf = (target: string) => target.split('?', 1)[0] ?? '';

/** A request the parser refused and the stand-in answered, as the server's log and summary count it. */
export interface RefusedRequest {
  readonly requestId: string;
  readonly requestTime: string;
  readonly method: string;
  /** The request target as sent, its bytes read as UTF-8. */
  readonly target: string;
  readonly status: number;
}

/**
 * The method and target of a request Node's parser refused for a byte of its query that must be percent-encoded:
 * its request line is whole and well formed but for that. Undefined for any other refusal.
 */
function unencodedQuery(error: Error & { code?: string; rawPacket?: Buffer }) {
  if (error.code !== 'HPE_INVALID_URL' || !error.rawPacket) return undefined;
  const line = error.rawPacket.toString('latin1').split('\r\n', 1)[0] ?? '';
  const parts = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([^ ]+) HTTP\/1\.[01]$/.exec(line);
  const [method, target] = [parts?.[1], parts?.[2]];
  if (method === undefined || target === undefined) return undefined;
  const query = target.indexOf('?');
  // The path is printable ASCII (its bad bytes are the parser's generic 400); the query holds the byte.
  if (query === -1 || !/^[\x21-\x7e]*$/.test(target.slice(0, query))) return undefined;
  if (/^[\x21-\x7e]*$/.test(target.slice(query))) return undefined;
  return { method, target: Buffer.from(target, 'latin1').toString('utf8') };
}

/**
 * Answers, in the envelope, the requests Node does not hand to the request handler: those its parser refuses
 * (unparsable bytes, a head past `PARSER_MAX_HEADER_BYTES`, methods not in upper case), `Expect` values other than
 * `100-continue` — all API Gateway's generic 400 — and `CONNECT`, which Node gives a listener of its own: past
 * `MAX_HEADER_BYTES` or without `Host` a 400, on the route a 405, elsewhere a 404, as for any other method. Each
 * with the CORS headers of the request's `Origin`, as far as it can be read.
 */
export function answerRefusedRequests(server: Server, onRefused?: (request: RefusedRequest) => void): void {
  server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
    const requestTime = new Date().toISOString();
    const origin = refusedRequestOrigin(error.rawPacket);
    const unencoded = unencodedQuery(error);
    const requestId = randomUUID();
    const definition = unencoded ? UNENCODED_QUERY : GATEWAY_RESPONSES.DEFAULT_4XX;
    if (socket.writable) socket.end(rawGatewayResponse(definition, 400, origin, requestId));
    else socket.destroy();
    if (unencoded) onRefused?.({ ...unencoded, requestId, requestTime, status: 400 });
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    response.shouldKeepAlive = false;
    sendGatewayResponse(response, GATEWAY_RESPONSES.DEFAULT_4XX, randomUUID(), 400, requestOrigin(request));
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const origin = requestOrigin(request);
    const matched = matchRoute(pathOf(request.url ?? ''));
    const answer =
      request.headers.host === undefined || headBytes(request) > MAX_HEADER_BYTES
        ? rawGatewayResponse(GATEWAY_RESPONSES.DEFAULT_4XX, 400, origin)
        : matched
          ? rawGatewayResponse(routeMethodNotAllowed(matched.route), 405, origin)
          : rawGatewayResponse(GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN, 404, origin);
    socket.end(answer);
  });
}

/**
 * The HTTP request handler of a server that listens but is not ready yet (`npm start` starting: the engine, the seed,
 * the functions): every request is answered at once, the 503 it gets while the server stops — in the envelope, with
 * `Retry-After`, an `X-Request-Id` and the CORS headers of its `Origin` — and its connection closed; none is held.
 */
export function notReadyGateway() {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const requestId = randomUUID();
    response.setHeader('X-Request-Id', requestId);
    response.shouldKeepAlive = false;
    sendGatewayResponse(response, UNAVAILABLE, requestId, undefined, requestOrigin(request));
  };
}

/** The HTTP request handler that plays API Gateway for this API (see the module's comment). */
export function createLocalGateway(handlers: GatewayHandlers, options: GatewayOptions) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    // On every answer, whoever writes it; and readable by the server's request log.
    response.setHeader('X-Request-Id', requestId);
    // As the deployed gateway responses map `method.request.header.Origin`: a page can read every answer.
    const origin = requestOrigin(request);
    const gatewayResponse = (definition: GatewayResponseDefinition, fallbackStatus?: number) =>
      sendGatewayResponse(response, definition, requestId, fallbackStatus, origin);

    // API Gateway's limit, measured here rather than by the parser, so that the 400 carries the CORS headers.
    if (headBytes(request) > MAX_HEADER_BYTES) {
      response.shouldKeepAlive = false;
      return gatewayResponse(GATEWAY_RESPONSES.DEFAULT_4XX, 400);
    }

    // HTTP/1.1 names the API by its Host: without one, API Gateway cannot route the request (Node's own
    // answer, an empty 400, is turned off so that this one is in the envelope). The value is never used.
    if (request.headers.host === undefined) return gatewayResponse(GATEWAY_RESPONSES.DEFAULT_4XX, 400);
    if (options.stopping?.()) {
      response.shouldKeepAlive = false;
      return gatewayResponse(UNAVAILABLE);
    }
    if (options.localPages?.(request, response, requestId)) return;

    const target = request.url ?? '';
    const queryStart = target.indexOf('?');
    const rawPath = pathOf(target);
    const matched = matchRoute(rawPath);
    const mcpRoute = matched?.route === MCP_PATH || matched?.route === MCP_AGENT_RESOURCE;
    if (!matched || (mcpRoute && !handlers.mcp))
      return gatewayResponse(GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN);
    if (request.method === 'OPTIONS') {
      // A page's preflight, answered by the gateway itself (a mock integration in AWS): no key, no function.
      response.writeHead(204, preflightHeaders(origin, ROUTE_PREFLIGHT[matched.route]));
      response.end();
      return;
    }
    const method = ROUTE_METHOD[matched.route];
    if (request.method !== method) return gatewayResponse(routeMethodNotAllowed(matched.route));
    const vacancyId = matched.id === undefined ? undefined : decodedSegment(matched.id);
    if (vacancyId === null) return gatewayResponse(GATEWAY_RESPONSES.DEFAULT_4XX, 400);
    const agentToken = matched.token === undefined ? undefined : decodedSegment(matched.token);
    if (agentToken === null) return gatewayResponse(GATEWAY_RESPONSES.DEFAULT_4XX, 400);

    const { headers, authorization } = requestHeaders(request);
    // The keys' routes: the TOKEN authorizer on the Authorization header (its identity source and validation
    // regex); a public agent endpoint: its own REQUEST authorizer on the path's token, whatever the headers.
    let authorizerEvent: AuthorizerEvent;
    if (agentToken !== undefined) {
      // What the authorizer reads of it: the path's token (its cache key on AWS) and the method's ARN.
      authorizerEvent = {
        type: 'REQUEST',
        methodArn: methodArn(method, rawPath),
        resource: MCP_AGENT_RESOURCE,
        path: rawPath,
        httpMethod: method,
        pathParameters: { [AGENT_TOKEN_PARAMETER]: agentToken },
        headers: null,
        multiValueHeaders: null,
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        stageVariables: null,
      } as unknown as APIGatewayRequestAuthorizerEvent;
    } else {
      const [token] = authorization;
      if (authorization.length !== 1 || token === undefined || !BEARER_HEADER.test(token)) {
        return gatewayResponse(GATEWAY_RESPONSES.UNAUTHORIZED);
      }
      authorizerEvent = { type: 'TOKEN', authorizationToken: token, methodArn: methodArn(method, rawPath) };
    }

    const authorized = await invoke(
      handlers.authorizer,
      authorizerEvent,
      'authorizer',
      options.timeoutsMs.authorizer,
    );
    if ('timedOut' in authorized) return gatewayResponse(GATEWAY_RESPONSES.AUTHORIZER_FAILURE);
    if ('error' in authorized) {
      // API Gateway's rule for Lambda authorizers: the error message "Unauthorized" is a 401; any other error
      // is a failed authorizer (AUTHORIZER_CONFIGURATION_ERROR, answered like AUTHORIZER_FAILURE).
      return gatewayResponse(
        authorized.error.errorMessage === AUTHORIZER_UNAUTHORIZED_MESSAGE
          ? GATEWAY_RESPONSES.UNAUTHORIZED
          : GATEWAY_RESPONSES.AUTHORIZER_CONFIGURATION_ERROR,
      );
    }
    const policy = authorized.result;
    if (!policyAllows(policy, methodArn(method, rawPath)))
      return gatewayResponse(GATEWAY_RESPONSES.ACCESS_DENIED);
    // The method requires an API key, taken from the authorizer (`apiKeySource: AUTHORIZER`); its usage plan
    // throttles the request.
    const usageKey = policy.usageIdentifierKey;
    if (!usageKey) return gatewayResponse(GATEWAY_RESPONSES.INVALID_API_KEY);
    // A public endpoint's tier is the agent tier, whether or not its token is one (docs/api.md#agents-mcp).
    const tier = agentToken !== undefined ? AGENT_TIER : (authorizedVendor(policy.context)?.rateTier ?? '');
    const admission = options.rateLimiter?.admit(usageKey, tier);
    if (admission === 'invalid-key') return gatewayResponse(GATEWAY_RESPONSES.INVALID_API_KEY);
    if (admission === 'throttled') return gatewayResponse(GATEWAY_RESPONSES.THROTTLED);

    // The body of a POST, as API Gateway hands it on (text; past its limit, a 413 and no function).
    const body = method === 'POST' ? await requestBody(request) : null;
    if (body === undefined) {
      response.shouldKeepAlive = false;
      return gatewayResponse(GATEWAY_RESPONSES.REQUEST_TOO_LARGE);
    }
    const event = listingEvent({
      query: queryStart === -1 ? '' : target.slice(queryStart + 1),
      headers,
      authorizer: { ...policy.context, principalId: policy.principalId },
      requestId,
      domainName: options.domainName,
      path: rawPath,
      stage: STAGE,
      sourceIp: request.socket.remoteAddress ?? '',
      protocol: `HTTP/${request.httpVersion}`,
      route: matched.route,
      ...(vacancyId !== undefined && { vacancyId }),
      ...(agentToken !== undefined && { agentToken }),
      ...(body !== null && { body }),
    });
    const [handler, name, timeoutMs] =
      mcpRoute && handlers.mcp
        ? ([handlers.mcp, 'mcp', options.timeoutsMs.mcp ?? options.timeoutsMs.listing] as const)
        : ([handlers.listing, 'listing', options.timeoutsMs.listing] as const);
    const listed = await invoke(handler, event, name, timeoutMs);
    // A failed or timed-out invocation: API Gateway answers 502 through DEFAULT_5XX.
    if (!('result' in listed)) return gatewayResponse(GATEWAY_RESPONSES.DEFAULT_5XX, 502);
    send(response, listed.result, requestId);
  };
}
