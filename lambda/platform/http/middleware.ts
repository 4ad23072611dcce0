/**
 * The listing's HTTP middlewares, small factories in Middy's style. None depends on another's position: the
 * error middleware builds the whole error response itself, and the others only add to a successful one. The
 * conditional-request middleware is `conditional.ts`'s.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { crossOriginHeaders, withHeaders } from './cors';
import { errorResponse, toHttpError } from './errors';
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
