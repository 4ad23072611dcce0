/**
 * `vacancy-admin feed …` as an operator runs it — a process of its own — against the engine of a local server that
 * runs as `npm start` does (its own process, its own tables, its settle window shortened): a feed's URL under the
 * server's address, served when `feed add` returns, its list with what a build recorded, its removal taking its file
 * off the server, and every refusal in one line.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FEED_TOKEN } from '../../../lambda/domain/feed-registry/feed';
import { FeedStore } from '../../../lambda/domain/feed-registry/feed-store';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { localTableNames } from '../../../lib/create-tables';
import {
  type LocalFeeds,
  readLocalDeployment,
  recordLocalDeployment,
} from '../../../lib/deployment/local-deployment';
import { folderFeedFiles } from '../../../lib/feed-folder';
import type { FeedView } from '../../../lib/ops/feeds';
import { settingsOfCdkJson } from '../../../lib/settings';
import { type AdminRun, cliTarget, runAdmin } from '../../../testkit/admin-cli';
import { createTestTables, type TestTables } from '../../../testkit/dynamodb';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';

const tables = localTableNames();

describe('vacancy-admin feed', () => {
  let api: LocalApiProcess;
  let client: ReturnType<typeof createDocumentClient>;
  let feeds: LocalFeeds;
  const admin = (args: string[]): Promise<AdminRun> =>
    runAdmin([...cliTarget(api.dynamodbEndpoint, tables), ...args]);
  const json = async <T>(args: string[]): Promise<T> => {
    const run = await admin(['--json', ...args]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  };
  /** What a client fetching the URL gets: the status and the body, unzipped by fetch. */
  const fetched = async (url: string) => {
    const response = await fetch(url);
    return { status: response.status, body: await response.text() };
  };

  beforeAll(async () => {
    // Its own embedded engine, whose writes wake its builds, as npm start's do; a build follows a write by the settle
    // window and a second: the least window, as a test may have it.
    api = await startLocalApiProcess({ port: 0, dynamodbPort: 0 }, { VVA_SETTLE_MS: '1000' });
    client = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
    feeds = (await readLocalDeployment(client, tables.vendors))?.feeds as LocalFeeds;
    expect(await admin(['vendor', 'put', 'caspian', '--company', 'Caspian LLC'])).toMatchObject({ code: 0 });
  });
  afterAll(async () => {
    await api?.stop();
    client.destroy();
  });

  it("adds a feed and prints its id and URL, under the local server's address, once the URL serves its first build", async () => {
    const run = await admin(['feed', 'add', 'caspian', '--format', 'indeed']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const match = /^feed (fd_\S+) added for caspian \(indeed, (az|en)\): (\S+)\n$/.exec(run.stdout);
    expect(match?.[2]).toBe(settingsOfCdkJson().defaultLocale);
    const url = new URL(match?.[3] ?? '');
    expect(url.origin).toBe(api.url);
    const [, feedsSegment, token, file] = url.pathname.split('/');
    expect([feedsSegment, file]).toEqual(['feeds', 'indeed.xml']);
    expect(token).toMatch(FEED_TOKEN);

    const view = await json<FeedView>(['feed', 'add', 'caspian', '--format', 'sitemap', '--lang', 'en']);
    expect(view).toEqual({
      feedId: expect.stringMatching(/^fd_/),
      vendorId: 'caspian',
      format: 'sitemap',
      lang: 'en',
      url: expect.stringMatching(new RegExp(`^${api.url}/feeds/[A-Za-z0-9_-]{32}/sitemap\\.xml$`)),
      createdAt: expect.any(String),
    });
    // Built by the time `add` returned: the sitemap of a vendor that lists nothing, and the list says when.
    expect(await fetched(view.url)).toEqual({
      status: 200,
      body: '<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n',
    });
    const listed = (await json<FeedView[]>(['feed', 'list'])).find((one) => one.feedId === view.feedId);
    expect(listed).toMatchObject({ lastBuildAt: expect.any(String), vacancies: 0 });
    expect((await fetched(url.href)).status).toBe(200);
  });

  it('lists feeds with their last build, and removes one: its file is deleted and its URL answers 404', async () => {
    const view = await json<FeedView>(['feed', 'add', 'caspian', '--format', 'indeed', '--lang', 'en']);
    const token = new URL(view.url).pathname.split('/')[2] ?? '';
    // Built by the server before `add` returned, and its work done: its build as the list says.
    await api.idle();
    const served = (await json<FeedView[]>(['feed', 'list'])).find((one) => one.feedId === view.feedId);
    expect(served).toEqual({ ...view, lastBuildAt: expect.any(String), vacancies: 0 });
    // Then a later build, by hand: the file through the server's folder, then its record. The record is a write the
    // server sees; the vendor's state is unchanged by it, so no round builds again.
    const builtAt = Date.parse(served?.lastBuildAt ?? '') + 60_000;
    const xml =
      '<?xml version="1.0" encoding="utf-8"?>\n<source><publisher>Caspian LLC</publisher></source>\n';
    await folderFeedFiles(feeds.folder).put(token, 'indeed.xml', Readable.from([gzipSync(xml)]), builtAt);
    await new FeedStore(client, tables.vendors).recordBuild(view.feedId, builtAt, 7);
    await api.idle();
    expect(await fetched(view.url)).toEqual({ status: 200, body: xml });

    const listed = await admin(['feed', 'list', '--vendor', 'caspian']);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    // The build by hand.
    const line = lines.find((one) => one.startsWith(`${view.feedId}  `)) ?? '';
    expect(line).toBe(
      `${view.feedId}  caspian  indeed  en  ${view.url}  built ${new Date(builtAt).toISOString()}, 7 vacancies`,
    );
    // The other two, built by the server when they were added: caspian lists nothing.
    const others = lines.filter((one) => one !== line);
    expect(others).toHaveLength(2);
    for (const other of others) expect(other).toMatch(/ {2}built \S+Z, 0 vacancies$/);
    const views = await json<FeedView[]>(['feed', 'list']);
    expect(views.find((one) => one.feedId === view.feedId)).toEqual({
      ...view,
      lastBuildAt: new Date(builtAt).toISOString(),
      vacancies: 7,
    });

    expect(await admin(['feed', 'remove', view.feedId])).toMatchObject({
      code: 0,
      stdout: `feed ${view.feedId} of caspian removed\n`,
    });
    expect(await fetched(view.url)).toEqual({ status: 404, body: 'Not Found\n' });
    expect(existsSync(join(feeds.folder, token))).toBe(false);
    expect(
      (await json<FeedView[]>(['feed', 'list', '--vendor', 'caspian'])).map((v) => v.feedId),
    ).not.toContain(view.feedId);
  });

  it('refuses in one line: an unknown vendor, a sixth feed, a feed not there (exit 1); a bad format or language (2)', async () => {
    const oneLine = (run: AdminRun, code: number, message: string) => {
      expect(run).toMatchObject({ code, stdout: '' });
      expect(run.stderr.trimEnd().split('\n')[0]).toBe(`error: ${message}`);
      expect(run.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(code === 2 ? 2 : 1);
    };
    oneLine(
      await admin(['feed', 'add', 'nobody', '--format', 'indeed']),
      1,
      'vendor "nobody" does not exist (create it with "vendor put nobody --company …").',
    );
    while ((await json<FeedView[]>(['feed', 'list', '--vendor', 'caspian'])).length < 5)
      await json<FeedView>(['feed', 'add', 'caspian', '--format', 'sitemap']);
    oneLine(
      await admin(['feed', 'add', 'caspian', '--format', 'indeed']),
      1,
      'vendor "caspian" has 5 feeds, the most it may have; remove one first.',
    );
    oneLine(await admin(['feed', 'remove', 'fd_nosuchfeed']), 1, 'feed "fd_nosuchfeed" does not exist.');
    // Not given as it must be: commander's line, a hint, exit code 2.
    oneLine(
      await admin(['feed', 'add', 'caspian', '--format', 'rss']),
      2,
      "option '--format <format>' argument 'rss' is invalid. One of indeed, sitemap.",
    );
    oneLine(
      await admin(['feed', 'add', 'caspian', '--format', 'indeed', '--lang', 'ru']),
      2,
      "option '--lang <lang>' argument 'ru' is invalid. One of az, en.",
    );
    oneLine(await admin(['feed', 'add', 'caspian']), 2, "required option '--format <format>' not specified");
  });

  describe('on tables a local server recorded its feeds in, and no runner builds', () => {
    let quiet: TestTables;
    const quietAdmin = (args: string[]) => runAdmin([...cliTarget(quiet.endpoint, quiet.names), ...args]);
    beforeAll(async () => {
      quiet = await createTestTables();
      await recordLocalDeployment(quiet.documentClient, quiet.names.vendors, {
        ...settingsOfCdkJson(),
        feeds: { base: 'http://127.0.0.1:3999', folder: join(tmpdir(), 'no-feeds') },
      });
    });
    afterAll(async () => quiet?.drop());

    it("lists how many vacancies a sitemap's build left out, their URL being one no sitemap can list", async () => {
      await quietAdmin(['vendor', 'put', 'shore', '--company', 'Shore']);
      const store = new FeedStore(quiet.documentClient, quiet.names.vendors);
      const placed = await store.add('shore', 'sitemap', 'en');
      if (!('added' in placed)) throw new Error('no place');
      const builtAt = Date.UTC(2026, 10, 24, 10, 15, 31);
      await store.recordBuild(placed.added.feedId, builtAt, 21, 2);
      const listed = await quietAdmin(['feed', 'list']);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(listed.stdout).toMatch(
        / {2}built 2026-11-24T10:15:31\.000Z, 21 vacancies, 2 left out \(a URL no sitemap can list\)\n$/,
      );
      const run = await quietAdmin(['--json', 'feed', 'list']);
      expect(JSON.parse(run.stdout)).toEqual([
        expect.objectContaining({ feedId: placed.added.feedId, vacancies: 21, leftOut: 2 }),
      ]);
      // A build that leaves none out says nothing of it.
      await store.recordBuild(placed.added.feedId, builtAt + 1, 23, 0);
      expect((await quietAdmin(['feed', 'list'])).stdout).toMatch(/ {2}built \S+, 23 vacancies\n$/);
    });
  });

  describe('on tables no local server has recorded its feeds in', () => {
    let bare: TestTables;
    const bareAdmin = (args: string[]) => runAdmin([...cliTarget(bare.endpoint, bare.names), ...args]);
    beforeAll(async () => {
      bare = await createTestTables();
    });
    afterAll(async () => bare?.drop());

    it('says so in one line, and adds nothing', async () => {
      const run = await bareAdmin(['feed', 'list']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `error: no local server has recorded where it serves feeds in these tables (local DynamoDB at ${bare.endpoint}): start npm start on them, or restart it.\n`,
      );
      await bareAdmin(['vendor', 'put', 'lonely', '--company', 'Lonely']);
      expect((await bareAdmin(['feed', 'add', 'lonely', '--format', 'indeed'])).code).toBe(1);
      expect(await new FeedStore(bare.documentClient, bare.names.vendors).ofVendor('lonely')).toEqual([]);
    });
  });
});
