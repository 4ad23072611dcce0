import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { AnswerSettings } from '../../../../../lambda/domain/answers/settings';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import type { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { SPEC_VACANCY_FIELDS } from '../../../../../testkit/spec';
import { CLOCK, putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

// 2026-06-15 21:30 UTC is already 2026-06-16 in Baku: "today" for deadlines is the 16th.
const NOW = new Date('2026-06-15T21:30:00Z');
const SETTINGS: AnswerSettings = { defaultLocale: 'az', clock: CLOCK, defaultPerPage: 15 };

/** Acme's vacancies: ids encode nothing; created_at and the filter fields are what the tests vary. */
const ACME = [
  // Two vacancies created in the same second: the larger id comes first.
  { id: 101, type: 1, experience_min: 0, experience_max: 2, created_at: '2026-06-01 10:00:00' },
  { id: 105, type: 1, experience_min: 1, experience_max: null, created_at: '2026-06-01 10:00:00' },
  { id: 102, type: 2, experience_min: 3, experience_max: 5, created_at: '2026-06-02 08:00:00' },
  { id: 103, type: 3, experience_min: 5, experience_max: 10, created_at: '2026-05-20 12:00:00' },
  { id: 104, type: 4, experience_min: 0, experience_max: 0, created_at: '2026-06-10 18:45:10' },
  { id: 106, type: 2, experience_min: 2, experience_max: 4, created_at: '2026-06-05 09:00:00' },
  { id: 107, type: 1, experience_min: 4, experience_max: 8, created_at: '2026-04-01 00:00:00' },
  // The deadline is today in Baku: still active.
  {
    id: 108,
    type: 3,
    experience_min: 1,
    experience_max: 3,
    created_at: '2026-03-15 07:00:00',
    deadline: '2026-06-16',
  },
  // Not listed: expired yesterday (Baku), and three statuses other than active.
  {
    id: 120,
    type: 1,
    experience_min: 0,
    experience_max: 2,
    created_at: '2026-06-12 10:00:00',
    deadline: '2026-06-15',
  },
  {
    id: 121,
    type: 1,
    experience_min: 0,
    experience_max: 2,
    created_at: '2026-06-12 10:00:00',
    status: 'inactive',
  },
  {
    id: 122,
    type: 1,
    experience_min: 0,
    experience_max: 2,
    created_at: '2026-06-12 10:00:00',
    status: 'draft',
  },
  {
    id: 123,
    type: 1,
    experience_min: 0,
    experience_max: 2,
    created_at: '2026-06-12 10:00:00',
    status: 'closed',
  },
].map((fields) =>
  vacancyRecord({ vendor_id: 'acme', url: `https://acme.example/jobs/${fields.id}`, ...fields }),
);

/** Listing order of Acme's listed vacancies: created_at descending, then id descending. */
const ACME_ORDER = [104, 106, 102, 105, 101, 103, 107, 108];

const GLOBEX = [201, 202, 203].map((id, i) =>
  vacancyRecord({
    id,
    vendor_id: 'globex',
    title: `Globex job ${id}`,
    created_at: `2026-06-0${i + 1} 09:00:00`,
  }),
);

describe('GET /vendor/vacancies on the embedded DynamoDB', () => {
  let tables: TestTables;
  let handler: ReturnType<typeof createVacanciesHandler>;

  const buildHandler = (queryPageSize?: number) =>
    testListingHandler(tables, {
      settings: SETTINGS,
      ...(queryPageSize !== undefined && { repository: { queryPageSize } }),
      now: () => NOW,
    });

  const call = async (request: TestRequest = {}, target = handler): Promise<APIGatewayProxyResult> =>
    target(listingEvent(request), lambdaContext('listing'));
  const list = async (request: TestRequest = {}, target = handler) => {
    const response = await call(request, target);
    expect(response.statusCode).toBe(200);
    return JSON.parse(response.body) as ListingResponse;
  };
  const ids = (body: ListingResponse) => body.data.map((vacancy) => vacancy.id);

  beforeAll(async () => {
    tables = await createTestTables();
    await putVacancies(tables.documentClient, tables.names.vacancies, [...ACME, ...GLOBEX]);
    handler = buildHandler();
  });
  afterAll(async () => tables.drop());

  describe('the success envelope', () => {
    it('lists the vendor, its active vacancies and the pagination, with the contract headers', async () => {
      const response = await call({ requestId: 'req-42' });
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Language': 'az',
        Vary: 'Accept-Language',
        'Cache-Control': 'private, no-cache',
        'X-Request-Id': 'req-42',
        ETag: expect.stringMatching(/^"[bs][A-Za-z0-9_-]{32}"$/),
      });
      const body = JSON.parse(response.body) as ListingResponse;
      expect(Object.keys(body)).toEqual(['status', 'company', 'data', 'pagination']);
      expect(body.status).toBe('success');
      expect(body.company).toBe('Acme LLC');
      expect(ids(body)).toEqual(ACME_ORDER);
      expect(body.pagination).toEqual({
        current_page: 1,
        last_page: 1,
        per_page: 15,
        total: 8,
        next_page_url: null,
        prev_page_url: null,
      });
    });

    it('renders each vacancy with exactly the 15 fields in spec order, localized, nulls kept', async () => {
      const body = await list();
      for (const vacancy of body.data) expect(Object.keys(vacancy)).toEqual(SPEC_VACANCY_FIELDS);
      expect(body.data.find((vacancy) => vacancy.id === 104)).toEqual({
        id: 104,
        title: 'Backend developer',
        url: 'https://acme.example/jobs/104',
        description: 'Build the APIs our customers use.',
        requirements: 'Three years of TypeScript.',
        responsibilities: 'Design, build and run services.',
        category: 'İnformasiya Texnologiyaları',
        city: 'Bakı',
        type: 'Təcrübə proqramı',
        salary_min: 2000,
        salary_max: 3500,
        salary: null,
        salary_type: 'Aralıq (min-max)',
        deadline: '2099-12-31',
        created_at: '2026-06-10 18:45:10',
      });
    });

    it('answers in English with lang=en or an Accept-Language preferring English; lang wins', async () => {
      for (const request of [
        { query: 'lang=en' },
        { query: 'lang=EN' },
        { headers: { 'accept-language': 'en-US,az;q=0.5' } },
      ]) {
        const response = await call(request);
        expect(response.headers?.['Content-Language']).toBe('en');
        const vacancy = (JSON.parse(response.body) as ListingResponse).data[0];
        expect(vacancy).toMatchObject({
          category: 'Information Technology',
          city: 'Baku',
          type: 'Internship',
        });
        expect(vacancy?.salary_type).toBe('Range (min-max)');
      }
      const overridden = await call({ query: 'lang=az', headers: { 'Accept-Language': 'en' } });
      expect(overridden.headers?.['Content-Language']).toBe('az');
    });

    it('keeps the untranslated fields as stored', async () => {
      const [az, en] = await Promise.all([list({ query: 'lang=az' }), list({ query: 'lang=en' })]);
      expect(en.data.map((v) => [v.title, v.url, v.description, v.deadline, v.created_at])).toEqual(
        az.data.map((v) => [v.title, v.url, v.description, v.deadline, v.created_at]),
      );
    });
  });

  describe('what is listed', () => {
    it('leaves out inactive, draft, closed and expired vacancies, and keeps one whose deadline is today', async () => {
      const listed = ids(await list());
      for (const hidden of [120, 121, 122, 123]) expect(listed).not.toContain(hidden);
      expect(listed).toContain(108);
    });

    it('orders by created_at newest first, then by id descending on ties', async () => {
      const listed = ids(await list());
      expect(listed.indexOf(105)).toBe(listed.indexOf(101) - 1);
    });

    it("never shows another vendor's vacancies, whatever the request says", async () => {
      const attempts: TestRequest[] = [
        { query: 'vendor_id=globex' },
        { query: 'vendorId=globex&company=Globex' },
        { headers: { 'X-Vendor-Id': 'globex' } },
      ];
      for (const request of attempts) {
        const body = await list(request);
        expect(body.company).toBe('Acme LLC');
        expect(ids(body)).toEqual(ACME_ORDER);
      }
      const globex = await list({ authorizer: { vendorId: 'globex', company: 'Globex' } });
      expect(ids(globex)).toEqual([203, 202, 201]);
    });

    it('lists nothing for a vendor without vacancies, on one page', async () => {
      const body = await list({ authorizer: { vendorId: 'initech', company: 'Initech' } });
      expect(body).toMatchObject({ company: 'Initech', data: [], pagination: { total: 0, last_page: 1 } });
    });
  });

  describe('filters', () => {
    it.each([
      ['type=1', [105, 101, 107]],
      ['type=2', [106, 102]],
      ['type=4', [104]],
      ['experience_min=3', [102, 103, 107]],
      ['experience_min=0', ACME_ORDER],
      // experience_max keeps vacancies with a maximum ≤ the bound; open-ended 105 never matches.
      ['experience_max=2', [104, 101]],
      ['experience_max=100', [104, 106, 102, 101, 103, 107, 108]],
      ['experience_min=1&experience_max=5', [106, 102, 108]],
      ['type=1&experience_min=1', [105, 107]],
      ['type=3&experience_min=1&experience_max=3', [108]],
      ['type=2&experience_max=1', []],
    ])('%s', async (query, expected) => {
      const body = await list({ query });
      expect(ids(body)).toEqual(expected);
      expect(body.pagination.total).toBe(expected.length);
    });
  });

  describe('pagination', () => {
    it('slices pages in listing order and reports a page past the end with no data', async () => {
      const second = await list({ query: 'per_page=3&page=2' });
      expect(ids(second)).toEqual(ACME_ORDER.slice(3, 6));
      expect(second.pagination).toMatchObject({ current_page: 2, last_page: 3, per_page: 3, total: 8 });
      const beyond = await list({ query: 'per_page=3&page=9' });
      expect(beyond.data).toEqual([]);
      expect(beyond.pagination).toMatchObject({
        current_page: 9,
        last_page: 3,
        next_page_url: null,
        prev_page_url: 'https://api.example.com/prod/vendor/vacancies?per_page=3&page=8',
      });
    });

    it('builds absolute links that keep the stage path and every recognised parameter', async () => {
      const body = await list({ query: 'type=1&per_page=1&lang=en&foo=bar&page=2' });
      // Then the link's cursor: where the next page starts, or the previous one ends.
      expect(body.pagination.next_page_url).toMatch(
        /^https:\/\/api\.example\.com\/prod\/vendor\/vacancies\?type=1&per_page=1&lang=en&page=3&cursor=[A-Za-z0-9_-]{30}$/,
      );
      expect(body.pagination.prev_page_url).toMatch(
        /^https:\/\/api\.example\.com\/prod\/vendor\/vacancies\?type=1&per_page=1&lang=en&page=1&cursor=[A-Za-z0-9_-]{30}$/,
      );
    });

    it('visits every match exactly once when following next_page_url from page 1, filters kept', async () => {
      // experience_max=10 drops only the open-ended vacancy (105).
      const expected = ACME_ORDER.filter((id) => id !== 105);
      const visited: number[] = [];
      let request: TestRequest | undefined = { query: 'experience_max=10&per_page=2' };
      let pages = 0;
      while (request) {
        const body = await list(request);
        pages += 1;
        visited.push(...ids(body));
        expect(body.pagination.total).toBe(7);
        const next = body.pagination.next_page_url;
        request = next ? { query: new URL(next).search.slice(1) } : undefined;
      }
      expect(visited).toEqual(expected);
      expect(pages).toBe(4);
    });

    it('gives the same pages when the index Query spans many DynamoDB result pages', async () => {
      const smallPages = buildHandler(2);
      for (const query of [
        'per_page=3&page=1',
        'per_page=3&page=2',
        'per_page=3&page=3',
        'type=1&per_page=2&page=2',
      ]) {
        expect(await list({ query }, smallPages)).toEqual(await list({ query }));
      }
    });

    it('follows LastEvaluatedKey: a page and the exact count span as many Query calls as they need', async () => {
      const repository = createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
        queryPageSize: 2,
      });
      const query = { vendorId: 'acme', filters: {}, today: '2026-06-16' };
      const page = await repository.readPage({ ...query, start: { offset: 0 }, limit: 2 });
      expect(page.vacancies.map((vacancy) => vacancy.id)).toEqual(ACME_ORDER.slice(0, 2));
      expect(page.more).toBe(true);
      // The page and one more (to know another follows), in Query calls of 2, then one BatchGetItem.
      expect(page.calls).toBe(3);
      expect(page.readUnits).toBeGreaterThan(0);
      const counted = await repository.countActive(query);
      expect(counted.total).toBe(8);
      // 9 index entries (one expired) in pages of 2.
      expect(counted.calls).toBe(5);
    });
  });

  describe('conditional requests', () => {
    it('answers 304 without a body when If-None-Match matches the ETag, 200 otherwise', async () => {
      const first = await call({ query: 'per_page=2' });
      const etag = String(first.headers?.ETag);
      const again = await call({
        query: 'per_page=2',
        headers: { 'If-None-Match': etag },
        requestId: 'req-304',
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers).toMatchObject({ ETag: etag, 'X-Request-Id': 'req-304', Vary: 'Accept-Language' });
      expect(
        (await call({ query: 'per_page=2', headers: { 'If-None-Match': `W/${etag}, "x"` } })).statusCode,
      ).toBe(304);
      expect((await call({ query: 'per_page=2', headers: { 'If-None-Match': '"stale"' } })).statusCode).toBe(
        200,
      );
      expect((await call({ query: 'per_page=2', headers: { 'If-None-Match': '*' } })).statusCode).toBe(304);
    });

    it('reads If-None-Match strictly: a value that is neither * nor a list of entity tags is no condition', async () => {
      const etag = String((await call({ query: 'per_page=2' })).headers?.ETag);
      // A lenient reading finds * or the tag in each, and answered 304.
      for (const ifNoneMatch of ['"x", *', `x${etag}x`, etag.replaceAll('"', ''), `${etag};q=1`])
        expect([
          ifNoneMatch,
          (await call({ query: 'per_page=2', headers: { 'If-None-Match': ifNoneMatch } })).statusCode,
        ]).toEqual([ifNoneMatch, 200]);
    });

    it('gives different representations different ETags (page, language)', async () => {
      const tags = await Promise.all(
        ['per_page=2', 'per_page=2&page=2', 'per_page=2&lang=en'].map(
          async (query) => (await call({ query })).headers?.ETag,
        ),
      );
      expect(new Set(tags).size).toBe(3);
    });
  });

  describe('errors', () => {
    it('answers 422 in the envelope, naming every invalid parameter', async () => {
      const response = await call({ query: 'type=7&per_page=0&lang=fr', requestId: 'req-422' });
      expect(response.statusCode).toBe(422);
      expect(response.headers).toMatchObject({
        'Content-Type': 'application/json; charset=utf-8',
        'X-Request-Id': 'req-422',
      });
      expect(JSON.parse(response.body)).toEqual({
        status: 'error',
        message: 'The given data was invalid.',
        errors: {
          type: ['The type must be one of 1, 2, 3, 4.'],
          per_page: ['The per_page must be between 1 and 100.'],
          lang: ['The lang must be one of az, en.'],
        },
        request_id: 'req-422',
      });
    });

    it('fails closed with a generic 500 when no authorizer context is present', async () => {
      const response = await call({ authorizer: null, requestId: 'req-500' });
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(response.body)).toEqual({
        status: 'error',
        message: 'Server Error.',
        request_id: 'req-500',
      });
    });
  });
});
