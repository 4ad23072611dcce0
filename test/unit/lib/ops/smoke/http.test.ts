/**
 * The smoke check's HTTP client (lib/ops/smoke/http.ts): the base URL as an operator may give it (the stage's URL
 * with its slash, the ListingUrl output), a 429 waited out, and no answer said as one line naming the URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiUnreachableError } from '../../../../../lib/ops/errors';
import { Api } from '../../../../../lib/ops/smoke/http';

let server: Server;
let base: string;
const answered: string[] = [];

beforeAll(async () => {
  // The first request to /throttled is answered 429 (Retry-After: 1), the next 200.
  server = createServer((request, response) => {
    answered.push(request.url ?? '');
    const throttled =
      request.url === '/throttled' && answered.filter((url) => url === '/throttled').length === 1;
    response.writeHead(throttled ? 429 : 200, throttled ? { 'retry-after': '1' } : {}).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the smoke check over HTTP', () => {
  it("takes the stage's URL with its slash, or the ListingUrl output, as the API's base", () => {
    expect(new Api('https://abc.execute-api.eu-central-1.amazonaws.com/prod/').base).toBe(
      'https://abc.execute-api.eu-central-1.amazonaws.com/prod',
    );
    const fromListingUrl = new Api('https://api.example.az/vendor/vacancies');
    expect(fromListingUrl.base).toBe('https://api.example.az');
    expect(fromListingUrl.listing({ per_page: 2 })).toBe(
      'https://api.example.az/vendor/vacancies?per_page=2',
    );
    expect(fromListingUrl.vacancy(7)).toBe('https://api.example.az/vendor/vacancies/7');
  });

  it('waits out a 429 and asks again', async () => {
    const answer = await new Api(base).request(`${base}/throttled`, {}, new AbortController().signal);
    expect(answer.status).toBe(200);
    expect(answered.filter((url) => url === '/throttled')).toHaveLength(2);
  });

  it('says in one line, naming the URL, that nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const signal = new AbortController().signal;
    const refused = new Api(`http://127.0.0.1:${port}`);
    await expect(refused.request(refused.listing(), {}, signal)).rejects.toThrow(
      new ApiUnreachableError(
        `nothing answers at http://127.0.0.1:${port}/vendor/vacancies (connection refused)`,
      ),
    );
  });
});
