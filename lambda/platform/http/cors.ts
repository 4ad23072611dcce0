/**
 * Cross-origin requests (docs/api.md#from-a-web-page): the CORS headers of every answer to a request that carries an
 * `Origin` — the functions', API Gateway's own (its gateway responses) and the preflight's — written once for the
 * functions, the stack and the local server. What each route's preflight allows is the service's to say.
 */

/** The headers a page may read of an answer, besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = 'ETag, Retry-After, X-Request-Id, Content-Language, RateLimit-Policy';

/** What a preflight allows: the methods, the request headers a page sends, and how long it may be kept. */
export interface Preflight {
  readonly methods: string;
  readonly headers: string;
  readonly maxAgeSeconds: number;
}

/** An `Origin` value fit to be echoed in a header: printable ASCII, no blank, of a sane length. */
const ECHOABLE = /^[\x21-\x7e]{1,2048}$/;

/**
 * The CORS headers of an answer to a request whose `Origin` is `origin` (none without one): `Vary: Origin` and the
 * exposed headers always; `Access-Control-Allow-Origin` echoing it when `allow` — an error always allows it, so the
 * page can read why. Never `*`, never credentials.
 */
export function crossOriginHeaders(origin: string | undefined, allow: boolean): Record<string, string> {
  if (origin === undefined) return {};
  return {
    ...(allow && ECHOABLE.test(origin) && { 'Access-Control-Allow-Origin': origin }),
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Vary: 'Origin',
  };
}

/**
 * The headers of a preflight's 204: any origin, since a preflight carries no key (the request it precedes decides).
 */
export function preflightHeaders(origin: string | undefined, preflight: Preflight): Record<string, string> {
  return {
    ...crossOriginHeaders(origin, true),
    'Access-Control-Allow-Methods': preflight.methods,
    'Access-Control-Allow-Headers': preflight.headers,
    'Access-Control-Max-Age': String(preflight.maxAgeSeconds),
  };
}

/** `headers` with `more` added, `Vary` values joined rather than replaced. */
export function withHeaders(
  headers: Readonly<Record<string, string>>,
  more: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged: Record<string, string> = { ...headers, ...more };
  if (headers.Vary && more.Vary) merged.Vary = `${headers.Vary}, ${more.Vary}`;
  return merged;
}
