/**
 * The listing's HTTP middlewares, small factories in Middy's style. None depends on another's position: the
 * error middleware builds the whole error response itself, and the others only add to a successful one.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { errorResponse, toHttpError } from './errors';
import { requestHeader } from './headers';

/** A Middy middleware of an API Gateway (REST, v1 proxy) handler. */
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

const requestIdOf = (request: HttpRequest) => request.event.requestContext.requestId;

/**
 * Turns anything a handler or middleware throws into the error envelope: status from the error's type
 * (`toHttpError`), message from the table of messages, `Retry-After` on 503, `Cache-Control: no-store`,
 * `X-Request-Id`. It owns the whole response, so no other middleware's order can spoil it. 5XX answers are
 * logged as errors, with their cause; the client learns nothing of it.
 */
export function errorResponses(logger: Logger): HttpMiddleware {
  return {
    onError: (request) => {
      const error = toHttpError(request.error);
      if (error.statusCode >= 500) {
        logger.error('Request failed', { status: error.statusCode, error: error.cause ?? error });
      }
      request.response = errorResponse(error, requestIdOf(request));
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

/**
 * A strong validator of a representation from its language and its bytes (`"b…"`; a handler may give a tag of its
 * own instead, docs/design.md#etags).
 */
export function strongETag(contentLanguage: string, body: string): string {
  const digest = createHash('sha256').update(contentLanguage).update('\n').update(body).digest('base64url');
  return `"b${digest.slice(0, 32)}"`;
}

/** Whether an `If-None-Match` value matches an entity tag (weak comparison, as RFC 9110 §13.1.2 asks). */
export function ifNoneMatchMatches(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((candidate) => candidate.trim() === '*' || opaque(candidate) === opaque(etag));
}

/** Headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5), and the request id. */
const NOT_MODIFIED_HEADERS = ['ETag', 'Cache-Control', 'Vary', 'Content-Language', 'X-Request-Id'];

/** The 304 that stands for a 200 with these headers: no body, the headers RFC 9110 asks to repeat. */
export function notModified(headers: APIGatewayProxyResult['headers']): APIGatewayProxyResult {
  const given = headers ?? {};
  return {
    statusCode: 304,
    headers: Object.fromEntries(
      NOT_MODIFIED_HEADERS.flatMap((name) =>
        Object.hasOwn(given, name) ? [[name, String(given[name])]] : [],
      ),
    ),
    body: '',
  };
}

/**
 * Gives every 200 a strong `ETag` — the handler's own, or else the digest of the body — and answers 304 without a
 * body when `If-None-Match` matches it, so a sync job polling an unchanged page downloads nothing. (A handler that
 * can tell the tag without reading the page answers its own 304 earlier, through `notModified`.)
 */
export function conditionalGet(): HttpMiddleware {
  return {
    after: (request) => {
      const { response } = request;
      if (response?.statusCode !== 200) return;
      const headers = { ...response.headers };
      headers.ETag ??= strongETag(String(headers['Content-Language'] ?? ''), response.body);
      response.headers = headers;
      const ifNoneMatch = requestHeader(request.event, 'If-None-Match');
      if (ifNoneMatch === undefined || !ifNoneMatchMatches(ifNoneMatch, String(headers.ETag))) return;
      request.response = notModified(headers);
    },
  };
}
