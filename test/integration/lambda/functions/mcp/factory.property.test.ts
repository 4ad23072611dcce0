/**
 * A public agent endpoint answers exactly as the keyed `POST /mcp`, which answers exactly as the listing
 * (docs/api.md#agents-mcp): random vendors — random titles, categories, cities, types, experience and statuses — and
 * random calls of both tools, valid and not, each made by real MCP clients through both routes' handlers as API
 * Gateway invokes them: the authorizer (a secret key's TOKEN event; the endpoint's REQUEST event on its token), then
 * the MCP function's handler. Each route's client is drawn at random — the SDK v2 client pinned to 2026-07-28, the
 * SDK v2 client in legacy mode, the SDK v1 client — so that neither the route nor the protocol's revision changes an
 * answer. Every result through the public endpoint equals the keyed one; every `search_vacancies` result equals the
 * listing's answer to the same parameters (a walk by the tool's cursor reads the very pages a walk by
 * `next_page_url` reads; a refusal names the listing's 422's fields); every `get_vacancy` result equals the
 * one-vacancy route's 200, 404 or 410. All from one table, one clock.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import fc from 'fast-check';
import { HeldEntries } from '../../../../../lambda/domain/answers/search/held-entries';
import type { AnswerSettings } from '../../../../../lambda/domain/answers/settings';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { MCP_AGENT_RESOURCE, MCP_PATH } from '../../../../../lambda/domain/service/routes';
import { DEFAULT_RATE_TIERS, withBrowserTier } from '../../../../../lambda/domain/settings/rate-tiers';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { createAuthorizerHandler } from '../../../../../lambda/functions/authorizer/factory';
import { createMcpHandler } from '../../../../../lambda/functions/mcp/factory';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { listingEvent as proxyEvent } from '../../../../../lib/local/proxy-event';
import { addAgent } from '../../../../../lib/ops/agents';
import { issueApiKey } from '../../../../../lib/ops/api-keys';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { modelledVendor } from '../../../../../testkit/listing-model';
import {
  queryString,
  type SearchedVacancy,
  SLOTS,
  searchCall,
  searchedFields,
  searchedVacancy,
  searchResultOf,
  vacancyCall,
} from '../../../../../testkit/mcp-calls';
import { CLOCK } from '../../../../../testkit/vacancies';

const CLIENT_INFO = { name: 'mcp-property', version: '1.0.0' };
const ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/POST';

/** The clients a route's calls are made with. */
const CLIENTS = ['v2 pinned to 2026-07-28', 'v2 legacy', 'v1'] as const;
type ClientKind = (typeof CLIENTS)[number];

/** What a client's `callTool` gives, whichever client. */
interface ToolResult {
  readonly content?: unknown;
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}
interface AnyClient {
  callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** A tool call's result as the client got it: what the tool answered, nothing of the transport. */
const answered = (result: unknown): ToolResult => {
  const { content, structuredContent, isError } = result as ToolResult;
  return { content, ...(structuredContent && { structuredContent }), ...(isError && { isError }) };
};

describe('the public endpoint against the keyed /mcp against the listing, for random vendors, calls and clients', () => {
  let tables: TestTables;
  let run = 0;
  /** How the calls came out, so that the test shows it compared pages, refusals and vacancies all. */
  const outcomes = { pages: 0, refused: 0, vacancies: 0, gone: 0, missing: 0 };
  const clientsUsed = new Set<string>();
  let now = Date.now();
  const settings: AnswerSettings = {
    defaultLocale: 'en',
    clock: CLOCK,
    defaultPerPage: 15,
    rateTiers: withBrowserTier(DEFAULT_RATE_TIERS, { rate: 50, burst: 100 }),
  };
  let listing: ReturnType<typeof testListingHandler>;
  let authorize: (
    event: Parameters<ReturnType<typeof createAuthorizerHandler>>[0],
  ) => Promise<APIGatewayAuthorizerResult>;
  let mcp: ReturnType<typeof createMcpHandler>;

  beforeAll(async () => {
    tables = await createTestTables();
    listing = testListingHandler(tables, { settings, now: () => new Date(now) });
    const authorizer = createAuthorizerHandler({
      client: tables.client,
      vendorsTable: tables.names.vendors,
      logger: silentLogger(),
      metrics: testMetrics('authorizer'),
    });
    authorize = (event) => authorizer(event, lambdaContext('authorizer'));
    // One MCP function serves both routes, as on AWS: the same handler, the same held entries.
    mcp = createMcpHandler({
      repository: createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      }),
      settings,
      logger: silentLogger(),
      metrics: testMetrics('mcp'),
      now: () => new Date(now),
      heldEntries: new HeldEntries(),
    });
  });
  afterAll(async () => tables?.drop());

