/**
 * Feeds as the local server serves them, over real HTTP (docs/design.md#feeds): a hand-made gzipped XML file put in
 * place through the server's `FeedFiles`, fetched as a job board would — no key, no rate tier — with its headers,
 * gzip when asked for, 304s, one 404 for every reason, and no way out of the feeds' folder, whatever the path.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { newFeedToken } from '../../../lambda/domain/feed-registry/feed';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { DEFAULT_SETTINGS } from '../../../lib/settings';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;

/** A feed as a build would write it, by hand: an Indeed file with one job. */
const XML = `<?xml version="1.0" encoding="utf-8"?>
<source>
  <publisher><![CDATA[Acme LLC]]></publisher>
  <lastBuildDate><![CDATA[Tue, 24 Nov 2026 10:15:31 GMT]]></lastBuildDate>
  <job>
    <title><![CDATA[Warehouse supervisor]]></title>
    <referencenumber><![CDATA[9001]]></referencenumber>
    <url><![CDATA[https://acme.example/jobs/9001]]></url>
  </job>
</source>
`;
const GZIPPED = gzipSync(XML);
const BUILT_AT = Date.UTC(2026, 10, 24, 10, 15, 31, 500);
const LAST_MODIFIED = 'Tue, 24 Nov 2026 10:15:31 GMT';

/** What came back: the status, the headers, and the bytes exactly as sent (no decoding, unlike fetch). */
interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A request with its path as given — not normalised, not encoded — as a hostile client sends it. */
function raw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The headers that may differ between two answers of the same bytes: the request's id and the moment. */
const comparable = ({ headers }: Raw) => {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
};

