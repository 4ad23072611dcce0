/**
 * `POST /mcp` over real HTTP (docs/api.md#agents-mcp), against the local server with the test seed, through the MCP
 * SDK's own `Client` and `StreamableHTTPClientTransport` — a real client, not our code: it initializes (the protocol
 * version negotiated), lists the tools, calls both (their structured content checked by the client against each
 * tool's output schema) and gets the listing's answers — the same vacancies, total and facets as `GET
 * /vendor/vacancies`, a walk by the tool's cursor the listing's pages — and its refusals as tool errors: an invalid
 * argument named as the listing's 422 names it, a vacancy not found or no longer open as §9 says. Around it, HTTP: the
 * keys, origins and refusals of the listing before any JSON-RPC is read, the preflight, the 405 of other methods, and
 * JSON-RPC's own errors for a malformed message — every answer held to docs/openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_MAX_MESSAGE_BYTES } from '../../../lambda/functions/mcp/factory';
import type { ListingResponse } from '../../../lambda/functions/vacancies/bodies';
import { MAX_BODY_BYTES } from '../../../lib/local/gateway';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
/** Acme's secret key: its vacancies 1 to 5 are active, 6 closed, 7 expired. */
const ACME = 'vvk_test_acme_first';
/** Acme's publishable key, from its origins only. */
const ACME_PAGE = 'vvp_test_acme_page';
const ACME_ORIGIN = 'https://careers.acme.example';
/** Initech's: a suspended vendor. */
const INITECH = 'vvk_test_initech';

/** What a client says of itself. */
const CLIENT_INFO = { name: 'mcp-e2e', version: '1.0.0' };

/** An MCP message as a client posts it: JSON, accepting JSON or an event stream; the answer held to openapi.yaml. */
const post = (url: string, message: unknown, headers: Record<string, string> = {}) =>
  documentedFetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
});

/** The JSON text of a tool's result, parsed: what a client that reads text only gets. */
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  JSON.parse((result.content as { type: string; text: string }[])[0]?.text ?? 'null');

