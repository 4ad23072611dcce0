/**
 * A REST proxy event as the Fetch standard's `Request`, and a `Response` as a proxy result: method, every header
 * value, the body as text or decoded from base64; a header no `Headers` can hold is the client's 400.
 */
import { describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpError } from '../../../../../lambda/platform/http/errors';
import { proxyResult, webRequest } from '../../../../../lambda/platform/http/web-standard';

const event = (overrides: Partial<APIGatewayProxyEvent>): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    headers: {},
    multiValueHeaders: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { domainName: 'api.example.com', path: '/prod/mcp' },
    ...overrides,
  }) as APIGatewayProxyEvent;

describe('webRequest', () => {
  it('carries the method, the URL, every value of every header and the body as text', async () => {
    const request = webRequest(
      event({
        multiValueHeaders: {
          'Content-Type': ['application/json'],
          Accept: ['application/json', 'text/event-stream'],
        },
        body: '{"jsonrpc":"2.0"}',
      }),
    );
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://api.example.com/prod/mcp');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(await request.text()).toBe('{"jsonrpc":"2.0"}');
  });

  it('decodes a body API Gateway passed as base64, and reads the single-value headers when there are no others', async () => {
    const request = webRequest(
      event({
        multiValueHeaders: undefined as never,
        headers: { 'X-Name': 'value' },
        body: Buffer.from('{"id":1}').toString('base64'),
        isBase64Encoded: true,
      }),
    );
    expect(request.headers.get('x-name')).toBe('value');
    expect(await request.text()).toBe('{"id":1}');
  });

  it('refuses a header no Headers can hold with the 400', () => {
    let thrown: unknown;
    try {
      webRequest(event({ multiValueHeaders: { 'Bad Name': ['x'] } }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).statusCode).toBe(400);
  });
});

describe('proxyResult', () => {
  it('keeps the status, the headers and the body as text', async () => {
    const result = await proxyResult(
      new Response('{"ok":true}', { status: 202, headers: { 'Content-Type': 'application/json' } }),
    );
    expect(result).toEqual({
      statusCode: 202,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    });
  });
});
