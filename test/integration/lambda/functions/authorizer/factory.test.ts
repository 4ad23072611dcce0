import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import {
  type Agent,
  agentIdOf,
  agentItemKey,
  newAgentToken,
  notFoundAgentsUsageKey,
} from '../../../../../lambda/domain/agent-registry/agent';
import { authorizedVendor } from '../../../../../lambda/domain/keys/context';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { ITEM_KIND } from '../../../../../lambda/domain/schema/vendors';
import { MCP_AGENT_RESOURCE } from '../../../../../lambda/domain/service/routes';
import { DEFAULT_RATE_TIERS } from '../../../../../lambda/domain/settings/rate-tiers';
import {
  agentMethods,
  createAuthorizerHandler,
  stageMethods,
} from '../../../../../lambda/functions/authorizer/factory';
import { createMcpHandler } from '../../../../../lambda/functions/mcp/factory';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { listingEvent } from '../../../../../lib/local/proxy-event';
import { addAgent, removeAgent } from '../../../../../lib/ops/agents';
import { issueApiKey, revokeApiKey, storeApiKey } from '../../../../../lib/ops/api-keys';
import { getVendorRecord, putVendor, setVendorStatus } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';
import { CLOCK } from '../../../../../testkit/vacancies';

const METHOD_ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/GET/vendor/vacancies';

/** The authorizer over a DynamoDB that throttles every read, and its logger's `error`, watched. */
function throttledAuthorizer() {
  const client = createDynamoDBClient({ endpoint: 'http://127.0.0.1:9' });
  mockClient(client)
    .on(GetItemCommand)
    .rejects(
      Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ThrottlingException' }),
    );
  const logger = silentLogger();
  const logError = jest.spyOn(logger, 'error');
  const handler = createAuthorizerHandler({
    client,
    vendorsTable: 'Vendors',
    logger,
    metrics: testMetrics('authorizer'),
  });
  return { handler, logError };
}

describe('stageMethods', () => {
  it("widens the method ARN to every GET of the stage and the MCP server's POST, since the answer is cached per token", () => {
    expect(stageMethods(METHOD_ARN)).toEqual([
      'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/GET/*',
      'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/POST/mcp',
    ]);
  });
});

