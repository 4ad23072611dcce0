/**
 * Conditional requests (RFC 9110 §13; docs/design.md#etags): strong entity tags, `If-None-Match`, the 304. The
 * handler may give a tag of its own (from what the data is known to be) and answer a 304 before reading anything; otherwise the
 * middleware tags the body's bytes.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { requestHeader } from './headers';
import type { HttpMiddleware } from './middleware';

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
const NOT_MODIFIED_HEADERS = [
  'ETag',
  'Cache-Control',
  'Vary',
  'Content-Language',
  'X-Request-Id',
  // A page reads a 304 as it reads the 200 (docs/api.md#from-a-web-page).
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
];

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
