/**
 * The request collection (examples/http/*.http) cannot rot: every request of every file runs, in order, against
 * `npm start`, as an IDE runs it — variables filled in, later requests using what earlier ones got — and gets the
 * status its `# expect` line says (and the `total` it says, where it says one: every search finds something), in the
 * contract's envelope when it is an API's error. The feeds' file gets the URLs of two feeds of the demo vendor, added
 * with the CLI as its header says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { admin } from '../../../testkit/admin-cli';
import { type HttpFileResponse, parseHttpFile, substitute } from '../../../testkit/http-file';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

const FOLDER = new URL('../../../examples/http/', import.meta.url).pathname;
const FILES = readdirSync(FOLDER).filter((file) => file.endsWith('.http'));

/** What each file is for: the statuses its requests show between them. */
const STATUSES: Readonly<Record<string, readonly number[]>> = {
  // The listing, a walk, a poll, a sync, a closed vacancy, the errors.
  'vacancies.http': [200, 304, 401, 403, 404, 405, 410, 422],
  // A feed, its poll, the 404 and 405.
  'feeds.http': [200, 304, 404, 405],
};

describe('the request collection (examples/http)', () => {
  let server: NpmStart;
  const feedUrls = new Map<string, string>();
  beforeAll(async () => {
    // The settle window at its least (1 s), as a test may have it.
    server = await startNpmStart([], { VVA_SETTLE_MS: '1000' });
    const engine = /DynamoDB \(embedded\): (http:\/\/127\.0\.0\.1:\d+)/.exec(server.banner)?.[1] ?? '';
    // A feed's URL answers once `feed add` has returned.
    for (const format of ['indeed', 'sitemap']) {
      const added = JSON.parse(
        await admin(['--endpoint', engine, '--json', 'feed', 'add', 'pasha-bank', '--format', format]),
      ) as { url: string };
      feedUrls.set(`${format}Url`, added.url);
    }
    // As the collection says: a sync sees the demo data once it is older than the settle window.
    await server.idle();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }, 60_000);
  afterAll(async () => server?.stop('SIGKILL'));

  it('has files, each request with the status it expects', () => {
    expect(FILES.length).toBeGreaterThan(0);
    expect(Object.keys(STATUSES).sort()).toEqual([...FILES].sort());
    for (const file of FILES) {
      const { requests } = parseHttpFile(readFileSync(`${FOLDER}${file}`, 'utf8'));
      expect(requests.length).toBeGreaterThan(5);
      for (const request of requests) expect(request.expect).toEqual(expect.any(Number));
    }
  });

  it('takes every address from its variables: npm start on another port is one value to change', () => {
    for (const file of FILES) {
      const { variables, requests } = parseHttpFile(readFileSync(`${FOLDER}${file}`, 'utf8'));
      expect([file, variables.get('port')]).toEqual([file, '3000']);
      const moved = new Map(variables);
      moved.set('port', '4000');
      const addresses = [...variables].filter(([, value]) => value.includes('://') || value.includes('{{'));
      expect(addresses.length).toBeGreaterThan(0);
      for (const [name, value] of addresses)
        expect([file, name, substitute(value, moved, new Map())]).toEqual([
          file,
          name,
          expect.stringMatching(/^http:\/\/127\.0\.0\.1:4000(\/|$)/),
        ]);
      // No request names a host of its own: each starts from a variable (or a link an earlier answer gave).
      for (const request of requests) expect(`${file}: ${request.url}`).toMatch(/^[^:]+: \{\{/);
    }
  });

  it('says of every search that it finds something on the demo data, and how much', () => {
    const { requests } = parseHttpFile(readFileSync(`${FOLDER}vacancies.http`, 'utf8'));
    const searches = requests.filter((request) => request.title.startsWith('Search'));
    expect(searches.length).toBeGreaterThan(0);
    for (const search of searches) expect(`${search.title}: ${search.expectTotal}`).toMatch(/: [1-9]\d*$/);
  });

  it.each(FILES)(
    '%s runs against npm start, request by request, as it says',
    async (file) => {
      const { variables, requests } = parseHttpFile(readFileSync(`${FOLDER}${file}`, 'utf8'));
      const local = new Map(variables);
      local.set('baseUrl', server.url);
      for (const [name, url] of feedUrls) if (local.has(name)) local.set(name, url);
      const responses = new Map<string, HttpFileResponse>();
      const statuses = new Set<number>();
      for (const request of requests) {
        const fill = (value: string) => substitute(value, local, responses);
        const response = await fetch(fill(request.url), {
          method: request.method,
          headers: request.headers.map(([name, value]) => [name, fill(value)] as [string, string]),
        });
        const text = await response.text();
        const json = /json/.test(response.headers.get('content-type') ?? '');
        const body = text === '' || !json ? undefined : (JSON.parse(text) as unknown);
        expect(`${request.title}: ${response.status}`).toBe(`${request.title}: ${request.expect}`);
        // What the request says it finds on the demo data, it finds.
        if (request.expectTotal !== undefined)
          expect(
            `${request.title}: total ${(body as { pagination?: { total?: number } }).pagination?.total}`,
          ).toBe(`${request.title}: total ${request.expectTotal}`);
        // The API's errors are its envelope; a feed's are the feeds' fixed text.
        if (response.status >= 400 && !new URL(response.url).pathname.startsWith('/feeds/'))
          expect(body).toMatchObject({ status: 'error', request_id: expect.any(String) });
        statuses.add(response.status);
        if (request.name) responses.set(request.name, { headers: response.headers, body });
      }
      for (const status of STATUSES[file] ?? []) expect(statuses).toContain(status);
    },
    60_000,
  );
});
