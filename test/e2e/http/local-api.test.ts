/**
 * The contract over real HTTP: the local server (embedded DynamoDB, API Gateway stand-in, the real Lambda
 * entry points) started on a free port with a test seed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ListingResponse } from '../../../lambda/functions/vacancies/bodies';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { revokeApiKey, storeApiKey } from '../../../lib/ops/api-keys';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;

describe('local API over HTTP', () => {
  let api: LocalApi;
  let listing: string;

  // Every response, held to docs/openapi.yaml.
  const get = (headers: Record<string, string> = {}, url = listing, method = 'GET') =>
    documentedFetch(url, { method, headers });
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  /** The error envelope, with its request id matching the X-Request-Id header. */
  async function expectError(response: Response, status: number, message: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ status: 'error', message, request_id: requestId });
  }

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    listing = `${api.url}/vendor/vacancies`;
  });
  afterAll(async () => api?.stop());

  describe('authentication', () => {
    it('lists the vendor of a valid key, with X-Request-Id', async () => {
      const response = await get(bearer('vvk_test_acme_first'));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const body = (await response.json()) as ListingResponse;
      expect(body.company).toBe('Acme LLC');
      expect(body.data.map((vacancy) => vacancy.id)).toEqual([5, 4, 3, 2, 1]);
    });

    it('accepts the second live key of a vendor, a lower-case scheme and surrounding whitespace', async () => {
      for (const authorization of [
        'Bearer vvk_test_acme_second',
        'bearer vvk_test_acme_first',
        '  BEARER   vvk_test_acme_first  ',
      ]) {
        const response = await get({ Authorization: authorization });
        expect(response.status).toBe(200);
        expect(((await response.json()) as ListingResponse).company).toBe('Acme LLC');
      }
    });

    it.each([
      ['a missing header', {}],
      ['an empty header', { Authorization: '' }],
      ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['a scheme without a token', { Authorization: 'Bearer' }],
      ['an unknown key', bearer('vvk_not_a_real_key')],
    ])('answers 401 to %s, with WWW-Authenticate and the same body every time', async (_case, headers) => {
      const response = await get(headers);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      await expectError(response, 401, 'Unauthenticated.');
    });

    it('answers 401 to a revoked key, as soon as it is revoked (no authorizer cache locally)', async () => {
      const client = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
      const key = await storeApiKey(client, api.tables.vendors, {
        apiKey: 'vvk_test_globex_to_revoke',
        vendorId: 'globex',
        label: 'revoke me',
      });
      expect((await get(bearer('vvk_test_globex_to_revoke'))).status).toBe(200);
      await revokeApiKey(client, api.tables.vendors, key.keyId);
      await expectError(await get(bearer('vvk_test_globex_to_revoke')), 401, 'Unauthenticated.');
      // The vendor's other key still works.
      expect((await get(bearer('vvk_test_globex'))).status).toBe(200);
      client.destroy();
    });

    it('answers 403 to a valid key of a suspended vendor', async () => {
      await expectError(await get(bearer('vvk_test_initech')), 403, 'Forbidden.');
    });
  });

  describe('routing', () => {
    it.each([
      '/vendor',
      '/vendor/vacancies/',
      '/vendor/vacancies/1/',
      '/vendor/vacancy',
      '/docs/',
      '/docs/other',
    ])('answers 404 to %s', async (path) => {
      await expectError(await get(bearer('vvk_test_acme_first'), `${api.url}${path}`), 404, 'Not Found.');
    });

    it('points / at the API reference, a local page only: GET / is a redirect to /docs, another method a 404', async () => {
      const response = await fetch(`${api.url}/`, { redirect: 'manual' });
      expect([response.status, response.headers.get('location')]).toEqual([302, '/docs']);
      await expectError(await get(bearer('vvk_test_acme_first'), `${api.url}/`, 'POST'), 404, 'Not Found.');
      const page = await fetch(`${api.url}/docs`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
      'answers 405 with Allow: GET, OPTIONS to %s on either route, before authentication',
      async (method) => {
        for (const headers of [{}, bearer('vvk_test_acme_first')])
          for (const url of [listing, `${listing}/1`]) {
            const response = await get(headers, url, method);
            expect(response.headers.get('allow')).toBe('GET, OPTIONS');
            await expectError(response, 405, 'Method Not Allowed.');
          }
      },
    );
  });

  describe('listing', () => {
    it('walks every page by following next_page_url, visiting each vacancy once', async () => {
      const visited: number[] = [];
      let url: string | null = `${listing}?per_page=2&lang=en`;
      while (url) {
        const response = await get(bearer('vvk_test_acme_first'), url);
        expect(response.status).toBe(200);
        const body = (await response.json()) as ListingResponse;
        expect(body.pagination).toMatchObject({ total: 5, last_page: 3, per_page: 2 });
        visited.push(...body.data.map((vacancy) => vacancy.id));
        url = body.pagination.next_page_url;
        if (url) expect(url.startsWith(`${listing}?per_page=2&lang=en&page=`)).toBe(true);
      }
      expect(visited).toEqual([5, 4, 3, 2, 1]);
    });

    it('answers 422 in the envelope for invalid parameters', async () => {
      const response = await get(bearer('vvk_test_acme_first'), `${listing}?type=9&page=0`);
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body).toEqual({
        status: 'error',
        message: 'The given data was invalid.',
        errors: {
          type: ['The type must be one of 1, 2, 3, 4.'],
          page: ['The page must be between 1 and 9007199254740991.'],
        },
        request_id: response.headers.get('x-request-id'),
      });
    });

    it('negotiates the locale from Accept-Language and answers 304 to a matching If-None-Match', async () => {
      const first = await get({ ...bearer('vvk_test_acme_first'), 'Accept-Language': 'en-GB, az;q=0.5' });
      expect(first.headers.get('content-language')).toBe('en');
      expect(first.headers.get('vary')).toBe('Accept-Language');
      const etag = first.headers.get('etag') ?? '';
      const second = await get({
        ...bearer('vvk_test_acme_first'),
        'Accept-Language': 'en-GB',
        'If-None-Match': etag,
      });
      expect(second.status).toBe(304);
      expect(await second.text()).toBe('');
    });
  });
});