describe('POST /mcp, the MCP server, over HTTP with the SDK’s own client', () => {
  let api: LocalApi;
  let mcpUrl: string;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  const listing = async (query: string) => {
    const response = await documentedFetch(`${api.url}/vendor/vacancies?${query}`, {
      headers: { Authorization: `Bearer ${ACME}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as ListingResponse;
  };

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    mcpUrl = `${api.url}/mcp`;
    client = new Client(CLIENT_INFO);
    transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${ACME}` } },
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await api?.stop();
  });

  it('initializes statelessly: the latest protocol version, the server named, no session', async () => {
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()).toMatchObject({ name: 'vendor-vacancy-api', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain('search_vacancies');
  });

  it('negotiates 2025-11-25 and 2025-06-18, each as asked', async () => {
    for (const version of ['2025-11-25', '2025-06-18']) {
      const response = await post(mcpUrl, initialize(version), { Authorization: `Bearer ${ACME}` });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const body = (await response.json()) as { result: { protocolVersion: string } };
      expect(body.result.protocolVersion).toBe(version);
    }
  });

  it('lists the two tools, read-only, each with an input and an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_vacancies', 'get_vacancy']);
    for (const tool of tools) {
      expect(tool.description).toEqual(expect.any(String));
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tool.outputSchema?.type).toBe('object');
    }
    const [search, vacancy] = tools;
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual([
      'q',
      'category',
      'city',
      'type',
      'experience_min',
      'experience_max',
      'workplace',
      'facets',
      'page',
      'per_page',
      'lang',
      'include',
      'cursor',
    ]);
    expect(search?.inputSchema.properties?.workplace).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: ['onsite', 'hybrid', 'remote'] },
    });
    expect(search?.inputSchema.properties?.per_page).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
    expect(search?.inputSchema.properties?.category).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: expect.arrayContaining(['it', 'finance']) },
    });
    expect(vacancy?.inputSchema.required).toEqual(['id']);
    expect(Object.keys(vacancy?.inputSchema.properties ?? {})).toEqual(['id', 'lang', 'include']);
  });

  it('answers search_vacancies as the listing answers the same query, and walks its pages by cursor', async () => {
    const first = await client.callTool({
      name: 'search_vacancies',
      arguments: { per_page: 2, lang: 'en', facets: ['type', 'city'] },
    });
    expect(first.isError).toBeFalsy();
    const expected = await listing('per_page=2&lang=en&facets=type,city');
    const structured = first.structuredContent as {
      company: string;
      data: unknown[];
      pagination: Record<string, unknown> & { cursor: string | null };
      facets: unknown;
    };
    expect(structured).toEqual({
      company: expected.company,
      data: expected.data,
      pagination: {
        current_page: 1,
        last_page: expected.pagination.last_page,
        per_page: 2,
        total: expected.pagination.total,
        cursor: expect.any(String),
      },
      facets: expected.facets,
    });
    // The same JSON as text.
    expect(textOf(first)).toEqual(structured);

    // Page by page: the tool's cursor, the listing's next_page_url.
    let cursor: string | null = structured.pagination.cursor;
    let next = expected.pagination.next_page_url;
    while (cursor !== null) {
      const page = await client.callTool({
        name: 'search_vacancies',
        arguments: { per_page: 2, lang: 'en', facets: ['type', 'city'], cursor },
      });
      const listed = await listing(new URL(next as string).search.slice(1));
      const content = page.structuredContent as typeof structured;
      expect(content.data).toEqual(listed.data);
      expect(content.pagination.current_page).toBe(listed.pagination.current_page);
      cursor = content.pagination.cursor;
      next = listed.pagination.next_page_url;
      expect(cursor === null).toBe(next === null);
    }
  });

  it('takes null, an empty string or an empty array as an argument not given, as the listing an empty value', async () => {
    const result = await client.callTool({
      name: 'search_vacancies',
      arguments: {
        q: null,
        category: [],
        city: '',
        workplace: null,
        type: '',
        lang: 'en',
        per_page: 3,
        cursor: '',
      },
    });
    const expected = await listing('q=&category=&lang=en&per_page=3');
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as { data: unknown[]; pagination: { total: number } };
    expect(content.data).toEqual(expected.data);
    expect(content.pagination.total).toBe(expected.pagination.total);
  });

  it('refuses invalid arguments as the listing’s 422 names them, as a tool error', async () => {
    const result = await client.callTool({
      name: 'search_vacancies',
      arguments: { per_page: 500, type: '1', category: ['nope'], q: 7, cursor: 'forged' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toEqual({
      message: 'The given data was invalid.',
      errors: {
        type: ['The type must be one of 1, 2, 3, 4.'],
        per_page: ['The per_page must be between 1 and 100.'],
        category: [expect.stringMatching(/^The category must be one or more of: it, finance, /)],
        q: ['The q must be a string.'],
        cursor: ['The cursor is invalid.'],
      },
    });
    // Another filter set's cursor, as the listing: the cursor is bound to the filters.
    const page = await client.callTool({ name: 'search_vacancies', arguments: { per_page: 1 } });
    const { cursor } = (page.structuredContent as { pagination: { cursor: string } }).pagination;
    const other = await client.callTool({
      name: 'search_vacancies',
      arguments: { per_page: 1, type: 2, cursor },
    });
    expect(textOf(other)).toEqual({
      message: 'The given data was invalid.',
      errors: { cursor: ['The cursor is invalid.'] },
    });
  });

  it('refuses any change to its cursor, its page included, naming the cursor — never another page', async () => {
    const page = await client.callTool({ name: 'search_vacancies', arguments: { per_page: 1 } });
    const { cursor } = (page.structuredContent as { pagination: { cursor: string } }).pagination;
    const replaced = (at: number, by: string) => `${cursor.slice(0, at)}${by}${cursor.slice(at + 1)}`;
    // Every character of it changed in turn — a digit to another digit, so a page number stays a number — then a
    // page of 999 put in place of whatever comes before its first dot, and a character more.
    const variants = [
      ...Array.from(cursor, (character, at) =>
        replaced(
          at,
          /[0-9]/.test(character) ? String((Number(character) + 1) % 10) : character === 'A' ? 'B' : 'A',
        ),
      ),
      `999.${cursor.slice(cursor.indexOf('.') + 1)}`,
      `${cursor}A`,
    ];
    for (const variant of variants) {
      const answer = await client.callTool({
        name: 'search_vacancies',
        arguments: { per_page: 1, cursor: variant },
      });
      expect([variant, answer.isError, textOf(answer)]).toEqual([
        variant,
        true,
        { message: 'The given data was invalid.', errors: { cursor: ['The cursor is invalid.'] } },
      ]);
    }
  });

  it('answers get_vacancy as the one-vacancy route: the vacancy, not found, or no longer open', async () => {
    const found = await client.callTool({ name: 'get_vacancy', arguments: { id: 1, lang: 'en' } });
    const expected = await documentedFetch(`${api.url}/vendor/vacancies/1?lang=en`, {
      headers: { Authorization: `Bearer ${ACME}` },
    });
    const { status: _status, ...body } = (await expected.json()) as Record<string, unknown>;
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toEqual(body);
    expect(textOf(found)).toEqual(body);

    // Globex's vacancy 8, and an id never stored: the same not found.
    for (const id of [8, 999]) {
      const missing = await client.callTool({ name: 'get_vacancy', arguments: { id } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toEqual({ message: 'Vacancy not found.' });
    }
    const closed = await client.callTool({ name: 'get_vacancy', arguments: { id: 6 } });
    expect(closed.isError).toBe(true);
    expect(textOf(closed)).toEqual({
      message: 'This vacancy is no longer open.',
      closed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const invalid = await client.callTool({ name: 'get_vacancy', arguments: { id: '1', lang: 'fr' } });
    expect(textOf(invalid)).toEqual({
      message: 'The given data was invalid.',
      errors: { lang: ['The lang must be one of az, en.'], id: ['The id must be an integer.'] },
    });
  });

  it('refuses keys as the listing does, in the contract’s envelope, before any JSON-RPC is read', async () => {
    const envelope = async (response: Response, status: number, message: string) => {
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(body).toEqual({ status: 'error', message, request_id: response.headers.get('x-request-id') });
    };
    const none = await post(mcpUrl, 'not even JSON');
    await envelope(none, 401, 'Unauthenticated.');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    await envelope(
      await post(mcpUrl, initialize('2025-11-25'), { Authorization: 'Bearer vvk_unknown_key_123' }),
      401,
      'Unauthenticated.',
    );
    await envelope(await post(mcpUrl, 'x', { Authorization: `Bearer ${INITECH}` }), 403, 'Forbidden.');
    const browser = await post(mcpUrl, 'x', { Authorization: `Bearer ${ACME}`, Origin: ACME_ORIGIN });
    await envelope(browser, 403, 'A secret key cannot be used from a browser; use a publishable key.');
    expect(browser.headers.get('access-control-allow-origin')).toBe(ACME_ORIGIN);
    await envelope(
      await post(mcpUrl, 'x', { Authorization: `Bearer ${ACME_PAGE}`, Origin: 'https://elsewhere.example' }),
      403,
      'This origin may not use this key.',
    );
    await envelope(
      await post(mcpUrl, 'x', { Authorization: `Bearer ${ACME_PAGE}` }),
      403,
      'This origin may not use this key.',
    );
  });

  it('serves a publishable key from one of its origins, with CORS, and answers its preflight', async () => {
    const preflight = await documentedFetch(mcpUrl, {
      method: 'OPTIONS',
      headers: {
        Origin: ACME_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ACME_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(
      /Authorization.*Content-Type.*Mcp-Protocol-Version/,
    );
    const page = await post(mcpUrl, initialize('2025-11-25'), {
      Authorization: `Bearer ${ACME_PAGE}`,
      Origin: ACME_ORIGIN,
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('access-control-allow-origin')).toBe(ACME_ORIGIN);
    expect(page.headers.get('vary')).toContain('Origin');
    expect(page.headers.get('ratelimit-policy')).toBe('"browser";q=20;w=1');
  });

  it('answers GET and DELETE 405 naming POST and OPTIONS, with or without a key', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      for (const headers of [{}, { Authorization: `Bearer ${ACME}` }]) {
        const response = await documentedFetch(mcpUrl, { method, headers });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST, OPTIONS');
        expect(await response.json()).toMatchObject({ status: 'error', message: 'Method Not Allowed.' });
      }
    }
  });

  it("answers a malformed message with JSON-RPC's error, and nothing of the server's insides", async () => {
    const auth = { Authorization: `Bearer ${ACME}` };
    const unparsable = await post(mcpUrl, '{"jsonrpc": "2.0", ', auth);
    expect(unparsable.status).toBe(400);
    const parseError = (await unparsable.json()) as { error: { code: number; message: string } };
    expect(parseError.error.code).toBe(-32700);
    const unknownMethod = await post(mcpUrl, { jsonrpc: '2.0', id: 5, method: 'resources/list' }, auth);
    const body = JSON.stringify(await unknownMethod.json());
    expect(body).toContain('-32601');
    for (const text of [JSON.stringify(parseError), body]) {
      expect(text).not.toMatch(/ at \S+:\d+|node_modules|\.ts\b|Error:/);
    }
  });

  it('refuses a batch — any JSON array, an empty one too — as an invalid request, calling no tool', async () => {
    const auth = { Authorization: `Bearer ${ACME}` };
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_vacancies', arguments: {} },
    });
    for (const body of [JSON.stringify([call(1), call(2)]), ' \n[]', JSON.stringify([call(3)])]) {
      const response = await post(mcpUrl, body, auth);
      expect(response.status).toBe(400);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: one JSON-RPC message per request, not a batch' },
      });
    }
    // The same call alone is answered.
    expect((await post(mcpUrl, call(4), auth)).status).toBe(200);
  });

  it('reads a message of up to 64 KiB, and answers a larger one 413 without reading it', async () => {
    const auth = { Authorization: `Bearer ${ACME}` };
    // A tools/list padded to the limit exactly, then one byte over it.
    const padded = (bytes: number) => {
      const message = { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { pad: '' } } };
      const pad = bytes - Buffer.byteLength(JSON.stringify(message));
      return JSON.stringify({ ...message, params: { _meta: { pad: 'x'.repeat(pad) } } });
    };
    const atLimit = await post(mcpUrl, padded(MCP_MAX_MESSAGE_BYTES), auth);
    expect(atLimit.status).toBe(200);
    const over = await post(mcpUrl, padded(MCP_MAX_MESSAGE_BYTES + 1), auth);
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { code: number } }).error.code).toBe(-32000);
    // Past API Gateway's own limit, the gateway's 413, in the envelope: no function runs.
    const huge = await post(mcpUrl, 'x'.repeat(MAX_BODY_BYTES + 1), auth);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({
      status: 'error',
      message: 'Payload Too Large.',
      request_id: huge.headers.get('x-request-id'),
    });
  });
});
