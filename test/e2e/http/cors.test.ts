/**
 * Publishable keys and CORS over real HTTP (docs/api.md#from-a-web-page), against the local server, point by point:
 * the preflight, the CORS headers on every status whoever answers it, each 403 and their order, the cache and rate
 * policy of a page's answers — and the browser tier, throttled apart from the same vendor's secret key.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KEY_USE_MESSAGES } from '../../../lambda/domain/keys/key-use';
import { EXPOSED_HEADERS } from '../../../lambda/platform/http/cors';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { expectThrottled, flood, rateLimitedApi } from '../../../testkit/flood';
import { jobPostingProblems } from '../../../testkit/job-posting-rules';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
const PAGE = 'https://careers.acme.example';
const OTHER = 'https://evil.example';
const PAGE_KEY = 'vvp_test_acme_page';
const SECRET_KEY = 'vvk_test_acme_first';

describe('publishable keys and CORS on the local server', () => {
  let api: LocalApi;
  let listing: string;
  const get = (
    key: string | undefined,
    headers: Record<string, string> = {},
    url = listing,
    method = 'GET',
  ) =>
    documentedFetch(url, {
      method,
      headers: { ...(key && { Authorization: `Bearer ${key}` }), ...headers },
    });

  /** The CORS headers of an answer a page may read: its origin echoed, never `*`, never credentials. */
  function expectReadableBy(response: Response, origin: string) {
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/(^|, )Origin($|,)/);
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(', ');
    for (const name of ['ETag', 'Retry-After', 'X-Request-Id', 'Content-Language'])
      expect(exposed).toContain(name);
  }

  async function expectError(response: Response, status: number, message: string) {
    expect(response.status).toBe(status);
    const body = (await response.json()) as { message: string; request_id: string };
    expect(body.message).toBe(message);
    expect(body.request_id).toBe(response.headers.get('x-request-id'));
  }

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    listing = `${api.url}/vendor/vacancies`;
  });
  afterAll(async () => api?.stop());

  it('answers a preflight on either route with 204, without a key, for any origin', async () => {
    for (const url of [listing, `${listing}/1`])
      for (const origin of [PAGE, OTHER]) {
        const response = await get(
          undefined,
          {
            Origin: origin,
            'Access-Control-Request-Method': 'GET',
            'Access-Control-Request-Headers': 'authorization, accept-language, if-none-match',
          },
          url,
          'OPTIONS',
        );
        expect(response.status).toBe(204);
        expectReadableBy(response, origin);
        expect(response.headers.get('access-control-allow-methods')?.split(', ')).toContain('GET');
        const allowed = response.headers.get('access-control-allow-headers')?.split(', ') ?? [];
        for (const name of ['Authorization', 'Accept-Language', 'If-None-Match'])
          expect(allowed).toContain(name);
        expect(response.headers.get('access-control-max-age')).toBe('7200');
        expect(await response.text()).toBe('');
      }
  });

  it('answers a publishable key from its origin: readable by the page, kept a minute, on the browser tier', async () => {
    const response = await get(PAGE_KEY, { Origin: PAGE });
    expect(response.status).toBe(200);
    expectReadableBy(response, PAGE);
    expect(response.headers.get('vary')).toBe('Accept-Language, Origin');
    expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS);
    expect(response.headers.get('cache-control')).toBe('private, max-age=60');
    expect(response.headers.get('ratelimit-policy')).toBe('"browser";q=20;w=1');
    expect(((await response.json()) as { company: string }).company).toBe('Acme LLC');
    // Its 304 too.
    const again = await get(PAGE_KEY, {
      Origin: PAGE,
      'If-None-Match': String(response.headers.get('etag')),
    });
    expect(again.status).toBe(304);
    expectReadableBy(again, PAGE);
    // And its other origin (development).
    expect((await get(PAGE_KEY, { Origin: 'http://localhost:8080' })).status).toBe(200);
    // Search, filters by code and facets: a page may use them all (the local gateway passes them on).
    const search = await get(PAGE_KEY, { Origin: PAGE }, `${listing}?city=baku,ganja&q=dev&facets=city,type`);
    expect(search.status).toBe(200);
    expectReadableBy(search, PAGE);
    const { facets } = (await search.json()) as { facets: Record<string, unknown[]> };
    expect(Object.keys(facets)).toEqual(['type', 'city']);
  });

  it('answers one vacancy and its JobPosting to a page, with the vendor’s website', async () => {
    const json = await get(PAGE_KEY, { Origin: PAGE }, `${listing}/5`);
    expect(json.status).toBe(200);
    expectReadableBy(json, PAGE);
    expect(json.headers.get('vary')).toBe('Accept, Accept-Language, Origin');
    const ld = await get(PAGE_KEY, { Origin: PAGE, Accept: 'application/ld+json' }, `${listing}/5`);
    expect(ld.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    const document = await ld.json();
    expect(jobPostingProblems(document)).toEqual([]);
    // The seed's `https://acme.example`, as stored: normalized.
    expect(document).toMatchObject({
      hiringOrganization: { name: 'Acme LLC', sameAs: 'https://acme.example/' },
    });
  });

  it('refuses a publishable key from no origin or another, then for a sync — in that order, readable by the page', async () => {
    await expectError(await get(PAGE_KEY), 403, KEY_USE_MESSAGES.origin);
    const other = await get(PAGE_KEY, { Origin: OTHER });
    expectReadableBy(other, OTHER);
    await expectError(other, 403, KEY_USE_MESSAGES.origin);
    const syncElsewhere = await get(
      PAGE_KEY,
      { Origin: OTHER },
      `${listing}?updated_since=1970-01-01T00:00:00Z`,
    );
    await expectError(syncElsewhere, 403, KEY_USE_MESSAGES.origin);
    const sync = await get(PAGE_KEY, { Origin: PAGE }, `${listing}?updated_since=1970-01-01T00:00:00Z`);
    expectReadableBy(sync, PAGE);
    await expectError(sync, 403, KEY_USE_MESSAGES.sync);
    // An invalid updated_since is still a sync asked for.
    await expectError(
      await get(PAGE_KEY, { Origin: PAGE }, `${listing}?updated_since=x`),
      403,
      KEY_USE_MESSAGES.sync,
    );
  });

  it('refuses a secret key from a browser, and serves it from a server with no CORS headers at all', async () => {
    const browser = await get(SECRET_KEY, { Origin: PAGE });
    expectReadableBy(browser, PAGE);
    await expectError(browser, 403, KEY_USE_MESSAGES.secretInBrowser);
    const server = await get(SECRET_KEY);
    expect(server.status).toBe(200);
    expect(server.headers.get('access-control-allow-origin')).toBeNull();
    expect(server.headers.get('vary')).toBe('Accept-Language');
    expect(server.headers.get('cache-control')).toBe('private, no-cache');
    expect(server.headers.get('ratelimit-policy')).toBe('"standard";q=10;w=1');
  });

  it('refuses a suspended vendor’s publishable key with its 403 first, and an unknown key with the 401', async () => {
    const suspended = await get('vvp_test_initech_page', { Origin: 'https://careers.initech.example' });
    expectReadableBy(suspended, 'https://careers.initech.example');
    await expectError(suspended, 403, 'Forbidden.');
    const unknown = await get('vvp_unknown_key_000', { Origin: PAGE });
    expectReadableBy(unknown, PAGE);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(unknown, 401, 'Unauthenticated.');
  });

  it('lets the page read every other error: 404 (route and vacancy), 405, 410 (a closed vacancy), 422', async () => {
    const cases: [string, string, number, string][] = [
      [`${api.url}/vendor/other`, 'GET', 404, 'Not Found.'],
      [`${listing}/8`, 'GET', 404, 'Vacancy not found.'],
      [`${listing}/6`, 'GET', 410, 'This vacancy is no longer open.'],
      [listing, 'POST', 405, 'Method Not Allowed.'],
      [`${listing}?lang=fr`, 'GET', 422, 'The given data was invalid.'],
      [`${listing}/5?lang=fr`, 'GET', 422, 'The given data was invalid.'],
    ];
    for (const [url, method, status, message] of cases) {
      const response = await get(PAGE_KEY, { Origin: PAGE }, url, method);
      expectReadableBy(response, PAGE);
      // A closed vacancy's 410 may be kept a minute, as the page's 200 was; every other error never.
      expect(response.headers.get('cache-control')).toBe(status === 410 ? 'private, max-age=60' : 'no-store');
      await expectError(response, status, message);
    }
  });
});