describe('feeds served by the local server', () => {
  let api: LocalApi;
  let dataDir: string;
  let token: string;
  let path: string;
  let etag: string;
  const get = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
    raw(api.url, target, headers, method);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'feeds-http-'));
    api = await startLocalApi({
      port: 0,
      dynamodbPort: 0,
      dataDir,
      seedFile: SEED_FILE,
      // A stage that allows two requests, and never refills: a feed's fetch must take none of them.
      settings: {
        ...DEFAULT_SETTINGS,
        rateTiers: { standard: { rate: 1, burst: 2 } },
        defaultRateTier: 'standard',
        throttlingRateLimit: 1,
        throttlingBurstLimit: 2,
      },
      rateLimits: true,
      rateClock: () => 0,
    });
    token = newFeedToken();
    path = `/feeds/${token}/indeed.xml`;
    ({ etag } = await api.feeds.files.put(token, 'indeed.xml', Readable.from([GZIPPED]), BUILT_AT));
    // Files the feeds' folder must never give out: beside it, and beside a feed's files.
    await writeFile(join(dataDir, 'secret.xml.gz'), gzipSync('<secret/>'));
    await writeFile(join(api.feeds.folder, 'secret.xml.gz'), gzipSync('<secret/>'));
    await writeFile(join(api.feeds.folder, token, 'secret.xml.gz'), gzipSync('<secret/>'));
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps the feeds' files under the data dir", () => {
    expect(api.feeds.folder).toBe(join(dataDir, 'feeds'));
  });

  it('answers GET with the file gzipped, as stored, to a client that takes gzip', async () => {
    const answer = await get(path, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(comparable(answer)).toEqual({
      'content-type': 'application/xml; charset=utf-8',
      'content-encoding': 'gzip',
      'content-length': String(GZIPPED.length),
      etag,
      'last-modified': LAST_MODIFIED,
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
      connection: 'close',
    });
    expect(answer.body).toEqual(GZIPPED);
    expect(gunzipSync(answer.body).toString()).toBe(XML);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['identity', { 'Accept-Encoding': 'identity' }],
    ['gzip refused', { 'Accept-Encoding': 'gzip;q=0, br' }],
    ['anything but gzip', { 'Accept-Encoding': '*, gzip;q=0' }],
    ['nothing at all', { 'Accept-Encoding': '*;q=0' }],
    ['another coding', { 'Accept-Encoding': 'br' }],
    // A q-value is 0 to 1 with at most three decimals (RFC 9110 §12.4.2): any other is no gzip.
    ['a q-value past 1', { 'Accept-Encoding': 'gzip;q=1e5' }],
    ['a q-value of four decimals', { 'Accept-Encoding': 'gzip;q=0.5000' }],
    ['a q-value that is no number', { 'Accept-Encoding': 'gzip;q=x, *;q=0' }],
    ['a q-value with spaces', { 'Accept-Encoding': 'gzip; q = 1' }],
    ['a q-value of 1.5', { 'Accept-Encoding': 'gzip;q=1.5' }],
  ])('answers the plain XML to a client that does not take gzip (%s)', async (_name, headers) => {
    const answer = await get(path, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(answer.headers.etag).toBe(etag);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.body.toString()).toBe(XML);
  });

  it.each([
    ['gzip;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['GZIP', true],
    ['br;q=1, gzip;q=0.001', true],
    ['gzip;Q=1.000', true],
    ['gzip ; q=0.5', true],
  ])('takes gzip from Accept-Encoding: %s', async (acceptEncoding, gzip) => {
    const answer = await get(path, { 'Accept-Encoding': acceptEncoding });
    expect(answer.headers['content-encoding']).toBe(gzip ? 'gzip' : undefined);
    expect(answer.body).toEqual(GZIPPED);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const headers of <Record<string, string>[]>[{ 'Accept-Encoding': 'gzip' }, {}]) {
      const [head, full] = [await get(path, headers, 'HEAD'), await get(path, headers)];
      expect(head.status).toBe(200);
      expect(head.body).toHaveLength(0);
      const { 'transfer-encoding': _chunked, ...headOf } = comparable(head);
      const { 'transfer-encoding': _fullChunked, ...fullOf } = comparable(full);
      expect(headOf).toEqual(fullOf);
    }
  });

  it('answers 304 to a client whose copy is current, by If-None-Match, else If-Modified-Since', async () => {
    const strong = etag.replace(/^W\//, '');
    for (const headers of <Record<string, string>[]>[
      { 'If-None-Match': etag },
      { 'If-None-Match': strong },
      { 'If-None-Match': `"other", ${etag}` },
      { 'If-None-Match': '*' },
      { 'If-Modified-Since': LAST_MODIFIED },
      { 'If-Modified-Since': 'Wed, 25 Nov 2026 00:00:00 GMT' },
      { 'If-None-Match': etag, 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' },
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await get(path, { ...headers, 'Accept-Encoding': 'gzip' }, method);
        expect([JSON.stringify(headers), method, answer.status]).toEqual([
          JSON.stringify(headers),
          method,
          304,
        ]);
        expect(comparable(answer)).toEqual({
          etag,
          'last-modified': LAST_MODIFIED,
          'cache-control': 'no-cache',
          vary: 'Accept-Encoding',
          connection: 'close',
        });
        expect(answer.body).toHaveLength(0);
      }
    }
    for (const headers of <Record<string, string>[]>[
      { 'If-None-Match': 'W/"other"' },
      { 'If-Modified-Since': 'Tue, 24 Nov 2026 10:15:30 GMT' },
      // If-None-Match decides when both are sent: the tag is another, whatever the date says.
      { 'If-None-Match': '"other"', 'If-Modified-Since': LAST_MODIFIED },
      { 'If-Modified-Since': 'not a date' },
      // Not an HTTP-date (RFC 9110 §5.6.7), so ignored (§13.1.3), though a lenient reading finds a date after the
      // build in each.
      { 'If-Modified-Since': '2100' },
      { 'If-Modified-Since': '2100-01-01T00:00:00Z' },
      { 'If-Modified-Since': 'Fri, 01 Jan 2100 00:00:00 gmt' },
      { 'If-Modified-Since': 'Fri, 1 Jan 2100 00:00:00 GMT' },
      { 'If-Modified-Since': 'Thu, 31 Feb 2100 00:00:00 GMT' },
      { 'If-Modified-Since': 'Fri, 01 Jan 2100 00:00:00 GMT, Sat, 02 Jan 2100 00:00:00 GMT' },
      // Not an If-None-Match (`*` alone, or a list of entity tags): ignored, as If-Modified-Since is when it is there.
      { 'If-None-Match': `"other", *` },
      { 'If-None-Match': `x${etag}x` },
    ])
      expect([JSON.stringify(headers), (await get(path, headers)).status]).toEqual([
        JSON.stringify(headers),
        200,
      ]);
    // Each of the HTTP-date's three forms is read.
    for (const since of [
      'Fri, 01 Jan 2100 00:00:00 GMT',
      'Friday, 01-Jan-27 00:00:00 GMT',
      'Fri Jan  1 00:00:00 2100',
    ])
      expect([since, (await get(path, { 'If-Modified-Since': since })).status]).toEqual([since, 304]);
  });

  it('gives a new tag to a new build, so that a copy of the old one is sent again', async () => {
    const other = newFeedToken();
    const first = await api.feeds.files.put(
      other,
      'sitemap.xml',
      Readable.from([gzipSync('<urlset/>')]),
      BUILT_AT,
    );
    const second = await api.feeds.files.put(
      other,
      'sitemap.xml',
      Readable.from([gzipSync('<urlset><url/></urlset>')]),
      BUILT_AT + 60_000,
    );
    const answer = await get(`/feeds/${other}/sitemap.xml`, { 'If-None-Match': first.etag });
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).toBe(second.etag);
    expect(answer.body.toString()).toBe('<urlset><url/></urlset>');
  });

  it('answers the same 404, byte for byte, whatever the reason', async () => {
    const removed = newFeedToken();
    await api.feeds.files.put(removed, 'indeed.xml', Readable.from([GZIPPED]), BUILT_AT);
    expect((await get(`/feeds/${removed}/indeed.xml`)).status).toBe(200);
    await api.feeds.files.remove(removed);
    const reasons = [
      `/feeds/${newFeedToken()}/indeed.xml`,
      `/feeds/${removed}/indeed.xml`,
      `/feeds/${token}/sitemap.xml`,
      `/feeds/${token}/indeed.xml.gz`,
      `/feeds/${token}/secret.xml`,
      `/feeds/${token}/Indeed.xml`,
      `/feeds/${token}/indeed.xml/`,
      `/feeds/${token}`,
      `/feeds/${token}/`,
      '/feeds/',
      `/feeds/${token.slice(1)}/indeed.xml`,
      `/feeds/${token}A/indeed.xml`,
      `/feeds//${token}/indeed.xml`,
      `/feeds/${token}/./indeed.xml`,
      `/feeds/${token}/%69ndeed.xml`,
      `/feeds/${token}/../${token}/indeed.xml`,
    ];
    const answers = await Promise.all(reasons.map((reason) => get(reason, { 'Accept-Encoding': 'gzip' })));
    for (const [index, answer] of answers.entries()) {
      expect([reasons[index], answer.status]).toEqual([reasons[index], 404]);
      expect(comparable(answer)).toEqual(comparable(answers[0] as Raw));
      expect(answer.body).toEqual((answers[0] as Raw).body);
    }
    expect(comparable(answers[0] as Raw)).toEqual({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': '10',
      'cache-control': 'no-cache',
      connection: 'close',
    });
    expect((answers[0] as Raw).body.toString()).toBe('Not Found\n');
    const head = await get(reasons[0] as string, {}, 'HEAD');
    expect(head.status).toBe(404);
    expect(comparable(head)).toEqual(comparable(answers[0] as Raw));
    expect(head.body).toHaveLength(0);
  });

  it('answers any other method 405, naming GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const answer = await get(path, {}, method);
      expect([method, answer.status, answer.headers.allow]).toEqual([method, 405, 'GET, HEAD']);
    }
  });

  it('needs no key and takes nothing of the rate limits: the stage still admits its two requests after', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => get(path, { 'Accept-Encoding': 'gzip' })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 200));
    const listing = (key: string) => get('/vendor/vacancies', { Authorization: `Bearer ${key}` });
    expect((await listing('vvk_test_acme_first')).status).toBe(200);
    expect((await listing('vvk_test_globex')).status).toBe(200);
    expect((await listing('vvk_test_acme_second')).status).toBe(429);
  });

  it('gives out nothing but a stored feed file, whatever the path (fast-check)', async () => {
    const notFound = await get(`/feeds/${newFeedToken()}/indeed.xml`);
    const segment = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '',
        token,
        'indeed.xml',
        'sitemap.xml',
        'secret.xml',
        'secret.xml.gz',
        'indeed.xml.gz',
        'feeds',
        '%2e%2e',
        '%2E%2E',
        '%2f',
        '%2F',
        '%5c',
        '..%2f',
        '..%5c',
        '%2e%2e%2f',
        '%252e%252e',
        '..\\',
        '\\..\\',
        '%00',
        'indeed.xml%00',
        '~',
        ';',
        '..;',
        '#',
        '?',
        '//',
      ),
      fc.string({ unit: fc.constantFrom(...'./\\%2eE5cfF0~;_-aZ'), maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), async (segments) => {
        const target = `/feeds/${segments.join('/')}`;
        const answer = await get(target, { 'Accept-Encoding': 'gzip' });
        const exact = (target.split('?', 1)[0] ?? '') === path;
        if (exact) {
          expect(answer.status).toBe(200);
          expect(answer.body).toEqual(GZIPPED);
        } else {
          expect([target, answer.status]).toEqual([target, 404]);
          expect(answer.body).toEqual(notFound.body);
          expect(comparable(answer)).toEqual(comparable(notFound));
        }
      }),
      { numRuns: 300 },
    );
  });
});
