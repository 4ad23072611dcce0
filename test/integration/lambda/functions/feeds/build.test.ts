/**
 * A build of a vendor's feeds on the real engine, read back as a job board and a search engine read them: each file
 * gunzipped, well-formed to libxml2, the sitemap valid against the protocol's XSDs, every job's values what the API
 * serves (the listing's walk, in its language and order); a sitemap past its limits split into parts and an index,
 * the parts a later, smaller build does not write deleted; the vendor's vacancies walked once for all its feeds; a
 * feed removed meanwhile left with no files; a suspended vendor's feeds empty.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { createGunzip } from 'node:zlib';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Feed } from '../../../../../lambda/domain/feed-registry/feed';
import { FeedStore } from '../../../../../lambda/domain/feed-registry/feed-store';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { buildVendorFeeds, type FeedBuildSettings } from '../../../../../lambda/functions/feeds/build';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { folderFeedFiles } from '../../../../../lib/feed-folder';
import { setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { importRecords, testListingHandler } from '../../../../../testkit/listing';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';
import { libxml2Errors, parseXml, SITEMAP_XSD } from '../../../../../testkit/xml';

const BASE = 'https://feeds.example.com';
const TITLES = [
  'Senior ]]> engineer',
  'Designer <b>&amp;</b>',
  '\u202Egnp.exe',
  'Analyst',
  'Lead',
  'QA',
  'Ops',
];

describe("a build of a vendor's feeds", () => {
  let tables: TestTables;
  let folder: string;
  let store: FeedStore;
  const files = () => folderFeedFiles(folder);
  const settings = (limits?: FeedBuildSettings['sitemapLimits']): FeedBuildSettings => ({
    clock: CLOCK,
    feedBase: BASE,
    jobCountry: 'AZ',
    salaryCurrency: 'AZN',
    salaryPeriod: 'MONTH',
    sitemapLimits: limits,
  });
  const target = () => ({
    index: { client: tables.client, tableName: tables.names.vacancies, queryPageSize: 2 },
    items: {
      client: tables.client,
      tableName: tables.names.vacancies,
      retry: { maxStalls: 4, baseDelayMs: 1, maxDelayMs: 5 },
    },
    files: files(),
    recordBuild: (feedId: string, builtAt: number, vacancies: number, leftOut?: number) =>
      store.recordBuild(feedId, builtAt, vacancies, leftOut),
  });
  const read = async (feed: Feed, file: string) => {
    const stored = await files().get(feed.token, file);
    if (!stored) return undefined;
    return text(stored.gzipped.pipe(createGunzip()));
  };
  const vendor = { vendorId: 'acme', company: 'Acme & Sons', status: 'active' as const };
  const addFeed = async (format: Feed['format'], lang: Feed['lang']) => {
    const placed = await store.add(vendor.vendorId, format, lang);
    if (!('added' in placed)) throw new Error('no place');
    return placed.added;
  };

  beforeAll(async () => {
    tables = await createTestTables();
    folder = await mkdtemp(join(tmpdir(), 'feeds-'));
    store = new FeedStore(tables.documentClient, tables.names.vendors);
    await putVendor(tables.documentClient, tables.names.vendors, vendor);
    await importRecords(
      tables,
      TITLES.map((title, i) =>
        vacancyRecord({
          id: 100 + i,
          vendor_id: 'acme',
          title,
          url: `https://careers.example.com/jobs/${100 + i}?a=1&b=2`,
          created_at: `2026-09-0${1 + i}T10:00:00Z`,
          type: (i % 4) + 1,
        }),
      ),
    );
    // One closed: it is in no feed.
    await setVacancyStatus(tables.documentClient, tables.names, 106, 'closed', { clock: CLOCK });
  });
  afterAll(async () => {
    await tables.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it("writes the indeed feed and the sitemap from one walk, each value the API's, in the listing's order", async () => {
    const indeed = await addFeed('indeed', 'en');
    const sitemap = await addFeed('sitemap', 'en');
    const report = await buildVendorFeeds(target(), settings(), vendor, [indeed, sitemap], new Date());
    const alone = await buildVendorFeeds(target(), settings(), vendor, [indeed], new Date());
    // One walk for both feeds: the same reads as for one.
    expect(report.calls).toBe(alone.calls);
    expect(report.readUnits).toBe(alone.readUnits);
    expect(report.vacancies).toBe(6);

    // What the API serves, in English, in its order.
    const handler = testListingHandler(tables, { now: () => new Date(Date.now() + INDEX_SETTLE_MS + 1_000) });
    const listing = JSON.parse(
      (
        await handler(
          listingEvent({
            authorizer: { vendorId: 'acme', company: vendor.company },
            query: 'per_page=100&lang=en',
          }),
          lambdaContext('listing'),
        )
      ).body,
    ) as ListingResponse;

    const feedText = (await read(indeed, 'indeed.xml')) as string;
    expect(await libxml2Errors([{ name: 'indeed.xml', text: feedText }])).toEqual([]);
    const source = parseXml(feedText, ['job']).source as Record<string, unknown>;
    expect(source.publisher).toBe(vendor.company);
    const jobs = source.job as Record<string, string>[];
    expect(jobs.map((job) => Number(job.referencenumber))).toEqual(listing.data.map((v) => v.id));
    for (const [i, job] of jobs.entries()) {
      const served = listing.data[i] as ListingResponse['data'][number];
      expect(job.title).toBe(served.title);
      expect(job.url).toBe(served.url);
      expect(job.city).toBe(served.city);
      expect(job.category).toBe(served.category);
      expect(job.expirationdate).toBe(served.deadline);
    }

    const map = (await read(sitemap, 'sitemap.xml')) as string;
    expect(await libxml2Errors([{ name: 'sitemap.xml', text: map }], SITEMAP_XSD.urlset)).toEqual([]);
    const urls = (parseXml(map, ['url']).urlset as { url: { loc: string }[] }).url.map((url) => url.loc);
    expect(urls).toEqual(listing.data.map((v) => v.url));
    expect((await store.get(sitemap.feedId))?.vacancies).toBe(6);
  });

  it('splits a sitemap past its limits into parts and an index, and deletes the parts a later build does not write', async () => {
    const sitemap = await addFeed('sitemap', 'az');
    const report = await buildVendorFeeds(
      target(),
      settings({ urls: 2, bytes: 1_000_000 }),
      vendor,
      [sitemap],
      new Date(),
    );
    expect([...(report.feeds[0]?.files ?? [])].sort()).toEqual(
      ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml'].sort(),
    );
    const index = (await read(sitemap, 'sitemap.xml')) as string;
    expect(await libxml2Errors([{ name: 'sitemap.xml', text: index }], SITEMAP_XSD.index)).toEqual([]);
    const parts = (parseXml(index, ['sitemap']).sitemapindex as { sitemap: { loc: string }[] }).sitemap;
    expect(parts.map((part) => part.loc)).toEqual(
      [1, 2, 3].map((n) => `${BASE}/feeds/${sitemap.token}/sitemap-${n}.xml`),
    );
    const locs: string[] = [];
    for (const n of [1, 2, 3]) {
      const part = (await read(sitemap, `sitemap-${n}.xml`)) as string;
      expect(await libxml2Errors([{ name: 'part.xml', text: part }], SITEMAP_XSD.urlset)).toEqual([]);
      locs.push(...(parseXml(part, ['url']).urlset as { url: { loc: string }[] }).url.map((url) => url.loc));
    }
    expect(locs).toHaveLength(6);

    // Within the limits again: one urlset, and no part left served.
    await buildVendorFeeds(target(), settings(), vendor, [sitemap], new Date());
    expect(await read(sitemap, 'sitemap-1.xml')).toBeUndefined();
    expect(await read(sitemap, 'sitemap-3.xml')).toBeUndefined();
    expect(
      await libxml2Errors(
        [{ name: 'sitemap.xml', text: (await read(sitemap, 'sitemap.xml')) as string }],
        SITEMAP_XSD.urlset,
      ),
    ).toEqual([]);
  });

  it('leaves out of a sitemap, and records, the URLs stored before the import refused those no sitemap can list', async () => {
    const other = { vendorId: 'caspian', company: 'Caspian', status: 'active' as const };
    await putVendor(tables.documentClient, tables.names.vendors, other);
    await importRecords(
      tables,
      [200, 201, 202].map((id) =>
        vacancyRecord({ id, vendor_id: 'caspian', url: `https://c.example.az/${id}` }),
      ),
    );
    // As an import before the rule stored them: 9 characters, and 6,022 once URL-escaped.
    for (const [id, url] of [
      [200, 'http://x/'],
      [201, `https://ex.example.az/${'|'.repeat(2000)}`],
    ] as const)
      await tables.documentClient.send(
        new UpdateCommand({
          TableName: tables.names.vacancies,
          Key: { id },
          UpdateExpression: 'SET #url = :url',
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: { ':url': url },
        }),
      );
    const placed = [await store.add('caspian', 'sitemap', 'en'), await store.add('caspian', 'indeed', 'en')];
    const [sitemap, indeed] = placed.map((one) => {
      if (!('added' in one)) throw new Error('no place');
      return one.added;
    }) as [Feed, Feed];
    const report = await buildVendorFeeds(target(), settings(), other, [sitemap, indeed], new Date());
    expect(report).toMatchObject({
      vacancies: 3,
      leftOut: 2,
      feeds: [
        { feedId: sitemap.feedId, vacancies: 1, leftOut: 2 },
        { feedId: indeed.feedId, vacancies: 3 },
      ],
    });
    expect(report.feeds[1]).not.toHaveProperty('leftOut');
    const map = (await read(sitemap, 'sitemap.xml')) as string;
    expect(await libxml2Errors([{ name: 'sitemap.xml', text: map }], SITEMAP_XSD.urlset)).toEqual([]);
    expect((parseXml(map, ['url']).urlset as { url: { loc: string }[] }).url.map((url) => url.loc)).toEqual([
      'https://c.example.az/202',
    ]);
    // The job board's feed has them all; the record says what each holds, and what the sitemap left out.
    expect(await store.get(sitemap.feedId)).toMatchObject({ vacancies: 1, leftOut: 2 });
    expect(await store.get(indeed.feedId)).toMatchObject({ vacancies: 3 });
    expect(await store.get(indeed.feedId)).not.toHaveProperty('leftOut');
  });

  it("leaves a feed removed during its build with no files, and builds a suspended vendor's feeds empty", async () => {
    const gone = await addFeed('indeed', 'az');
    await store.remove(gone.feedId);
    const report = await buildVendorFeeds(target(), settings(), vendor, [gone], new Date());
    expect(report.feeds[0]?.removed).toBe(true);
    expect(await read(gone, 'indeed.xml')).toBeUndefined();

    const kept = await addFeed('indeed', 'az');
    const suspended = await buildVendorFeeds(
      target(),
      settings(),
      { ...vendor, status: 'suspended' },
      [kept],
      new Date(),
    );
    expect(suspended.vacancies).toBe(0);
    expect(suspended.calls).toBe(0);
    const empty = parseXml((await read(kept, 'indeed.xml')) as string, ['job']).source as Record<
      string,
      unknown
    >;
    expect(empty.job).toBeUndefined();
    expect(empty.publisher).toBe(vendor.company);
  });
});
