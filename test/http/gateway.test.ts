/** The API Gateway stand-in's own decisions, around stand-in handlers: what it does when they fail. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { createLocalGateway, type GatewayHandlers } from '../../lib/local/gateway';

const allow = (context: Record<string, string>): APIGatewayAuthorizerResult => ({
  principalId: 'acme',
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

describe('local gateway', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
  });

  async function serve(handlers: GatewayHandlers): Promise<string> {
    server = createServer(createLocalGateway(handlers));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/vendor/vacancies`;
  }
  const okListing: GatewayHandlers['listing'] = async () => ({ statusCode: 200, body: '{}' });
  const headers = { Authorization: 'Bearer k' };

  it('answers 500 when the authorizer fails for another reason than "Unauthorized"', async () => {
    const url = await serve({
      authorizer: async () => {
        throw new Error('DynamoDB unavailable');
      },
      listing: okListing,
    });
    const response = await fetch(url, { headers });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ status: 'error', message: 'Server Error.' });
  });

  it('hands the authorizer context to the handler, with the request id and query maps', async () => {
    let seen: Parameters<GatewayHandlers['listing']>[0] | undefined;
    const url = await serve({
      authorizer: async () => allow({ vendorId: 'acme', company: 'Acme' }),
      listing: async (event) => {
        seen = event;
        return { statusCode: 200, body: '{}' };
      },
    });
    const response = await fetch(`${url}?type=1&type=2&lang=en`, {
      headers: { ...headers, 'Accept-Language': 'az' },
    });
    expect(response.status).toBe(200);
    expect(seen?.requestContext.authorizer).toEqual({
      vendorId: 'acme',
      company: 'Acme',
      principalId: 'acme',
    });
    expect(seen?.multiValueQueryStringParameters).toEqual({ type: ['1', '2'], lang: ['en'] });
    expect(seen?.queryStringParameters).toEqual({ type: '2', lang: 'en' });
    expect(seen?.headers['Accept-Language']).toBe('az');
  });

  it('answers 403 when the policy does not cover the method, and 502 when the handler itself fails', async () => {
    const denied = await serve({
      authorizer: async () => ({ ...allow({}), policyDocument: { Version: '2012-10-17', Statement: [] } }),
      listing: okListing,
    });
    expect((await fetch(denied, { headers })).status).toBe(403);
    server?.close();
    const failing = await serve({
      authorizer: async () => allow({ vendorId: 'acme', company: 'Acme' }),
      listing: async () => {
        throw new Error('crash');
      },
    });
    const response = await fetch(failing, { headers });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ message: 'Server Error.' });
  });
});
