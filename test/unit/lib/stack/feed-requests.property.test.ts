/**
 * The CloudFront Function in front of the feeds, run as CloudFront runs it (its code alone, in a context of its own):
 * for random paths and `Accept-Encoding` headers, it answers the 404 exactly where the local server's `feedFileOf`
 * finds no feed's file, and asks for the gzipped object exactly where `acceptsGzip` takes gzip; and it passes on to
 * CloudFront's cache an `If-Modified-Since` exactly when it is an HTTP-date (`httpDate`), and an `If-None-Match`
 * exactly when it is one (`isIfNoneMatch`): what the local server ignores, CloudFront never sees.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { FEED_NOT_FOUND_TEXT, newFeedToken } from '../../../../lambda/domain/feed-registry/feed';
import { httpDate, isIfNoneMatch } from '../../../../lambda/platform/http/conditional';
import { acceptsGzip, feedFileOf } from '../../../../lib/local/feed-serving';
import { feedRequestCode } from '../../../../lib/stack/feed-requests';

interface Answer {
  readonly statusCode?: number;
  readonly uri?: string;
  readonly headers?: Record<string, { value: string; multiValue?: { value: string }[] }>;
  readonly body?: { encoding: string; data: string };
}

const handler = runInNewContext(`${feedRequestCode()}\nhandler;`, {}) as (event: unknown) => Answer;

const viewerRequest = (uri: string, acceptEncoding?: string, conditions: Record<string, string> = {}) =>
  handler({
    version: '1.0',
    request: {
      method: 'GET',
      uri,
      querystring: {},
      headers: {
        ...(acceptEncoding !== undefined && { 'accept-encoding': { value: acceptEncoding } }),
        ...Object.fromEntries(Object.entries(conditions).map(([name, value]) => [name, { value }])),
      },
      cookies: {},
    },
  });

const token = fc
  .constantFrom(newFeedToken(), newFeedToken())
  .chain((good) =>
    fc.oneof(
      fc.constant(good),
      fc.stringMatching(/^[A-Za-z0-9_-]{30,34}$/),
      fc.constant(`${good.slice(0, 31)}%`),
      fc.constant('..'),
    ),
  );
const file = fc.oneof(
  fc.constantFrom('indeed.xml', 'sitemap.xml', 'sitemap-1.xml', 'sitemap-999999.xml', 'sitemap-0.xml'),
  fc.constantFrom('sitemap-1000000.xml', 'indeed.xml.gz', 'Indeed.xml', 'indeed.xml/', ''),
  fc.stringMatching(/^[a-z0-9.-]{0,16}$/),
);
const path = fc.oneof(
  fc
    .tuple(fc.constantFrom('/feeds/', '/feeds//', '/feed/', '/', '/FEEDS/'), token, file)
    .map(([prefix, t, f]) => `${prefix}${t}/${f}`),
  fc.tuple(token, file, file).map(([t, f, more]) => `/feeds/${t}/${f}/${more}`),
  fc.string({ maxLength: 60 }).map((rest) => `/${rest}`),
);
const coding = fc.constantFrom('gzip', 'x-gzip', 'GZIP', '*', 'br', 'deflate', 'identity', 'zstd', ' gzip ');
const weight = fc.oneof(
  fc.constantFrom(
    '',
    ';q=0',
    ';q=0.0',
    ';q=1',
    ';q=0.5',
    ';Q=0.001',
    '; q = 0',
    ';q=x',
    ';level=1',
    ';q=1e5',
    ';q=0.5000',
    ';q=1.001',
    ';q=1.',
    ' ; q=0.5',
    ';q=0.5;q=1',
  ),
  fc.stringMatching(/^;q=[0-9.e+-]{0,6}$/),
);
const acceptEncoding = fc.option(
  fc.oneof(
    fc
      .array(
        fc.tuple(coding, weight).map(([c, w]) => `${c}${w}`),
        { maxLength: 4 },
      )
      .map((m) => m.join(',')),
    fc.string({ maxLength: 30 }),
  ),
  { nil: undefined },
);

describe("the feeds' viewer-request function", () => {
  it('answers the 404 where the local server finds no file, and picks the encoding it would', () => {
    fc.assert(
      fc.property(path, acceptEncoding, (uri, encoding) => {
        const answer = viewerRequest(uri, encoding);
        if (!feedFileOf(uri)) {
          expect(answer.statusCode).toBe(404);
          expect(answer.body).toEqual({ encoding: 'text', data: FEED_NOT_FOUND_TEXT });
          return;
        }
        expect(answer.statusCode).toBeUndefined();
        expect(answer.uri).toBe(acceptsGzip(encoding) ? `${uri}.gz` : uri);
      }),
      { numRuns: 3_000 },
    );
  });

  it('serves a feed file as the XML to a client without Accept-Encoding, gzipped to one that takes it', () => {
    const uri = `/feeds/${newFeedToken()}/indeed.xml`;
    expect(viewerRequest(uri).uri).toBe(uri);
    expect(viewerRequest(uri, 'gzip, deflate, br').uri).toBe(`${uri}.gz`);
    expect(viewerRequest(uri, 'gzip;q=0, *').uri).toBe(uri);
    expect(viewerRequest(`${uri}.gz`, 'gzip').statusCode).toBe(404);
    expect(viewerRequest('/errors/not-found').statusCode).toBe(404);
  });
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const two = (n: number) => String(n).padStart(2, '0');

/** A moment written in one of the HTTP-date's forms, or with a field broken as a client might. */
const ifModifiedSince = fc.oneof(
  fc
    .tuple(
      fc.date({ min: new Date('1901-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
      fc.constantFrom('imf', 'rfc850', 'asctime'),
      fc.constantFrom('', 'gmt', 'day 31', 'hour 24', 'leap second', 'one-digit day', 'trailing space'),
    )
    .map(([date, form, broken]) => {
      const day = broken === 'day 31' ? 31 : date.getUTCDate();
      const time = `${broken === 'hour 24' ? '24' : two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${broken === 'leap second' ? '60' : two(date.getUTCSeconds())}`;
      const dayName = DAYS[date.getUTCDay()] as string;
      const month = MONTHS[date.getUTCMonth()] as string;
      const gmt = broken === 'gmt' ? 'gmt' : 'GMT';
      const dd = broken === 'one-digit day' ? String(day) : two(day);
      const text =
        form === 'imf'
          ? `${dayName.slice(0, 3)}, ${dd} ${month} ${date.getUTCFullYear()} ${time} ${gmt}`
          : form === 'rfc850'
            ? `${dayName}, ${dd}-${month}-${two(date.getUTCFullYear() % 100)} ${time} ${gmt}`
            : `${dayName.slice(0, 3)} ${month} ${String(day).padStart(2, ' ')} ${time} ${date.getUTCFullYear()}`;
      return broken === 'trailing space' ? `${text} ` : text;
    }),
  fc.constantFrom('2100', '2100-01-01T00:00:00Z', 'Thu, 01 Jan 1970 00:00:00 +0000', '0', ''),
  fc.string({ maxLength: 32 }),
);

/** `If-None-Match` values: lists of tags, `*` where it belongs and where it does not, and noise. */
const ifNoneMatch = fc.oneof(
  fc
    .array(
      fc.oneof(fc.stringMatching(/^(W\/)?"[A-Za-z0-9_-]{0,8}"$/), fc.constantFrom('*', '', 'abc', '"a"b"')),
      {
        maxLength: 4,
      },
    )
    .chain((members) => fc.constantFrom(',', ', ', ' ,').map((comma) => members.join(comma))),
  fc.constantFrom('*', ' * ', '"x", *'),
  fc.string({ maxLength: 24 }),
);

describe("the feeds' viewer-request function and conditional requests", () => {
  it('passes on If-Modified-Since exactly when it is an HTTP-date, If-None-Match exactly when it is one', () => {
    const uri = `/feeds/${newFeedToken()}/sitemap.xml`;
    fc.assert(
      fc.property(ifModifiedSince, ifNoneMatch, (since, tags) => {
        const { headers = {} } = viewerRequest(uri, undefined, {
          'if-modified-since': since,
          'if-none-match': tags,
        });
        expect([since, headers['if-modified-since']?.value]).toEqual([
          since,
          httpDate(since) === undefined ? undefined : since,
        ]);
        expect([tags, headers['if-none-match']?.value]).toEqual([
          tags,
          isIfNoneMatch(tags) ? tags : undefined,
        ]);
      }),
      { numRuns: 3_000 },
    );
  });

  it('drops what a lenient reading takes for a condition: 2100, "x", *', () => {
    const uri = `/feeds/${newFeedToken()}/indeed.xml`;
    const { headers = {} } = viewerRequest(uri, 'gzip;q=1e5', {
      'if-modified-since': '2100',
      'if-none-match': '"x", *',
    });
    expect(headers).toEqual({ 'accept-encoding': { value: 'gzip;q=1e5' } });
    expect(viewerRequest(uri, 'gzip;q=1e5').uri).toBe(uri);
    const kept = viewerRequest(uri, 'gzip', {
      'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT',
      'if-none-match': 'W/"a", "b"',
    });
    expect(kept.uri).toBe(`${uri}.gz`);
    expect(Object.keys(kept.headers ?? {}).sort()).toEqual([
      'accept-encoding',
      'if-modified-since',
      'if-none-match',
    ]);
  });
});
