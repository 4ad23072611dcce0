/**
 * The CloudFront Function in front of the feeds, run as CloudFront runs it (its code alone, in a context of its own):
 * for random paths and `Accept-Encoding` headers, it answers the 404 exactly where the local server's `feedFileOf`
 * finds no feed's file, and asks for the gzipped object exactly where `acceptsGzip` takes gzip.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { FEED_NOT_FOUND_TEXT, newFeedToken } from '../../../../lambda/domain/feed-registry/feed';
import { acceptsGzip, feedFileOf } from '../../../../lib/local/feed-serving';
import { feedRequestCode } from '../../../../lib/stack/feed-requests';

interface Answer {
  readonly statusCode?: number;
  readonly uri?: string;
  readonly body?: { encoding: string; data: string };
}

const handler = runInNewContext(`${feedRequestCode()}\nhandler;`, {}) as (event: unknown) => Answer;

const viewerRequest = (uri: string, acceptEncoding?: string) =>
  handler({
    version: '1.0',
    request: {
      method: 'GET',
      uri,
      querystring: {},
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': { value: acceptEncoding } },
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
const weight = fc.constantFrom(
  '',
  ';q=0',
  ';q=0.0',
  ';q=1',
  ';q=0.5',
  ';Q=0.001',
  '; q = 0',
  ';q=x',
  ';level=1',
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
