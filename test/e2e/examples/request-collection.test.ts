/**
 * The request collection (examples/http/*.http) cannot rot: every request of every file runs, in order, against
 * `npm start`, as an IDE runs it — variables filled in, later requests using what earlier ones got — and gets the
 * status its `# expect` line says, in the contract's envelope when it is an error.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type HttpFileResponse, parseHttpFile, substitute } from '../../../testkit/http-file';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

const FOLDER = new URL('../../../examples/http/', import.meta.url).pathname;
const FILES = readdirSync(FOLDER).filter((file) => file.endsWith('.http'));

describe('the request collection (examples/http)', () => {
  let server: NpmStart;
  beforeAll(async () => {
    server = await startNpmStart();
    // As the collection says: a sync sees the demo data once it is 5 seconds old.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
  }, 30_000);
  afterAll(async () => server?.stop('SIGKILL'));

  it('has files, each request with the status it expects', () => {
    expect(FILES.length).toBeGreaterThan(0);
    for (const file of FILES) {
      const { requests } = parseHttpFile(readFileSync(`${FOLDER}${file}`, 'utf8'));
      expect(requests.length).toBeGreaterThan(5);
      for (const request of requests) expect(request.expect).toEqual(expect.any(Number));
    }
  });

  it.each(FILES)(
    '%s runs against npm start, request by request, as it says',
    async (file) => {
      const { variables, requests } = parseHttpFile(readFileSync(`${FOLDER}${file}`, 'utf8'));
      const local = new Map(variables);
      local.set('baseUrl', server.url);
      const responses = new Map<string, HttpFileResponse>();
      const statuses = new Set<number>();
      for (const request of requests) {
        const fill = (value: string) => substitute(value, local, responses);
        const response = await fetch(fill(request.url), {
          method: request.method,
          headers: request.headers.map(([name, value]) => [name, fill(value)] as [string, string]),
        });
        const text = await response.text();
        const body = text === '' ? undefined : (JSON.parse(text) as unknown);
        expect(`${request.title}: ${response.status}`).toBe(`${request.title}: ${request.expect}`);
        if (response.status >= 400)
          expect(body).toMatchObject({ status: 'error', request_id: expect.any(String) });
        statuses.add(response.status);
        if (request.name) responses.set(request.name, { headers: response.headers, body });
      }
      // What the collection is for: the listing, a walk, a poll, a sync, a closed vacancy, the errors.
      for (const status of [200, 304, 401, 403, 404, 405, 410, 422]) expect(statuses).toContain(status);
    },
    60_000,
  );
});
