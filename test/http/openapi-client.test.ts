/**
 * A client generated from docs/openapi.yaml — openapi-typescript's types (`npm run openapi:types`) with
 * openapi-fetch — walks every page of a demo vendor against the local server, as `npm start` runs it. Each
 * response is held to the document too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import createClient from 'openapi-fetch';
import { type LocalApiProcess, startLocalApiProcess } from '../support/local-api-process';
import { documentedFetch } from '../support/openapi';
import type { paths } from '../support/openapi-types';

type Query = NonNullable<paths['/vendor/vacancies']['get']['parameters']['query']>;
type Listing = paths['/vendor/vacancies']['get']['responses'][200]['content']['application/json'];

/** The query of a pagination URL, as the generated client types it. */
function queryOf(url: string): Query {
  const search = new URL(url).searchParams;
  const integer = (name: string) => (search.has(name) ? Number(search.get(name)) : undefined);
  return {
    ...(search.has('type') && { type: integer('type') as Query['type'] }),
    ...(search.has('per_page') && { per_page: integer('per_page') }),
    ...(search.has('page') && { page: integer('page') }),
    ...(search.has('lang') && { lang: search.get('lang') ?? undefined }),
  };
}

describe('a client generated from docs/openapi.yaml', () => {
  let api: LocalApiProcess;
  beforeAll(async () => {
    api = await startLocalApiProcess({ port: 0, dynamodbPort: 0 });
  });
  afterAll(async () => api?.stop());

  it('walks every page of a demo vendor by next_page_url, seeing each vacancy once', async () => {
    const client = createClient<paths>({ baseUrl: api.url, fetch: documentedFetch });
    const headers = { Authorization: 'Bearer vvk_demo_pasha_bank_primary' };
    let query: Query | undefined = { per_page: 5, lang: 'en' };
    const seen: number[] = [];
    let pages = 0;
    let total = 0;
    while (query) {
      const current: Query = query;
      const result = await client.GET('/vendor/vacancies', { params: { query: current }, headers });
      expect(result.error).toBeUndefined();
      expect(result.response.headers.get('content-language')).toBe('en');
      const data: Listing | undefined = result.data;
      if (!data) throw new Error('no data');
      pages += 1;
      total = data.pagination.total;
      seen.push(...data.data.map((vacancy) => vacancy.id));
      for (const vacancy of data.data)
        expect(['Full Time', 'Part Time', 'Remote', 'Internship']).toContain(vacancy.type);
      query = data.pagination.next_page_url ? queryOf(data.pagination.next_page_url) : undefined;
    }
    expect(total).toBeGreaterThan(10);
    expect(pages).toBe(Math.ceil(total / 5));
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('reads the documented errors: 401 and a 422 naming the invalid parameters', async () => {
    const client = createClient<paths>({ baseUrl: api.url, fetch: documentedFetch });
    const unauthenticated = await client.GET('/vendor/vacancies', {
      headers: { Authorization: 'Bearer vvk_nobody' },
    });
    expect(unauthenticated.response.status).toBe(401);
    expect(unauthenticated.error).toMatchObject({ status: 'error', message: 'Unauthenticated.' });
    const invalid = await client.GET('/vendor/vacancies', {
      params: { query: { per_page: 500 } },
      headers: { Authorization: 'Bearer vvk_demo_pasha_bank_primary' },
    });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error).toMatchObject({
      errors: { per_page: ['The per_page must be between 1 and 100.'] },
    });
  });
});
