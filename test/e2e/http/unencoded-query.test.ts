/**
 * A query typed as is — `curl '…/vendor/vacancies?q=bakı'`, which sends the UTF-8 bytes of `ı` unencoded — against
 * `npm start` (docs/design.md#a-query-sent-unencoded): refused as API Gateway refuses a character it does not take
 * unencoded, in the contract's envelope naming the cause (percent-encode the query), with its `X-Request-Id` and the
 * CORS headers of its `Origin`; printed in the request log and counted in the summary of Ctrl-C like any answered
 * request. The same query percent-encoded finds what it should. The bytes go over a raw socket: `fetch` would encode
 * them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UNENCODED_QUERY } from '../../../lambda/domain/service/gateway-answers';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

const KEY = 'vvk_demo_pasha_bank_primary';

/** Sends the bytes of a request as they are; resolves with the status line's code, the headers and the body. */
function rawRequest(url: string, head: Buffer): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(head));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body });
    });
  });
}

const get = (target: string, origin?: string) =>
  Buffer.concat([
    Buffer.from('GET '),
    Buffer.from(target, 'utf8'),
    Buffer.from(
      ` HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
        `${origin ? `Origin: ${origin}\r\n` : ''}Connection: close\r\n\r\n`,
    ),
  ]);

describe('a query sent unencoded (raw UTF-8) to npm start', () => {
  let server: NpmStart;
  beforeAll(async () => {
    server = await startNpmStart();
  }, 60_000);
  afterAll(async () => server?.stop('SIGKILL'));

  it('is refused in the envelope naming the cause, logged, and counted in the summary; encoded, it finds', async () => {
    const refused = await rawRequest(
      server.url,
      get('/vendor/vacancies?per_page=1&q=bakı', 'http://localhost:4320'),
    );
    expect(refused.status).toBe(400);
    const requestId = /^x-request-id: (\S+)$/im.exec(refused.headers)?.[1];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.headers).toMatch(/^content-type: application\/json/im);
    expect(refused.headers).toMatch(/^access-control-allow-origin: http:\/\/localhost:4320$/im);
    expect(JSON.parse(refused.body)).toEqual({
      status: 'error',
      message: UNENCODED_QUERY.message,
      request_id: requestId,
    });
    expect(UNENCODED_QUERY.message).toMatch(/percent-encoded/);

    // Percent-encoded, as the message says: Bakı's vacancies.
    const encoded = await fetch(`${server.url}/vendor/vacancies?per_page=1&q=bak%C4%B1`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(encoded.status).toBe(200);
    expect(((await encoded.json()) as { pagination: { total: number } }).pagination.total).toBeGreaterThan(0);

    // Its line in the request log: the parameters' names, never their values.
    const line = (await server.printed((printed) => printed.includes(requestId as string)))
      .split('\n')
      .find((printed) => printed.includes(requestId as string));
    expect(line).toMatch(/ GET \/vendor\/vacancies\?per_page&q {2}400 {2}\d+ ms {2}[0-9a-f-]{36}$/);
    expect(server.stdout()).not.toContain('bakı');

    // And in what Ctrl-C prints: two requests, one of them the 400.
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.stdout()).toMatch(/Served 2 requests in \d+ s\.\n {2}by status: {3}200 × 1, 400 × 1\n/);
  }, 60_000);
});