describe('TOKEN authorizer on the embedded DynamoDB', () => {
  let tables: TestTables;
  let authorize: (authorizationToken: string) => Promise<APIGatewayAuthorizerResult>;
  let acmeKey: string;

  beforeAll(async () => {
    tables = await createTestTables();
    const { documentClient, names } = tables;
    await putVendor(documentClient, names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
    await putVendor(documentClient, names.vendors, { vendorId: 'initech', company: 'Initech' });
    acmeKey = (await issueApiKey(documentClient, names.vendors, 'acme', 'test'))?.apiKey ?? '';
    const handler = createAuthorizerHandler({
      client: tables.client,
      vendorsTable: names.vendors,
      logger: silentLogger(),
      metrics: testMetrics('authorizer'),
    });
    authorize = (authorizationToken) =>
      handler({ type: 'TOKEN', authorizationToken, methodArn: METHOD_ARN }, lambdaContext('authorizer'));
  });
  afterAll(async () => tables.drop());

  it('allows a live key: every GET of the stage, the vendor and its tier in the context, its usage key for the plan', async () => {
    const { usageKey } = (await getVendorRecord(tables.documentClient, tables.names.vendors, 'acme')) ?? {};
    expect(usageKey).toMatch(/^[0-9a-f]{40}$/);
    await expect(authorize(`Bearer ${acmeKey}`)).resolves.toEqual({
      principalId: 'acme',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'execute-api:Invoke',
            Effect: 'Allow',
            Resource: [
              'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/GET/*',
              'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/POST/mcp',
            ],
          },
        ],
      },
      usageIdentifierKey: usageKey,
      context: { vendorId: 'acme', company: 'Acme LLC', rateTier: 'standard', keyKind: 'secret' },
    });
  });

  it('allows a publishable key on the vendor’s browser usage key and tier, its kind and origins in the context', async () => {
    const { documentClient, names } = tables;
    const origins = ['https://careers.acme.example', 'http://localhost:8080'];
    const page = await issueApiKey(documentClient, names.vendors, 'acme', 'career page', origins);
    expect(page?.apiKey).toMatch(/^vvp_[A-Za-z0-9_-]{43}$/);
    const vendor = await getVendorRecord(documentClient, names.vendors, 'acme');
    expect(vendor?.browserUsageKey).toMatch(/^[0-9a-f]{40}$/);
    expect(vendor?.browserUsageKey).not.toBe(vendor?.usageKey);
    const allowed = await authorize(`Bearer ${page?.apiKey}`);
    expect(allowed).toMatchObject({
      principalId: 'acme',
      usageIdentifierKey: vendor?.browserUsageKey,
      context: {
        vendorId: 'acme',
        company: 'Acme LLC',
        rateTier: 'browser',
        keyKind: 'publishable',
        origins: origins.join(' '),
      },
    });
    // What the listing reads back of it.
    expect(authorizedVendor(allowed.context)).toMatchObject({
      keyKind: 'publishable',
      origins,
      rateTier: 'browser',
    });
    // A revoked publishable key is a 401 like any other.
    await revokeApiKey(documentClient, names.vendors, page?.keyId ?? '');
    await expect(authorize(`Bearer ${page?.apiKey}`)).rejects.toThrow('Unauthorized');
  });

  it('fails (API Gateway: 503), never allows, an active vendor without a usage key, and logs it as an ERROR', async () => {
    const { documentClient, names } = tables;
    await putVendor(documentClient, names.vendors, { vendorId: 'keyless', company: 'Keyless' });
    const keyless = await issueApiKey(documentClient, names.vendors, 'keyless', 'x');
    await documentClient.send(
      new UpdateCommand({
        TableName: names.vendors,
        Key: { pk: 'vendor#keyless' },
        UpdateExpression: 'REMOVE usageKey',
      }),
    );
    const logger = silentLogger();
    const logError = jest.spyOn(logger, 'error');
    const handler = createAuthorizerHandler({
      client: tables.client,
      vendorsTable: names.vendors,
      logger,
      metrics: testMetrics('authorizer'),
    });
    await expect(
      handler(
        { type: 'TOKEN', authorizationToken: `Bearer ${keyless?.apiKey}`, methodArn: METHOD_ARN },
        lambdaContext('authorizer'),
      ),
    ).rejects.toThrow('The key could not be checked');
    expect(logError).toHaveBeenCalledWith('Key check failed: the vendor has no usage key', {
      vendorId: 'keyless',
    });
  });

  it.each(['', 'Basic abc', 'Bearer vvk_unknown', `Token ${'x'.repeat(10)}`])(
    'throws "Unauthorized" (API Gateway: 401) for %p',
    async (header) => {
      await expect(authorize(header)).rejects.toThrow(/^Unauthorized$/);
    },
  );

  it('throws "Unauthorized" for a revoked key, and for a key whose vendor no longer exists', async () => {
    const { documentClient, names } = tables;
    const issued = await issueApiKey(documentClient, names.vendors, 'acme', 'to revoke');
    await revokeApiKey(documentClient, names.vendors, issued?.keyId ?? '');
    await expect(authorize(`Bearer ${issued?.apiKey}`)).rejects.toThrow(/^Unauthorized$/);
    await storeApiKey(documentClient, names.vendors, {
      apiKey: 'vvk_orphan_key',
      vendorId: 'ghost',
      label: 'x',
    });
    await expect(authorize('Bearer vvk_orphan_key')).rejects.toThrow(/^Unauthorized$/);
  });

  it('denies explicitly (API Gateway: 403) a valid key of a suspended vendor', async () => {
    const { documentClient, names } = tables;
    const issued = await issueApiKey(documentClient, names.vendors, 'initech', 'x');
    await setVendorStatus(documentClient, names.vendors, 'initech', 'suspended');
    const result = await authorize(`Bearer ${issued?.apiKey}`);
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(result.context).toBeUndefined();
  });

  it('fails on a database failure, never as "Unauthorized", and logs it as an ERROR', async () => {
    const { handler, logError } = throttledAuthorizer();
    const result = handler(
      { type: 'TOKEN', authorizationToken: `Bearer ${acmeKey}`, methodArn: METHOD_ARN },
      lambdaContext('authorizer'),
    );
    // A failed invocation: API Gateway's AUTHORIZER_FAILURE, the 503. The error says nothing of the cause.
    await expect(result).rejects.toThrow(new Error('The key could not be checked'));
    expect(logError).toHaveBeenCalledWith('Key check failed', {
      error: expect.objectContaining({ name: 'ThrottlingException' }),
    });
    // The ERROR line is what the stack's "authorizer failing" alarm counts.
    expect(logError).toHaveBeenCalledTimes(1);
  });

  it("fails through Middy's early timeout when something holds the request past its deadline", async () => {
    const client = createDynamoDBClient({ endpoint: 'http://127.0.0.1:9' });
    mockClient(client)
      .on(GetItemCommand)
      .callsFake(
        // A mocked call that hangs and ignores the deadline's abort signal (the real path is the fault matrix's).
        () =>
          new Promise((_resolve, reject) => {
            setTimeout(
              () => reject(Object.assign(new Error('late'), { name: 'TimeoutError' })),
              60_000,
            ).unref();
          }),
      );
    const handler = createAuthorizerHandler({
      client,
      vendorsTable: 'Vendors',
      logger: silentLogger(),
      metrics: testMetrics('authorizer'),
      // Middy answers 1 s before the 3 s timeout: a second to spare for a late timer on a loaded machine.
      reserveMs: 2_000,
    });
    const started = Date.now();
    await expect(
      handler(
        { type: 'TOKEN', authorizationToken: `Bearer ${acmeKey}`, methodArn: METHOD_ARN },
        lambdaContext('authorizer', { timeoutMs: 3_000 }),
      ),
    ).rejects.toThrow('The key could not be checked');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('writes no ERROR line for a refused key', async () => {
    const logger = silentLogger();
    const logError = jest.spyOn(logger, 'error');
    const handler = createAuthorizerHandler({
      client: tables.client,
      vendorsTable: tables.names.vendors,
      logger,
      metrics: testMetrics('authorizer'),
    });
    await expect(
      handler(
        { type: 'TOKEN', authorizationToken: 'Bearer vvk_unknown', methodArn: METHOD_ARN },
        lambdaContext('a'),
      ),
    ).rejects.toThrow(/^Unauthorized$/);
    expect(logError).not.toHaveBeenCalled();
  });
});