describe('the browser tier, apart from the secret keys’ tier (--rate-limits)', () => {
  const api = rateLimitedApi(SEED_FILE, {
    ...DEFAULT_SETTINGS,
    rateTiers: { standard: { rate: 10, burst: 20 }, browser: { rate: 5, burst: 10 } },
  });

  it('throttles a flood from pages (429s the page can read) while the same vendor’s sync job is untouched', async () => {
    const listing = `${api.url()}/vendor/vacancies`;
    const page = () =>
      documentedFetch(listing, { headers: { Authorization: `Bearer ${PAGE_KEY}`, Origin: PAGE } });
    const job = () => documentedFetch(listing, { headers: { Authorization: `Bearer ${SECRET_KEY}` } });
    const paced: Response[] = [];
    const sync = (async () => {
      for (let i = 0; i < 6; i += 1) {
        paced.push(await job());
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    const flooded = await flood(page);
    await sync;

    // The burst admitted, then the browser tier's rate; the refusals in the envelope a page can read.
    await expectThrottled(flooded, { rate: 5, burst: 10 });
    const throttled = flooded.withStatus(429);
    const [first] = throttled;
    expect(first?.headers.get('retry-after')).toBe('1');
    expect(first?.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(paced.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(flooded.withStatus(200)[0]?.headers.get('ratelimit-policy')).toBe('"browser";q=5;w=1');
  });
});
