/**
 * Conditional requests (RFC 9110 §13; docs/design.md#etags): strong entity tags, `If-None-Match`, the 304. The
 * handler may give a tag of its own (from what the data is known to be) and answer a 304 before reading anything;
 * otherwise the middleware tags the body's bytes. Read strictly: an `If-None-Match` that is neither `*` nor a list of
 * entity tags, and an `If-Modified-Since` that is not an HTTP-date (`httpDate`), are conditions not given — a 200,
 * never a 304 taken from a value read leniently.
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

/** An entity tag, weak or strong (RFC 9110 §8.8.3: `[W/] DQUOTE *etagc DQUOTE`). */
const ENTITY_TAG = String.raw`(?:W/)?"[\x21\x23-\x7E\x80-\xFF]*"`;

/** Every entity tag of a header (`String.prototype.match` starts a global search at the start each time). */
const ENTITY_TAGS = new RegExp(ENTITY_TAG, 'g');

/** A list of entity tags (`#entity-tag`: commas, optional whitespace, empty members allowed). */
export const ENTITY_TAG_LIST = new RegExp(
  `^[ \\t]*(?:${ENTITY_TAG})?(?:[ \\t]*,[ \\t]*(?:${ENTITY_TAG})?)*[ \\t]*$`,
);

/** A field value without its optional whitespace (RFC 9110 §5.6.3: spaces and tabs). */
const withoutOws = (value: string) => value.replace(/^[ \t]+|[ \t]+$/g, '');

/**
 * Whether an `If-None-Match` value matches an entity tag (weak comparison, as RFC 9110 §13.1.2 asks): `*` alone, or a
 * list naming it. A value that is neither (`"a", *`, an unquoted tag, text around a tag) matches nothing: the
 * condition is not one, and the answer is the 200.
 */
export function ifNoneMatchMatches(ifNoneMatch: string, etag: string): boolean {
  if (withoutOws(ifNoneMatch) === '*') return true;
  if (!isIfNoneMatch(ifNoneMatch)) return false;
  const opaque = (tag: string) => tag.replace(/^W\//, '');
  return (ifNoneMatch.match(ENTITY_TAGS) ?? []).some((tag) => opaque(tag) === opaque(etag));
}

/** Whether a value is an `If-None-Match` (RFC 9110 §13.1.2): `*`, or a list of entity tags. */
export const isIfNoneMatch = (value: string): boolean =>
  withoutOws(value) === '*' || ENTITY_TAG_LIST.test(value);

const DAY_NAME = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const DAY_NAME_LONG = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME_OF_DAY = '(\\d{2}):(\\d{2}):(\\d{2})';
/** The forms of an HTTP-date (RFC 9110 §5.6.7), case-sensitive: day, month, year and time as each writes them. */
export const HTTP_DATE_FORMS = {
  /** `Sun, 06 Nov 1994 08:49:37 GMT` */
  imfFixdate: new RegExp(`^${DAY_NAME}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME_OF_DAY} GMT$`),
  /** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete) */
  rfc850: new RegExp(`^${DAY_NAME_LONG}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME_OF_DAY} GMT$`),
  /** `Sun Nov  6 08:49:37 1994` (obsolete, C's asctime) */
  asctime: new RegExp(`^${DAY_NAME} ${MONTH} ( \\d|\\d{2}) ${TIME_OF_DAY} (\\d{4})$`),
} as const;
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An HTTP-date (RFC 9110 §5.6.7) as milliseconds since 1970, or undefined when the text is not one: exactly one of
 * its three forms — IMF-fixdate, and the obsolete RFC 850 and asctime forms — naming a real day and a time up to
 * 23:59:60 (a leap second). An RFC 850 date's two-digit year is the one that is at most 50 years after `now`, as the
 * RFC asks. The day's name is not checked against the date. What a lenient parser reads as a date (`2100`, ISO 8601,
 * `gmt`) is none, and `If-Modified-Since` holding it is ignored (§13.1.3).
 */
export function httpDate(text: string, now: number = Date.now()): number | undefined {
  const date = httpDateFields(text, now);
  if (!date) return undefined;
  const month = MONTHS.indexOf(date.month);
  const [day, hour, minute, second] = [date.day, date.hour, date.minute, date.second].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  // setUTCFullYear, not Date.UTC, which reads a year below 100 as 19xx.
  const midnight = new Date(0);
  midnight.setUTCFullYear(date.year, month, day);
  if (midnight.getUTCMonth() !== month || midnight.getUTCDate() !== day) return undefined;
  return midnight.getTime() + ((hour * 60 + minute) * 60 + second) * 1000;
}

/** A match of an HTTP-date's form: the text, then its seven fields. */
type Fields = [string, string, string, string, string, string, string];

/** The fields of an HTTP-date's form, as written (a two-digit year made four); undefined when it is none of them. */
function httpDateFields(text: string, now: number) {
  const imf = HTTP_DATE_FORMS.imfFixdate.exec(text);
  if (imf) {
    const [, day, month, year, hour, minute, second] = imf as unknown as Fields;
    return { day, month, year: Number(year), hour, minute, second };
  }
  const rfc850 = HTTP_DATE_FORMS.rfc850.exec(text);
  if (rfc850) {
    const [, day, month, yy, hour, minute, second] = rfc850 as unknown as Fields;
    const thisYear = new Date(now).getUTCFullYear();
    const year = thisYear - (thisYear % 100) + Number(yy);
    return { day, month, year: year > thisYear + 50 ? year - 100 : year, hour, minute, second };
  }
  const asctime = HTTP_DATE_FORMS.asctime.exec(text);
  if (asctime) {
    const [, month, day, hour, minute, second, year] = asctime as unknown as Fields;
    return { day, month, year: Number(year), hour, minute, second };
  }
  return undefined;
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
