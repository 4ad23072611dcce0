/**
 * A client generated from docs/openapi.yaml — openapi-typescript's types (`npm run openapi:types`) with
 * openapi-fetch — walks every page of a demo vendor against the local server, as `npm start` runs it. Each
 * response is held to the document too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import createClient from 'openapi-fetch';
import type { paths } from '../../../examples/generated-client/openapi-types';
import { walkListing } from '../../../examples/generated-client/walk';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';
import { documentedFetch } from '../../../testkit/openapi';

describe('a client generated from docs/openapi.yaml', () => {
  let api: LocalApiProcess;
  beforeAll(async () => {
    api = await startLocalApiProcess({ port: 0, dynamodbPort: 0 });
  });
  afterAll(async () => api?.stop());

  it('walks every page of a demo vendor by next_page_url, seeing each vacancy once (examples/generated-client)', async () => {
    const walked = await walkListing(api.url, 'vvk_demo_pasha_bank_primary', {
      query: { per_page: 5, lang: 'en' },
      fetch: documentedFetch,
    });
    if (!walked) throw new Error('a first walk cannot be unchanged');
    const ids = walked.vacancies.map((vacancy) => vacancy.id);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
    for (const vacancy of walked.vacancies)
      expect(['Full Time', 'Part Time', 'Remote', 'Internship']).toContain(vacancy.type);
    // The walk knew its pages' parameters only from the links: the first page told the total.
    const first = await (
      await documentedFetch(`${api.url}/vendor/vacancies?per_page=5&lang=en`, {
        headers: { Authorization: 'Bearer vvk_demo_pasha_bank_primary' },
      })
    ).json();
    expect(ids).toHaveLength((first as { pagination: { total: number } }).pagination.total);
    // Polled again with the first page's ETag, nothing changed: a 304, which the example reads as "keep yours".
    expect(walked.etag).toMatch(/^"/);
    expect(
      await walkListing(api.url, 'vvk_demo_pasha_bank_primary', {
        query: { per_page: 5, lang: 'en' },
        etag: walked.etag,
        fetch: documentedFetch,
      }),
    ).toBeUndefined();
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