const AGENT_ARN = (token: string) =>
  `arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/POST/mcp/${token}`;

/**
 * A `POST /mcp/{token}` REQUEST authorizer event as API Gateway sends it: the path's token (undefined: a path
 * parameter API Gateway did not pass), and whatever else the request carried, which the answer must not depend on.
 */
function agentEvent(
  token: string | undefined,
  extra: { headers?: Record<string, string>; sourceIp?: string } = {},
): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: AGENT_ARN(token ?? ''),
    resource: MCP_AGENT_RESOURCE,
    path: `/mcp/${token ?? ''}`,
    httpMethod: 'POST',
    headers: extra.headers ?? null,
    multiValueHeaders: null,
    pathParameters: token === undefined ? null : { token },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {
      sourceIp: extra.sourceIp,
    } as unknown as APIGatewayRequestAuthorizerEvent['requestContext'],
  } as APIGatewayRequestAuthorizerEvent;
}

describe('REQUEST authorizer of the public agent endpoints, on the embedded DynamoDB', () => {
  let tables: TestTables;
  let handler: ReturnType<typeof createAuthorizerHandler>;
  let acme: Agent;
  let logged: unknown[][];
  const authorize = (event: APIGatewayRequestAuthorizerEvent) =>
    handler(event, lambdaContext('authorizer')) as Promise<APIGatewayAuthorizerResult>;

  beforeAll(async () => {
    tables = await createTestTables();
    const { documentClient, names } = tables;
    const target = { documentClient, vendorsTable: names.vendors };
    await putVendor(documentClient, names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
    await putVendor(documentClient, names.vendors, { vendorId: 'initech', company: 'Initech' });
    acme = await addAgent(target, 'acme');
    logged = [];
    const logger = silentLogger();
    for (const level of ['debug', 'info', 'warn', 'error'] as const)
      jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
        logged.push(args);
      });
    handler = createAuthorizerHandler({
      client: tables.client,
      vendorsTable: names.vendors,
      logger,
      metrics: testMetrics('authorizer'),
    });
  });
  afterAll(async () => tables?.drop());

  /** What every token that is no endpoint gets: an Allow naming no vendor, under the one not-found usage key. */
  const notFound = () => ({
    principalId: 'agent-not-found',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [
        {
          Action: 'execute-api:Invoke',
          Effect: 'Allow',
          Resource: ['arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/POST/mcp/*'],
        },
      ],
    },
    usageIdentifierKey: notFoundAgentsUsageKey(tables.names.vendors),
    context: {},
  });

  it("allows an active vendor's endpoint: the public route's POST for any token, the endpoint's usage key, the vendor's context in the agent tier", async () => {
    expect(acme.usageKey).toMatch(/^[0-9a-f]{40}$/);
    await expect(authorize(agentEvent(acme.token))).resolves.toEqual({
      principalId: 'acme',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'execute-api:Invoke',
            Effect: 'Allow',
            Resource: ['arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/POST/mcp/*'],
          },
        ],
      },
      usageIdentifierKey: acme.usageKey,
      context: {
        vendorId: 'acme',
        company: 'Acme LLC',
        rateTier: 'agent',
        keyKind: 'secret',
        agentId: acme.agentId,
      },
    });
    // A second endpoint of the same vendor counts under a usage key of its own: a bucket per endpoint.
    const second = await addAgent(
      { documentClient: tables.documentClient, vendorsTable: tables.names.vendors },
      'acme',
    );
    const allowed = await authorize(agentEvent(second.token));
    expect(allowed.usageIdentifierKey).toBe(second.usageKey);
    expect(allowed.usageIdentifierKey).not.toBe(acme.usageKey);
    // Nor does it share the vendor's keys' usage key.
    const vendor = await getVendorRecord(tables.documentClient, tables.names.vendors, 'acme');
    expect([vendor?.usageKey, vendor?.browserUsageKey]).not.toContain(allowed.usageIdentifierKey);
  });

  it('answers the same whatever the request carries besides its token: API Gateway caches the answer by the token alone', async () => {
    const plain = await authorize(agentEvent(acme.token));
    const other = await authorize(
      agentEvent(acme.token, {
        headers: { Authorization: 'Bearer vvk_someone_else', Origin: 'https://elsewhere.example' },
        sourceIp: '203.0.113.9',
      }),
    );
    expect(other).toEqual(plain);
    // The cached Allow covers every later request on that token: its path is the only one it can be.
    expect(agentMethods(AGENT_ARN(acme.token))).toEqual(agentMethods(AGENT_ARN(newAgentToken())));
  });

  it('answers an unknown, malformed, removed or suspended vendor’s token alike: an Allow naming no vendor, under one usage key', async () => {
    const { documentClient, names } = tables;
    const target = { documentClient, vendorsTable: names.vendors };
    const removed = await addAgent(target, 'acme');
    await removeAgent(target, removed.agentId);
    const suspended = await addAgent(target, 'initech');
    await setVendorStatus(documentClient, names.vendors, 'initech', 'suspended');
    // An item at the id of this token, holding another token: the id is only part of a token's digest.
    const stranger = newAgentToken();
    await documentClient.send(
      new PutCommand({
        TableName: names.vendors,
        Item: {
          ...agentItemKey(agentIdOf(stranger)),
          kind: ITEM_KIND.agent,
          agentId: agentIdOf(stranger),
          vendorId: 'acme',
          token: newAgentToken(),
          usageKey: 'f'.repeat(40),
          createdAt: 0,
        },
      }),
    );
    const tokens = {
      unknown: newAgentToken(),
      'too short': acme.token.slice(1),
      'too long': `${acme.token}x`,
      'not base64url': `${acme.token.slice(0, 31)}.`,
      'a path': '../../vendor/vacancies',
      empty: '',
      absent: undefined,
      removed: removed.token,
      "a suspended vendor's": suspended.token,
      "another token's id": stranger,
    };
    for (const [what, token] of Object.entries(tokens))
      expect([what, await authorize(agentEvent(token))]).toEqual([what, notFound()]);
    // A vendor active again: its endpoint answers again.
    await setVendorStatus(documentClient, names.vendors, 'initech', 'active');
    expect((await authorize(agentEvent(suspended.token))).principalId).toBe('initech');
  });

  it('makes of each of those the same 404 bytes at the MCP function, its request id aside', async () => {
    const mcp = createMcpHandler({
      repository: createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      }),
      settings: { defaultLocale: 'en', clock: CLOCK, defaultPerPage: 15, rateTiers: DEFAULT_RATE_TIERS },
      logger: silentLogger(),
      metrics: testMetrics('mcp'),
    });
    const call = async (token: string, requestId: string) => {
      const allowed = await authorize(agentEvent(token));
      return mcp(
        listingEvent({
          route: MCP_AGENT_RESOURCE,
          agentToken: token,
          path: `/prod/mcp/${token}`,
          stage: 'prod',
          domainName: 'api.example.com',
          requestId,
          authorizer: { ...allowed.context, principalId: allowed.principalId },
          headers: new Map([
            ['Content-Type', ['application/json']],
            ['Accept', ['application/json, text/event-stream']],
          ]),
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
        lambdaContext('mcp'),
      );
    };
    const answers = await Promise.all(
      [newAgentToken(), 'short', `${acme.token}x`].map((token, i) => call(token, `req-${i}`)),
    );
    expect(new Set(answers.map(({ statusCode }) => statusCode))).toEqual(new Set([404]));
    expect(new Set(answers.map(({ body }, i) => body.replace(`req-${i}`, '<id>')))).toEqual(
      new Set(['{"status":"error","message":"Not Found.","request_id":"<id>"}']),
    );
    // The endpoint itself is served.
    const served = await call(acme.token, 'req-ok');
    expect(served.statusCode).toBe(200);
    expect(JSON.parse(served.body).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'search_vacancies',
      'get_vacancy',
    ]);
  });

  it('fails (API Gateway: 503), never answers "not found", when the endpoint cannot be read', async () => {
    const { handler: failing, logError } = throttledAuthorizer();
    await expect(failing(agentEvent(acme.token), lambdaContext('authorizer'))).rejects.toThrow(
      new Error('The key could not be checked'),
    );
    expect(logError).toHaveBeenCalledTimes(1);
  });

  it('never logs a token, known or not', async () => {
    logged.length = 0;
    const unknown = newAgentToken();
    await authorize(agentEvent(acme.token));
    await authorize(agentEvent(unknown));
    expect(logged).toHaveLength(2);
    const lines = JSON.stringify(logged);
    expect(lines).toContain(acme.agentId);
    expect(lines).not.toContain(acme.token);
    expect(lines).not.toContain(unknown);
  });
});
