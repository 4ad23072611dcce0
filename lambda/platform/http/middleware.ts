/**
 * The API's HTTP routes as Middy handlers: `httpRoute` wraps a route in what every route of the API has — the
 * logger's context, the function's metrics, the error envelope, `X-Request-Id` and a last-resort 503 — and the
 * middlewares it uses are small factories in Middy's style. None depends on another's position: the error
 * middleware builds the whole error response itself, and the others only add to a successful one. The
 * conditional-request middleware, which a route may add, is `conditional.ts`'s.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddlewareObj, type Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { FunctionMetrics } from '../observability/metrics';
import { crossOriginHeaders, withHeaders } from './cors';
import { errorResponse, serviceUnavailable, toHttpError } from './errors';
import { requestHeader } from './headers';

/** A Middy middleware of an API Gateway (REST, v1 proxy) handler. */
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

const requestIdOf = (request: HttpRequest) => request.event.requestContext.requestId;

/**
 * Turns anything a handler or middleware throws into the error envelope: status from the error's type
 * (`toHttpError`), message from the table of messages, `Retry-After` on 503, `Cache-Control: no-store`,
 * `X-Request-Id`, and for a request from a page the CORS headers that let it read why (`cors.ts`). It owns the
 * whole response, so no other middleware's order can spoil it. 5XX answers are
 * logged as errors, with their cause; the client learns nothing of it.
 */
export function errorResponses(logger: Logger): HttpMiddleware {
  return {
    onError: (request) => {
      const error = toHttpError(request.error);
      if (error.statusCode >= 500) {
        logger.error('Request failed', { status: error.statusCode, error: error.cause ?? error });
      }
      const response = errorResponse(error, requestIdOf(request));
      const origin = requestHeader(request.event, 'Origin');
      request.response = {
        ...response,
        headers: withHeaders(response.headers, crossOriginHeaders(origin, true)),
      };
    },
  };
}

/** Adds `X-Request-Id` — API Gateway's request id, also in the logs — to a successful response. */
export function requestIdHeader(): HttpMiddleware {
  return {
    after: (request) => {
      if (!request.response) return;
      request.response.headers = { ...request.response.headers, 'X-Request-Id': requestIdOf(request) };
    },
  };
}

/** What `httpRoute` wraps a route with. */
export interface HttpRouteOptions {
  readonly logger: Logger;
  readonly metrics: FunctionMetrics;
  /** Kept back from the remaining time to answer in (docs/design.md#time-budget). */
  readonly reserveMs: number;
}

/**
 * A route as the API's Lambda handler, for API Gateway REST proxy events: the logger's context for the invocation
 * (never the event, which carries the `Authorization` header), the function's metrics (published answered or not,
 * and `ColdStart` once per container), the error envelope, `X-Request-Id`, then `extra` (a conditional
 * GET). Should something other than DynamoDB hold the request past its deadline, Middy answers in its place just
 * before Lambda's timeout, and that answer is the 503 too.
 */
export function httpRoute(
  route: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>,
  { logger, metrics, reserveMs }: HttpRouteOptions,
  ...extra: readonly HttpMiddleware[]
) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(route, {
    timeoutEarlyInMillis: Math.floor(reserveMs / 2),
    timeoutEarlyResponse: () => {
      throw serviceUnavailable(new Error('The request ran out of time'));
    },
  })
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(metrics.middleware)
    .use(errorResponses(logger))
    .use(requestIdHeader());
  for (const middleware of extra) handler.use(middleware);
  return handler;
}
