import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { authorizedVendor } from '../../../../../lambda/domain/keys/context';
import { createAuthorizerHandler, stageMethods } from '../../../../../lambda/functions/authorizer/factory';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { issueApiKey, revokeApiKey, storeApiKey } from '../../../../../lib/ops/api-keys';
import { getVendorRecord, putVendor, setVendorStatus } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';

const METHOD_ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/prod/GET/vendor/vacancies';

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
    const client = createDynamoDBClient({ endpoint: 'http://127.0.0.1:9' });
    const dynamodb = mockClient(client);
    dynamodb
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
      reserveMs: 200,
    });
    const started = Date.now();
    await expect(
      handler(
        { type: 'TOKEN', authorizationToken: `Bearer ${acmeKey}`, methodArn: METHOD_ARN },
        lambdaContext('authorizer', { timeoutMs: 600 }),
      ),
    ).rejects.toThrow('The key could not be checked');
    expect(Date.now() - started).toBeLessThan(600);
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
