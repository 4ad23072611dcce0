/** The API Gateway stand-in's own decisions, around stand-in handlers: what it does when they fail or hang. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { FUNCTION_LIMITS } from '../../../../lambda/domain/service/limits';
import {
  answerRefusedRequests,
  createLocalGateway,
  type GatewayHandlers,
} from '../../../../lib/local/gateway';

const allow = (context: Record<string, string>): APIGatewayAuthorizerResult => ({
  principalId: 'acme',
  usageIdentifierKey: 'usage-key-of-acme',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: 'arn:aws:execute-api:local:000000000000:local/local/GET/*',
      },
    ],
  },
  context,
});

/** A request with raw header lines: `fetch` would merge repeated headers. */
function rawGet(url: string, headers: [string, string][]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const lines = [['Host', 'local.test'], ...headers].flat();
    const request = httpRequest(url, { method: 'GET', headers: lines }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('local gateway', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  async function serve(handlers: GatewayHandlers, timeoutsMs = { authorizer: 5_000, listing: 10_000 }) {
    server = createServer({ requireHostHeader: false });
    answerRefusedRequests(server);
    server.on('request', createLocalGateway(handlers, { domainName: 'local.test', timeoutsMs }));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/vendor/vacancies`;
  }
  const okListing: GatewayHandlers['listing'] = async () => ({ statusCode: 200, body: '{}' });
  const allowAcme: GatewayHandlers['authorizer'] = async () => allow({ vendorId: 'acme', company: 'Acme' });
  const headers = { Authorization: 'Bearer k' };

  it('gives each function a context with its deployed memory size and timeout', async () => {
    const seen = new Map<string, { memory: string; remaining: number }>();
    const record = (name: string, context: { memoryLimitInMB: string; getRemainingTimeInMillis(): number }) =>
      seen.set(name, { memory: context.memoryLimitInMB, remaining: context.getRemainingTimeInMillis() });
    const url = await serve({
      authorizer: async (event, context) => {
        record('authorizer', context);
        return allowAcme(event, context);
      },
      listing: async (event, context) => {
        record('listing', context);
        return okListing(event, context);
      },
    });
    expect((await fetch(url, { headers })).status).toBe(200);
    for (const name of ['authorizer', 'listing'] as const) {
      expect(seen.get(name)?.memory).toBe(String(FUNCTION_LIMITS[name].memoryMb));
    }
    expect(seen.get('listing')?.remaining).toBeGreaterThan(9_000);
    expect(seen.get('listing')?.remaining).toBeLessThanOrEqual(10_000);
  });

  it('answers 503 with Retry-After when the authorizer fails for another reason than "Unauthorized"', async () => {
    const url = await serve({
      authorizer: async () => {
        throw new Error('The key could not be checked');
      },
      listing: okListing,
    });
    const response = await fetch(url, { headers });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ status: 'error', message: 'Service Unavailable.' });
    // From a page, the page can read it (docs/api.md#from-a-web-page).
    const fromPage = await fetch(url, { headers: { ...headers, Origin: 'https://careers.acme.example' } });
    expect(fromPage.status).toBe(503);
    expect(fromPage.headers.get('access-control-allow-origin')).toBe('https://careers.acme.example');
    expect(fromPage.headers.get('vary')).toBe('Origin');
    expect(fromPage.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('enforces the function timeouts: a hanging authorizer is a 503, a hanging listing a 502', async () => {
    const hang = () => new Promise<never>(() => undefined);
    const url = await serve({ authorizer: hang, listing: okListing }, { authorizer: 200, listing: 200 });
    const started = Date.now();
    expect((await fetch(url, { headers })).status).toBe(503);
    server?.close();
    const slowListing = await serve(
      { authorizer: allowAcme, listing: hang },
      { authorizer: 200, listing: 200 },
    );
    expect((await fetch(slowListing, { headers })).status).toBe(502);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('hands the listing plain JSON: the authorizer context, the request id, the query maps', async () => {
    let seen: Parameters<GatewayHandlers['listing']>[0] | undefined;
    const url = await serve({
      authorizer: allowAcme,
      listing: async (event) => {
        seen = event;
        return { statusCode: 200, body: '{}' };
      },
    });
    const response = await rawGet(`${url}?type=1&type=2&lang=en&__proto__=x&constructor=y`, [
      ['Authorization', 'Bearer k'],
      ['Accept-Language', 'az'],
      ['__proto__', 'p'],
      ['X-Forwarded-Proto', 'gopher'],
    ]);
    expect(response.status).toBe(200);
    expect(seen?.requestContext.authorizer).toEqual({
      vendorId: 'acme',
      company: 'Acme',
      principalId: 'acme',
    });
    expect(seen?.requestContext.domainName).toBe('local.test');
    expect(seen?.multiValueQueryStringParameters).toEqual(
      JSON.parse('{"type":["1","2"],"lang":["en"],"__proto__":["x"],"constructor":["y"]}'),
    );
    expect(seen?.queryStringParameters?.type).toBe('2');
    expect(seen?.headers['Accept-Language']).toBe('az');
    expect(Object.getPrototypeOf(seen?.headers)).toBe(Object.prototype);
    expect(Object.hasOwn(seen?.headers ?? {}, '__proto__')).toBe(true);
    expect(seen?.multiValueHeaders['X-Forwarded-Proto']).toEqual(['http']);
  });

  it('routes /vendor/vacancies/{id} to the listing function with its resource and the id decoded, and nothing deeper', async () => {
    const seen: { resource: string; id: string | undefined; path: string; arn?: string }[] = [];
    const url = await serve({
      authorizer: async (event, context) => {
        seen.push({ resource: 'authorizer', id: undefined, path: '', arn: event.methodArn });
        return allowAcme(event, context);
      },
      listing: async (event, context) => {
        seen.push({ resource: event.resource, id: event.pathParameters?.id, path: event.path });
        return okListing(event, context);
      },
    });
    expect((await fetch(`${url}/42`, { headers })).status).toBe(200);
    expect((await fetch(`${url}/%34%32`, { headers })).status).toBe(200);
    expect(seen).toEqual([
      {
        resource: 'authorizer',
        id: undefined,
        path: '',
        arn: expect.stringMatching(/\/local\/GET\/vendor\/vacancies\/42$/),
      },
      { resource: '/vendor/vacancies/{id}', id: '42', path: '/vendor/vacancies/42' },
      {
        resource: 'authorizer',
        id: undefined,
        path: '',
        arn: expect.stringMatching(/\/GET\/vendor\/vacancies\/%34%32$/),
      },
      { resource: '/vendor/vacancies/{id}', id: '42', path: '/vendor/vacancies/42' },
    ]);
    seen.length = 0;
    for (const path of ['/', '/42/', '/42/x', '//42']) {
      const response = await fetch(`${url}${path}`, { headers });
      expect([path, response.status, ((await response.json()) as { message: string }).message]).toEqual([
        path,
        404,
        'Not Found.',
      ]);
    }
    const malformed = await fetch(`${url}/%E0%A4%A`, { headers });
    expect(malformed.status).toBe(400);
    const post = await fetch(`${url}/42`, { method: 'POST', headers });
    expect([post.status, post.headers.get('Allow')]).toEqual([405, 'GET, OPTIONS']);
    const anonymous = await fetch(`${url}/42`);
    expect(anonymous.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('refuses a repeated, malformed or Unicode-spaced Authorization header without running the authorizer', async () => {
    let calls = 0;
    const url = await serve({
      authorizer: async () => {
        calls += 1;
        return allow({ vendorId: 'acme', company: 'Acme' });
      },
      listing: okListing,
    });
    for (const lines of [
      [
        ['Authorization', 'Bearer k'],
        ['Authorization', 'Bearer k'],
      ],
      [
        ['Authorization', 'Bearer k'],
        ['authorization', 'Bearer other'],
      ],
      [['Authorization', 'Bearer\u00A0k']],
      [['Authorization', 'Bearer']],
    ] as [string, string][][]) {
      expect((await rawGet(url, lines)).status).toBe(401);
    }
    expect(calls).toBe(0);
    expect((await rawGet(url, [['Authorization', 'Bearer k']])).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('answers 403 when the policy does not cover the method, and 502 when the handler itself fails', async () => {
    const denied = await serve({
      authorizer: async () => ({ ...allow({}), policyDocument: { Version: '2012-10-17', Statement: [] } }),
      listing: okListing,
    });
    expect((await fetch(denied, { headers })).status).toBe(403);
    server?.close();
    const failing = await serve({
      authorizer: allowAcme,
      listing: async () => {
        throw new Error('crash');
      },
    });
    const response = await fetch(failing, { headers });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ message: 'Server Error.' });
  });
});
