/**
 * The local server against hostile HTTP, in a process of its own: prototype names as headers and parameters,
 * path tricks, a foreign `Host`, repeated `Authorization`, bytes Node's parser refuses, very long values. The
 * server must survive all of it, answer every request in the envelope with an `X-Request-Id`, and never 5xx.
 */
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';
import { documentedFetch, expectDocumented } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
const KEY = 'vvk_test_acme_first';

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends raw bytes on a new connection and reads the one response, until the server closes the connection; the
 * response is held to docs/openapi.yaml for the request line's method and target.
 */
async function raw(port: number, request: string | Buffer): Promise<RawResponse> {
  const response = await exchange(port, request);
  const [method = '', target = ''] = request.toString().split('\r\n')[0]?.split(' ') ?? [];
  expectDocumented({ method, target, ...response });
  return response;
}

function exchange(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let body = rest.join('\r\n\r\n');
      if (headers.get('transfer-encoding') === 'chunked') {
        body = body
          .replace(/^[0-9a-f]+\r\n/i, '')
          .replace(/\r\n0\r\n\r\n$/, '')
          .replace(/\r\n0\r\n$/, '');
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

/** A GET with these header lines, as raw HTTP/1.1. */
const get = (target: string, headers: [string, string][] = []) =>
  `GET ${target} HTTP/1.1\r\n${[['Host', 'localhost'], ...headers, ['Connection', 'close']]
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n`;

/** Every answer: the envelope (or a 200/304 of the listing), an `X-Request-Id`, never a 5xx. */
function expectContained(response: RawResponse) {
  expect(response.status).toBeGreaterThanOrEqual(200);
  expect(response.status).toBeLessThan(500);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  if (response.status === 304) return;
  const body = JSON.parse(response.body) as { status: string; request_id?: string };
  if (response.status >= 400) {
    expect(body).toMatchObject({ status: 'error', request_id: requestId });
    expect(response.headers.get('cache-control')).toBe('no-store');
  } else expect(body.status).toBe('success');
}

describe('the local server under hostile HTTP', () => {
  let api: LocalApiProcess;
  let port: number;

  beforeAll(async () => {
    api = await startLocalApiProcess({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    port = Number(new URL(api.url).port);
  });
  afterAll(async () => api?.stop());

  const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];

  it.each(PROTOTYPE_NAMES)(
    'survives %s as a header, with and without a key, and as a parameter',
    async (name) => {
      for (const headers of [
        [[name, 'x']],
        [
          [name, 'x'],
          ['Authorization', `Bearer ${KEY}`],
        ],
      ] as [string, string][][]) {
        const response = await raw(port, get('/vendor/vacancies', headers));
        expectContained(response);
        expect(response.status).toBe(headers.length === 1 ? 401 : 200);
      }
      const asParameter = await raw(
        port,
        get(`/vendor/vacancies?${name}=1&${name}=2`, [['Authorization', `Bearer ${KEY}`]]),
      );
      expectContained(asParameter);
      expect(asParameter.status).toBe(200);
    },
  );

  it.each([
    '//evil.example/vendor/vacancies',
    '/x/../vendor/vacancies',
    '/vendor/./vacancies',
    '/vendor//vacancies',
    '/vendor/vacancies/',
    '/vendor/vacancies/.',
    '/VENDOR/vacancies',
    '/vendor/%76acancies',
    '/vendor/vacancies%2F',
    '/vendor/vacancies;x=1',
    'http://evil.example/vendor/vacancies',
    '*',
  ])('answers 404 to the path trick %s', async (target) => {
    const response = await raw(port, get(target, [['Authorization', `Bearer ${KEY}`]]));
    expectContained(response);
    expect(response.status).toBe(404);
  });

  it('builds pagination URLs from its own address, never from a foreign Host', async () => {
    const response = await raw(
      port,
      `GET /vendor/vacancies?per_page=1 HTTP/1.1\r\nHost: evil.example/phish?a=\r\nX-Forwarded-Proto: javascript\r\nX-Forwarded-Host: evil.example\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    expectContained(response);
    const { pagination } = JSON.parse(response.body) as { pagination: { next_page_url: string } };
    expect(pagination.next_page_url.startsWith(`${api.url}/vendor/vacancies?per_page=1&page=2&cursor=`)).toBe(
      true,
    );
  });

  it('refuses two Authorization headers, even two good ones', async () => {
    const response = await raw(
      port,
      get('/vendor/vacancies', [
        ['Authorization', `Bearer ${KEY}`],
        ['Authorization', `Bearer ${KEY}`],
      ]),
    );
    expectContained(response);
    expect(response.status).toBe(401);
  });

  it.each([
    ['a lower-case method', 'get /vendor/vacancies HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control byte in a header name', 'GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nX-\u0001: y\r\n\r\n'],
    ['a header line without a colon', 'GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n'],
    ['20 KB of headers', `GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    [
      'an unknown Expect',
      'GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n',
    ],
    ['no Host', 'GET /vendor/vacancies HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['a garbage request line', 'HELLO\r\n\r\n'],
    ['a bare LF', 'GET /vendor/vacancies HTTP/1.1\nHost: x\n\n'],
  ])('answers %s with a 400 in the envelope', async (_case, request) => {
    const response = await raw(port, request);
    expectContained(response);
    expect(response.status).toBe(400);
  });

  const PAGE = 'https://careers.acme.example';
  it.each([
    [
      '20 KB of headers',
      `GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nOrigin: ${PAGE}\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    ],
    [
      'a control byte in a header name',
      `GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nOrigin: ${PAGE}\r\nX-\u0001: y\r\n\r\n`,
    ],
    [
      'an unknown Expect',
      `GET /vendor/vacancies HTTP/1.1\r\nHost: x\r\nOrigin: ${PAGE}\r\nExpect: bogus\r\nConnection: close\r\n\r\n`,
    ],
    ['no Host', `GET /vendor/vacancies HTTP/1.1\r\nOrigin: ${PAGE}\r\nConnection: close\r\n\r\n`],
  ])('answers %s from a page with a 400 the page can read (CORS headers)', async (_case, request) => {
    const response = await raw(port, request);
    expectContained(response);
    expect(response.status).toBe(400);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  it('takes 10,240 bytes of request line and headers, and answers one more with a 400', async () => {
    const head = (bytes: number) => {
      const start = `GET /vendor/vacancies HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Pad: `;
      return `${start}${'a'.repeat(bytes - start.length - 4)}\r\n\r\n`;
    };
    expect(Buffer.byteLength(head(10_240))).toBe(10_240);
    const within = await raw(port, head(10_240));
    expectContained(within);
    expect(within.status).toBe(401);
    const past = await raw(port, head(10_241));
    expectContained(past);
    expect(past.status).toBe(400);
  });

  // Every method Node's parser accepts, CONNECT (which Node hands to a listener of its own) included; OPTIONS is
  // a page's preflight (test/e2e/http/cors.test.ts).
  const OTHER_METHODS = METHODS.filter((method) => !['GET', 'HEAD', 'OPTIONS'].includes(method));
  it.each(OTHER_METHODS)('answers %s in the envelope: 405 on the routes, 404 elsewhere', async (method) => {
    const request = (target: string) =>
      `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    for (const route of ['/vendor/vacancies', '/vendor/vacancies/42']) {
      const onRoute = await raw(port, request(route));
      expectContained(onRoute);
      expect([onRoute.status, onRoute.headers.get('allow')]).toEqual([405, 'GET, OPTIONS']);
    }
    const elsewhere = await raw(port, request('/vendor/other'));
    expectContained(elsewhere);
    expect(elsewhere.status).toBe(404);
  });

  it('answers HEAD on the route with the 405 head, and no body', async () => {
    const response = await exchange(
      port,
      'HEAD /vendor/vacancies HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect([response.status, response.headers.get('allow'), response.body]).toEqual([
      405,
      'GET, OPTIONS',
      '',
    ]);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers very long values without failing: a 9 KB query, a 9 KB key', async () => {
    const longQuery = await raw(
      port,
      get(`/vendor/vacancies?type=${'1'.repeat(9_000)}`, [['Authorization', `Bearer ${KEY}`]]),
    );
    expectContained(longQuery);
    expect(longQuery.status).toBe(422);
    const longKey = await raw(
      port,
      get('/vendor/vacancies', [['Authorization', `Bearer ${'k'.repeat(9_000)}`]]),
    );
    expectContained(longKey);
    expect(longKey.status).toBe(401);
  });

  it('is still up and answering after all of it', async () => {
    expect(api.process.exitCode).toBeNull();
    const response = await documentedFetch(`${api.url}/vendor/vacancies`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(200);
  });
});