  /**
   * What API Gateway does with a client's request on a route: the authorizer's event — the secret key's TOKEN, or the
   * endpoint's REQUEST on the path's token — then, allowed, the MCP function's proxy event with its context. Another
   * method than POST is the route's 405 mock.
   */
  const gateway =
    (route: { readonly key: string } | { readonly token: string }) =>
    async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      if (request.method !== 'POST')
        return new Response(null, { status: 405, headers: { Allow: 'POST, OPTIONS' } });
      const allowed =
        'token' in route
          ? await authorize({
              type: 'REQUEST',
              methodArn: `${ARN}/mcp/${route.token}`,
              resource: MCP_AGENT_RESOURCE,
              path: `/mcp/${route.token}`,
              httpMethod: 'POST',
              pathParameters: { token: route.token },
            } as unknown as APIGatewayRequestAuthorizerEvent)
          : await authorize({
              type: 'TOKEN',
              authorizationToken: `Bearer ${route.key}`,
              methodArn: `${ARN}/mcp`,
            });
      const headers = new Map<string, string[]>();
      request.headers.forEach((value, name) => {
        headers.set(name, [value]);
      });
      const result = await mcp(
        proxyEvent({
          route: 'token' in route ? MCP_AGENT_RESOURCE : MCP_PATH,
          ...('token' in route && { agentToken: route.token }),
          path: `/prod${new URL(request.url).pathname}`,
          stage: 'prod',
          domainName: 'api.example.com',
          requestId: randomUUID(),
          authorizer: { ...allowed.context, principalId: allowed.principalId },
          headers,
          body: await request.text(),
        }),
        lambdaContext('mcp'),
      );
      return new Response(result.statusCode === 202 || result.body === '' ? null : result.body, {
        status: result.statusCode,
        headers: result.headers as Record<string, string>,
      });
    };

  /** A client of `kind` connected to a route. */
  async function connect(kind: ClientKind, route: Parameters<typeof gateway>[0]): Promise<AnyClient> {
    const url = new URL(
      'token' in route ? `https://api.example.com/mcp/${route.token}` : 'https://api.example.com/mcp',
    );
    const fetch = gateway(route);
    if (kind === 'v1') {
      const client = new ClientV1(CLIENT_INFO);
      await client.connect(new TransportV1(url, { fetch }));
      return client;
    }
    const client = new ClientV2(CLIENT_INFO, {
      versionNegotiation: { mode: kind === 'v2 legacy' ? 'legacy' : { pin: '2026-07-28' } },
    });
    await client.connect(new TransportV2(url, { fetch }));
    return client as unknown as AnyClient;
  }

  it('answers every call through the public endpoint as through the keyed one, and both as the listing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...Array.from({ length: SLOTS }, (_, i) => searchedVacancy(i))),
        fc.array(searchCall, { minLength: 1, maxLength: 3 }),
        fc.array(vacancyCall(0), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...CLIENTS),
        fc.constantFrom(...CLIENTS),
        async (initial, searches, vacancies, keyedKind, publicKind) => {
          run += 1;
          const vendorId = `p${run}`;
          const firstId = run * 100;
          const vendor = await modelledVendor<SearchedVacancy>(tables, vendorId, firstId, searchedFields);
          await vendor.importAll(initial);
          const issued = await issueApiKey(tables.documentClient, tables.names.vendors, vendorId, 'property');
          const agent = await addAgent(
            { documentClient: tables.documentClient, vendorsTable: tables.names.vendors },
            vendorId,
          );
          now = Date.now() + INDEX_SETTLE_MS + 1_000;
          clientsUsed.add(`${keyedKind} keyed`).add(`${publicKind} public`);
          const keyed = await connect(keyedKind, { key: issued?.apiKey ?? '' });
          const open = await connect(publicKind, { token: agent.token });
          const context = (await authorize({
            type: 'TOKEN',
            authorizationToken: `Bearer ${issued?.apiKey}`,
            methodArn: `${ARN}/GET/vendor/vacancies`,
          })) as { context: Record<string, string> };
          const listed = async (request: { query: string; vacancyId?: string }) => {
            const response = await listing(
              listingEvent({ authorizer: context.context, ...request }),
              lambdaContext('listing'),
            );
            return { status: response.statusCode, body: JSON.parse(response.body) };
          };
          /** One call through both routes: the two results equal, returned once. */
          const called = async (name: string, args: Record<string, unknown>) => {
            const [throughKey, throughToken] = await Promise.all([
              keyed.callTool({ name, arguments: args }),
              open.callTool({ name, arguments: args }),
            ]);
            expect(answered(throughToken)).toEqual(answered(throughKey));
            return answered(throughKey);
          };
          try {
            // A search with no arguments first: every run pages, whatever the random ones are refused for.
            for (const args of [{}, ...searches]) {
              let query: string | undefined = queryString(args);
              let tool: Record<string, unknown> | undefined = args;
              let pages = 0;
              while (query !== undefined && tool !== undefined) {
                const expected = await listed({ query });
                const got = await called('search_vacancies', tool);
                if (expected.status !== 200) {
                  outcomes.refused += 1;
                  expect(expected.status).toBe(422);
                  expect(got.isError).toBe(true);
                  const [text] = got.content as { text: string }[];
                  expect(JSON.parse(text?.text ?? '')).toEqual({
                    message: expected.body.message,
                    errors: expected.body.errors,
                  });
                  break;
                }
                outcomes.pages += 1;
                const { pagination } = expected.body as ListingResponse;
                const structured = got.structuredContent as { pagination: { cursor: string | null } };
                expect(structured).toEqual(searchResultOf(expected.body as ListingResponse));
                expect(JSON.parse((got.content as { text: string }[])[0]?.text ?? '')).toEqual(structured);
                // The next page: the listing's link, the tool's cursor with the same other arguments.
                pages += 1;
                const cursor = structured.pagination.cursor;
                query = pagination.next_page_url
                  ? new URL(pagination.next_page_url).search.slice(1)
                  : undefined;
                tool = cursor === null || pages > 6 ? undefined : { ...args, cursor };
              }
            }
            for (const call of vacancies) {
              const args = { ...call, id: firstId + call.id };
              const { id, ...rest } = args;
              const expected = await listed({ query: queryString(rest), vacancyId: String(id) });
              const got = await called('get_vacancy', args);
              if (expected.status === 200) {
                outcomes.vacancies += 1;
                expect(got.structuredContent).toEqual({
                  company: expected.body.company,
                  data: expected.body.data,
                });
              } else {
                outcomes[expected.status === 410 ? 'gone' : 'missing'] += 1;
                expect(got.isError).toBe(true);
                const { status: _status, request_id: _id, ...said } = expected.body;
                expect(JSON.parse((got.content as { text: string }[])[0]?.text ?? '')).toEqual(said);
              }
            }
          } finally {
            await Promise.all([keyed.close(), open.close()]);
          }
        },
      ),
      { numRuns: Number(process.env.MCP_PROPERTY_RUNS ?? 20), endOnFailure: true },
    );
    expect(outcomes.pages).toBeGreaterThan(10);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.vacancies).toBeGreaterThan(0);
    expect(outcomes.gone + outcomes.missing).toBeGreaterThan(0);
    expect(clientsUsed.size).toBeGreaterThan(3);
  }, 240_000);
});
