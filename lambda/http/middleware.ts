import { createHash } from 'node:crypto';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ERROR_HEADERS, ERROR_MESSAGES, type ErrorStatus, errorEnvelope, HttpError } from './errors';
import { requestHeader } from './headers';

/** A Middy middleware of an API Gateway (REST, v1 proxy) handler. */
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** Adds `X-Request-Id` — API Gateway's request id, also in the logs — to every response, errors included. */
export function requestIdHeader(): HttpMiddleware {
  const addHeader = (request: HttpRequest) => {
    if (!request.response) return;
    request.response.headers = {
      ...request.response.headers,
      'X-Request-Id': request.event.requestContext.requestId,
    };
  };
  return { after: addHeader, onError: addHeader };
}

/**
 * Rewrites the response `@middy/http-error-handler` made of an error into the contract's envelope. Register it
 * before the error handler: Middy runs `onError` in reverse order, so this runs after it. The message comes
 * from the contract's table by status, never from the error, so no internal detail can reach a client.
 */
export function errorEnvelopeBody(): HttpMiddleware {
  return {
    onError: (request) => {
      const { response, error } = request;
      if (!response) return;
      const message = ERROR_MESSAGES[response.statusCode as ErrorStatus] ?? ERROR_MESSAGES[500];
      const errors = error instanceof HttpError ? error.details.errors : undefined;
      response.body = JSON.stringify(errorEnvelope(message, request.event.requestContext.requestId, errors));
      response.headers = { ...response.headers, ...ERROR_HEADERS };
    },
  };
}

/** A strong validator of a representation: its language and its bytes. */
export function strongETag(contentLanguage: string, body: string): string {
  const digest = createHash('sha256').update(contentLanguage).update('\n').update(body).digest('base64url');
  return `"${digest.slice(0, 32)}"`;
}

/** Whether an `If-None-Match` value matches an entity tag (weak comparison, as RFC 9110 §13.1.2 asks). */
export function ifNoneMatchMatches(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((candidate) => candidate.trim() === '*' || opaque(candidate) === opaque(etag));
}

/** Headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS = ['ETag', 'Cache-Control', 'Vary', 'Content-Language'];

/**
 * Adds a strong `ETag` to every 200 and answers 304 without a body when `If-None-Match` matches it, so a
 * sync job polling an unchanged page downloads nothing.
 */
export function conditionalGet(): HttpMiddleware {
  return {
    after: (request) => {
      const { response } = request;
      if (response?.statusCode !== 200) return;
      const headers = { ...response.headers };
      headers.ETag = strongETag(String(headers['Content-Language'] ?? ''), response.body);
      response.headers = headers;
      const ifNoneMatch = requestHeader(request.event, 'If-None-Match');
      if (ifNoneMatch === undefined || !ifNoneMatchMatches(ifNoneMatch, headers.ETag)) return;
      request.response = {
        statusCode: 304,
        headers: Object.fromEntries(
          NOT_MODIFIED_HEADERS.flatMap((name) => (name in headers ? [[name, headers[name] as string]] : [])),
        ),
        body: '',
      };
    },
  };
}
