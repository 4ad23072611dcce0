/**
 * `GET /vendor/vacancies/{id}` (docs/api.md#one-vacancy) through the listing's handler, on the test engine: the body,
 * the 410 of the vendor's vacancy that is no longer open (closed, expired — recorded or not yet — deleted) with when it
 * closed, the one 404 for every other way of not being the vendor's active vacancy, the locale, the ETag and 304, the
 * read units.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { VacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { VACANCY_SERVED } from '../../../../../lambda/domain/service/log-fields';
import { runExpiry } from '../../../../../lambda/functions/expiry/job';
import { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { strongETag } from '../../../../../lambda/platform/http/conditional';
import { deleteVacancy, purgeTombstones } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest, vacancyEvent } from '../../../../../testkit/events';
import { jobPostingProblems } from '../../../../../testkit/job-posting-rules';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';
import { importRecords, testListingHandler } from '../../../../../testkit/listing';
import { SPEC_VACANCY_FIELDS } from '../../../../../testkit/spec';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

// 2026-06-15 21:30 UTC is already 2026-06-16 in Baku: "today" for deadlines is the 16th.
const NOW = new Date('2026-06-15T21:30:00Z');

const RECORDS = [
  vacancyRecord({
    id: 501,
    vendor_id: 'acme',
    category: 'it',
    city: 'baku',
    type: 1,
    deadline: '2026-06-16',
  }),
  vacancyRecord({ id: 502, vendor_id: 'acme', deadline: '2026-06-15' }),
  vacancyRecord({ id: 503, vendor_id: 'acme', status: 'inactive' }),
  vacancyRecord({ id: 504, vendor_id: 'acme', status: 'draft' }),
  vacancyRecord({ id: 505, vendor_id: 'acme', status: 'closed' }),
  vacancyRecord({ id: 506, vendor_id: 'acme' }),
  vacancyRecord({ id: 601, vendor_id: 'globex' }),
  vacancyRecord({ id: 602, vendor_id: 'globex', status: 'closed' }),
  vacancyRecord({ id: 603, vendor_id: 'globex' }),
  // Past its deadline when imported (on June 1st): recorded as expired.
  vacancyRecord({ id: 508, vendor_id: 'acme', deadline: '2026-05-20' }),
  // Deleted, then its tombstone purged.
  vacancyRecord({ id: 509, vendor_id: 'acme' }),
  // The largest id JSON carries exactly.
  vacancyRecord({ id: Number.MAX_SAFE_INTEGER, vendor_id: 'acme' }),
  // What the import is given to break a job page with.
  vacancyRecord({
    id: 507,
    vendor_id: 'acme',
    title: 'QA</script><script>alert(1)</script>',
    url: 'HTTPS://Example.AZ:443/jobs/1?a=</script><script>alert(2)</script>',
  }),
];

describe('GET /vendor/vacancies/{id}', () => {
  let tables: TestTables;
  const logger = silentLogger();
  const info = jest.spyOn(logger, 'info');
  let handler: ReturnType<typeof testListingHandler>;

  const get = (id: string, request: TestRequest = {}) =>
    handler(vacancyEvent(id, request), lambdaContext('listing')) as Promise<APIGatewayProxyResult>;

  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'globex', company: 'Globex' });
    await importRecords(tables, RECORDS, { now: () => Date.parse('2026-06-01T00:00:00Z') });
    await deleteVacancy(tables.documentClient, tables.names, 509);
    // The purge keeps what changed in the last seconds (a sync may still be reading it): its clock a minute on.
    const later = () => Date.now() + 60_000;
    await purgeTombstones(tables.documentClient, tables.names, 'acme', later(), { now: later });
    // Deleted after the purge: tombstones kept.
    await deleteVacancy(tables.documentClient, tables.names, 506);
    await deleteVacancy(tables.documentClient, tables.names, 603);
    handler = testListingHandler(tables, { settings: { defaultLocale: 'az' }, now: () => NOW, logger });
  }, 60_000);

  afterAll(() => tables.drop());

  it('answers the vendor’s active vacancy: its 15 fields in order, translated, with the listing’s headers', async () => {
    const response = await get('501', { query: 'lang=en' });
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body);
    expect(Object.keys(body)).toEqual(['status', 'company', 'data']);
    expect(body).toMatchObject({
      status: 'success',
      company: 'Acme LLC',
      data: { id: 501, type: 'Full Time' },
    });
    expect(Object.keys(body.data)).toEqual(SPEC_VACANCY_FIELDS);
    expect(response.headers).toMatchObject({
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Language': 'en',
      Vary: 'Accept, Accept-Language',
      'Cache-Control': 'private, no-cache',
      'X-Request-Id': 'req-1',
      ETag: expect.stringMatching(/^"b[\w-]+"$/),
    });
    // The same vacancy, as the listing shows it.
    const listed = await handler(listingEvent({ query: 'lang=en&per_page=100' }), lambdaContext('listing'));
    const fromListing = JSON.parse((listed as APIGatewayProxyResult).body).data.find(
      (vacancy: { id: number }) => vacancy.id === 501,
    );
    expect(body.data).toEqual(fromListing);
  });

  it('chooses the locale as the listing does: lang, then Accept-Language, then the default; an invalid lang is a 422', async () => {
    expect((await get('501')).headers?.['Content-Language']).toBe('az');
    expect(
      (await get('501', { headers: { 'Accept-Language': 'en-US' } })).headers?.['Content-Language'],
    ).toBe('en');
    const invalid = await get('501', { query: 'lang=fr', headers: { 'Accept-Language': 'en' } });
    expect(invalid.statusCode).toBe(422);
    expect(JSON.parse(invalid.body).errors).toEqual({ lang: ['The lang must be one of az, en.'] });
    expect((await get('501', { query: 'lang=en&lang=az' })).statusCode).toBe(422);
    // Any other parameter is ignored.
    expect((await get('501', { query: 'type=9&per_page=0&page=x' })).statusCode).toBe(200);
  });

  it.each([
    ['inactive', '503'],
    ['draft', '504'],
    ['another vendor’s', '601'],
    ['another vendor’s, closed', '602'],
    ['another vendor’s, deleted', '603'],
    ['deleted, its tombstone purged', '509'],
    ['not there', '999'],
    ['not canonical: leading zero', '0501'],
    ['not canonical: sign', '+501'],
    ['not canonical: fraction', '501.0'],
    ['negative', '-1'],
    ['zero', '0'],
    ['past 2^53 − 1', '9007199254740992'],
    ['not a number', 'abc'],
    ['empty', ''],
  ])('answers one 404 for a vacancy %s', async (_case, id) => {
    const response = await get(id);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({
      status: 'error',
      message: 'Vacancy not found.',
      request_id: 'req-1',
    });
    expect(response.headers).toMatchObject({ 'Cache-Control': 'no-store', 'X-Request-Id': 'req-1' });
  });

  describe('a vacancy of the vendor’s that is no longer open', () => {
    /** When the stored item last changed, as §8 writes it. */
    const updatedAt = async (id: number) => {
      const { Item } = await tables.documentClient.send(
        new GetCommand({ TableName: tables.names.vacancies, Key: { id } }),
      );
      return new Date(Number(Item?.updated_at)).toISOString();
    };
    const gone = (closedAt: string) => ({
      status: 'error',
      message: 'This vacancy is no longer open.',
      closed_at: closedAt,
      request_id: 'req-1',
    });

    it.each([
      ['closed', 505],
      ['expired (recorded at import)', 508],
      ['deleted (a tombstone)', 506],
    ])('answers 410 for one %s, closed_at its change’s updated_at', async (_case, id) => {
      const response = await get(String(id));
      expect(response.statusCode).toBe(410);
      const body = JSON.parse(response.body);
      expect(Object.keys(body)).toEqual(['status', 'message', 'closed_at', 'request_id']);
      expect(body).toEqual(gone(await updatedAt(id)));
      expect(body.closed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('answers 410 for one past its deadline the expiry job has not recorded yet: closed when its deadline day ended (Baku)', async () => {
      // Deadline 2026-06-15: it closed at 2026-06-16 00:00 in Baku (UTC+4).
      const response = await get('502');
      expect(response.statusCode).toBe(410);
      expect(JSON.parse(response.body)).toEqual(gone('2026-06-15T20:00:00.000Z'));
      // The last second of its deadline day, it is still open.
      const before = testListingHandler(tables, {
        settings: { defaultLocale: 'az' },
        now: () => new Date('2026-06-15T19:59:59Z'),
      });
      expect(
        ((await before(vacancyEvent('502'), lambdaContext('listing'))) as APIGatewayProxyResult).statusCode,
      ).toBe(200);
    });

    it('answers the same 410 envelope, as JSON, to Accept: application/ld+json, and to a poll with If-None-Match', async () => {
      const json = await get('505');
      for (const headers of <Record<string, string>[]>[
        { Accept: 'application/ld+json' },
        { Accept: 'application/ld+json', 'If-None-Match': '*' },
      ]) {
        const response = await get('505', { headers });
        expect(response.statusCode).toBe(410);
        expect(response.body).toBe(json.body);
        expect(response.headers?.['Content-Type']).toBe('application/json; charset=utf-8');
        expect(response.headers).not.toHaveProperty('ETag');
      }
    });

    it('carries the 404’s headers but the route’s Cache-Control, and no Vary of its own (its body is one): a page’s too, readable by CORS', async () => {
      const secret = await get('505');
      const notFound = await get('999');
      // A 404 is never kept.
      expect(notFound.headers?.['Cache-Control']).toBe('no-store');
      expect(secret.headers).toEqual({ ...notFound.headers, 'Cache-Control': 'private, no-cache' });
      expect(secret.headers).toEqual({
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'private, no-cache',
        'X-Request-Id': 'req-1',
      });
      const origin = 'https://careers.acme.example';
      const asPage = { headers: { Origin: origin }, authorizer: { keyKind: 'publishable', origins: origin } };
      const page = await get('505', asPage);
      expect(page.statusCode).toBe(410);
      const pageNotFound = await get('999', asPage);
      expect(page.headers).toEqual({ ...pageNotFound.headers, 'Cache-Control': 'private, max-age=60' });
      expect(page.headers).toMatchObject({
        Vary: 'Origin',
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': expect.stringContaining('X-Request-Id'),
      });
    });

    it('reads one item, at most one read unit, and logs it as a vacancy served, gone', async () => {
      info.mockClear();
      await get('505');
      await get('506');
      await get('502', { headers: { Accept: 'application/ld+json' } });
      const served = info.mock.calls
        .filter(([message]) => message === VACANCY_SERVED)
        .map(([, fields]) => fields as Record<string, unknown>);
      expect(served.map((line) => line.vacancyId)).toEqual([505, 506, 502]);
      for (const line of served) {
        expect(line).toMatchObject({ vendorId: 'acme', dynamodbCalls: 1, gone: true });
        expect(line.readUnits).toBeGreaterThan(0);
        expect(line.readUnits).toBeLessThanOrEqual(1);
      }
    });

    it('answers, once the expiry job has recorded one past its deadline, the recording’s updated_at', async () => {
      const run = await runExpiry({
        client: tables.documentClient,
        tables: tables.names,
        clock: CLOCK,
        now: () => NOW,
        recount: { sleep: async () => undefined, settleMs: 0 },
      });
      expect(run.expired).toBe(1);
      const response = await get('502');
      expect(response.statusCode).toBe(410);
      expect(JSON.parse(response.body)).toEqual(gone(await updatedAt(502)));
    });
  });

  it('answers a JobPosting when Accept prefers application/ld+json, with its own tag, the operator’s links in it', async () => {
    const vendor = {
      authorizer: {
        vendorId: 'acme',
        company: 'Acme LLC',
        website: 'https://acme.example',
        logo: 'https://acme.example/logo.png',
      },
    };
    const json = await get('501', { query: 'lang=en', ...vendor });
    const ld = await get('501', {
      query: 'lang=en',
      headers: { Accept: 'application/ld+json, application/json;q=0.5' },
      ...vendor,
    });
    expect(ld.statusCode).toBe(200);
    expect(ld.headers).toMatchObject({
      'Content-Type': 'application/ld+json; charset=utf-8',
      'Content-Language': 'en',
      Vary: 'Accept, Accept-Language',
    });
    expect(ld.headers?.ETag).not.toBe(json.headers?.ETag);
    // Safe to embed as it is: no character that could end its element, and the tag is that of the bytes sent.
    expect(ld.body).toContain('\\u003cp\\u003e');
    expect(ld.body).not.toMatch(/[<>&\u2028\u2029]/);
    expect(ld.headers?.ETag).toBe(strongETag('en', ld.body));
    const document = JSON.parse(ld.body);
    expect(jobPostingProblems(document)).toEqual([]);
    expect(document).toMatchObject({
      '@type': 'JobPosting',
      identifier: { value: '501' },
      hiringOrganization: {
        name: 'Acme LLC',
        sameAs: 'https://acme.example',
        logo: 'https://acme.example/logo.png',
      },
      jobLocation: { address: { addressLocality: 'Baku', addressCountry: 'AZ' } },
      employmentType: 'FULL_TIME',
      inLanguage: 'en',
    });
    const again = await get('501', {
      query: 'lang=en',
      headers: { Accept: 'application/ld+json', 'If-None-Match': String(ld.headers?.ETag) },
      ...vendor,
    });
    expect(again.statusCode).toBe(304);
    // A tie, or JSON ranked first: JSON.
    const tie = await get('501', { headers: { Accept: 'application/ld+json, application/json' } });
    expect(tie.headers?.['Content-Type']).toBe('application/json; charset=utf-8');
    // Every 404 and 422 stays the JSON envelope.
    const missing = await get('999', { headers: { Accept: 'application/ld+json' } });
    expect([missing.statusCode, missing.headers?.['Content-Type']]).toEqual([
      404,
      'application/json; charset=utf-8',
    ]);
  });

  it('answers what the import stored: the url normalized, every string in the JobPosting escaped', async () => {
    const json = JSON.parse((await get('507')).body);
    expect(json.data).toMatchObject({
      title: 'QA</script><script>alert(1)</script>',
      url: 'https://example.az/jobs/1?a=%3C/script%3E%3Cscript%3Ealert(2)%3C/script%3E',
    });
    const ld = await get('507', { headers: { Accept: 'application/ld+json' } });
    expect(ld.body).not.toMatch(/[<>&]/);
    expect(JSON.parse(ld.body)).toMatchObject({ title: json.data.title, url: json.data.url });
  });

  it('answers 503 with Retry-After when DynamoDB throttles, readable by a page', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const repository = { readVacancy: () => Promise.reject(throttled) } as unknown as VacancyRepository;
    const failing = createVacanciesHandler({
      repository,
      settings: { defaultLocale: 'az', clock: CLOCK, defaultPerPage: 15 },
      logger: silentLogger(),
      metrics: testMetrics('listing'),
    });
    const origin = 'https://careers.acme.example';
    const event = vacancyEvent('501', {
      headers: { Origin: origin },
      authorizer: { keyKind: 'publishable', origins: origin },
    });
    const response = (await failing(event, lambdaContext('listing'))) as APIGatewayProxyResult;
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({
      'Retry-After': '1',
      'Access-Control-Allow-Origin': origin,
      Vary: 'Origin',
    });
    expect(JSON.parse(response.body).message).toBe('Service Unavailable.');
  });

  it('answers the largest id', async () => {
    expect((await get(String(Number.MAX_SAFE_INTEGER))).statusCode).toBe(200);
  });

  it('answers 304 to its ETag, weak or in a list, and a new tag in another locale', async () => {
    const first = await get('501');
    const etag = String(first.headers?.ETag);
    const again = await get('501', { headers: { 'If-None-Match': `"x", W/${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers).toMatchObject({
      ETag: etag,
      Vary: 'Accept, Accept-Language',
      'Content-Language': 'az',
    });
    expect((await get('501', { query: 'lang=en' })).headers?.ETag).not.toBe(etag);
  });

  it('reads one item, at most one read unit, and logs what it served', async () => {
    info.mockClear();
    await get('501');
    await get('501', { headers: { 'If-None-Match': '*' } });
    const served = info.mock.calls
      .filter(([message]) => message === VACANCY_SERVED)
      .map(([, fields]) => fields as Record<string, number>);
    expect(served).toHaveLength(2);
    for (const line of served) {
      expect(line).toMatchObject({ vendorId: 'acme', vacancyId: 501, dynamodbCalls: 1 });
      expect(line).not.toHaveProperty('gone');
      expect(line.readUnits).toBeGreaterThan(0);
      expect(line.readUnits).toBeLessThanOrEqual(1);
    }
  });
});
