/**
 * The MCP function's handler on the run's engine, as Lambda invokes it with API Gateway's proxy events: a tool call
 * answered from the test's tables; a read that DynamoDB refuses mid-call (throttled) is the listing's 503 in the
 * contract's envelope with `Retry-After`, not a tool result; a failure that is a bug is a 500 that says nothing of
 * it; a body API Gateway passes as base64 is read as the text it encodes; the function's log line of a served page is
 * the listing's, with its read units.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createVacancyRepository,
  type VacancyRepository,
} from '../../../../../lambda/domain/reads/repository';
import { LISTING_SERVED } from '../../../../../lambda/domain/service/log-fields';
import { MCP_PATH } from '../../../../../lambda/domain/service/routes';
import { DEFAULT_RATE_TIERS } from '../../../../../lambda/domain/settings/rate-tiers';
import { createMcpHandler } from '../../../../../lambda/functions/mcp/factory';
import { UnavailableError } from '../../../../../lambda/platform/aws/errors';
import { listingEvent } from '../../../../../lib/local/proxy-event';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';
import { importRecords } from '../../../../../testkit/listing';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const SETTINGS = {
  defaultLocale: 'en' as const,
  clock: CLOCK,
  defaultPerPage: 15,
  rateTiers: DEFAULT_RATE_TIERS,
};

/**
 * A `POST /mcp` event of vendor `acme`, its body the message as JSON (or text as given; or as base64 when asked), with
 * these headers besides.
 */
function mcpEvent(message: unknown, base64 = false, extraHeaders: Record<string, string> = {}) {
  const text = typeof message === 'string' ? message : JSON.stringify(message);
  const event = listingEvent({
    route: MCP_PATH,
    path: `/prod${MCP_PATH}`,
    stage: 'prod',
    domainName: 'api.example.com',
    requestId: 'req-mcp',
    authorizer: { vendorId: 'acme', company: 'Acme LLC', rateTier: 'standard', principalId: 'acme' },
    headers: new Map([
      ['Content-Type', ['application/json']],
      ['Accept', ['application/json, text/event-stream']],
      ...Object.entries(extraHeaders).map(([name, value]) => [name, [value]] as [string, string[]]),
    ]),
    body: base64 ? Buffer.from(text).toString('base64') : text,
  });
  return base64 ? { ...event, isBase64Encoded: true } : event;
}

const search = (args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'search_vacancies', arguments: { lang: 'en', ...args } },
});

/** A logger that keeps its info lines' messages and fields. */
function recordingLogger(lines: Record<string, unknown>[]): Logger {
  const logger = silentLogger();
  logger.info = ((message: string, fields: Record<string, unknown> = {}) => {
    lines.push({ message, ...fields });
  }) as Logger['info'];
  return logger;
}

describe('the MCP function’s handler', () => {
  let tables: TestTables;
  let repository: VacancyRepository;
  const handlerOf = (reads: VacancyRepository, logger = silentLogger()) =>
    createMcpHandler({ repository: reads, settings: SETTINGS, logger, metrics: testMetrics('mcp') });

  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
    await importRecords(tables, [
      vacancyRecord({ id: 1, vendor_id: 'acme', title: 'Backend Engineer' }),
      vacancyRecord({ id: 2, vendor_id: 'acme', title: 'Data Analyst' }),
    ]);
    repository = createVacancyRepository(tables.client, {
      tableName: tables.names.vacancies,
      vendorsTable: tables.names.vendors,
    });
  });
  afterAll(async () => tables.drop());

  it("answers a tool call as JSON-RPC, and logs the listing's line with its read units", async () => {
    const lines: Record<string, unknown>[] = [];
    const response = await handlerOf(repository, recordingLogger(lines))(
      mcpEvent(search({ q: 'backend' })),
      lambdaContext('mcp'),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'X-Request-Id': 'req-mcp',
      'Cache-Control': 'no-store',
      'RateLimit-Policy': '"standard";q=10;w=1',
    });
    const { result } = JSON.parse(response.body) as {
      result: { structuredContent: { data: { id: number }[]; pagination: { total: number } } };
    };
    expect(result.structuredContent.data.map((vacancy) => vacancy.id)).toEqual([1]);
    expect(result.structuredContent.pagination.total).toBe(1);
    const served = lines.find((line) => line.message === LISTING_SERVED);
    expect(served).toMatchObject({ vendorId: 'acme', total: 1, itemsReturned: 1 });
    expect(served?.readUnits).toEqual(expect.any(Number));
  });

  it('reads a body API Gateway passed as base64', async () => {
    const response = await handlerOf(repository)(mcpEvent(search(), true), lambdaContext('mcp'));
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).result.structuredContent.pagination.total).toBe(2);
  });

  it("answers a throttled read with the listing's 503 and Retry-After, in the envelope, not as a tool result", async () => {
    const throttled: VacancyRepository = {
      ...repository,
      readSummary: async () => {
        throw new UnavailableError('throttled');
      },
      readPage: async () => {
        throw new UnavailableError('throttled');
      },
      readSearchEntries: async () => {
        throw new UnavailableError('throttled');
      },
    };
    for (const message of [search(), search({ q: 'data' })]) {
      const response = await handlerOf(throttled)(mcpEvent(message), lambdaContext('mcp'));
      expect(response.statusCode).toBe(503);
      expect(response.headers).toMatchObject({ 'Retry-After': '1', 'X-Request-Id': 'req-mcp' });
      expect(JSON.parse(response.body)).toEqual({
        status: 'error',
        message: 'Service Unavailable.',
        request_id: 'req-mcp',
      });
    }
  });

  it('answers a bug with a 500 that names nothing of it', async () => {
    const broken: VacancyRepository = {
      ...repository,
      readVacancy: async () => {
        throw new TypeError('secret internals at lambda/domain/x.ts:1:1');
      },
    };
    const response = await handlerOf(broken)(
      mcpEvent({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_vacancy', arguments: { id: 1 } },
      }),
      lambdaContext('mcp'),
    );
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/secret|TypeError|\.ts/);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'error', request_id: 'req-mcp' });
  });

  it('answers a request without the authorizer’s vendor (a misconfigured route) 500, before any JSON-RPC', async () => {
    const event = {
      ...mcpEvent(search()),
      requestContext: { ...mcpEvent(search()).requestContext, authorizer: null },
    };
    const response = await handlerOf(repository)(event, lambdaContext('mcp'));
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('jsonrpc');
  });

  it('reads a message as the SDK reads one, whoever parses it: one byte-order mark dropped, not two', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    for (const base64 of [false, true]) {
      for (const body of [list, `\ufeff${list}`, `\ufeff \r\n${list}`]) {
        const response = await handlerOf(repository)(mcpEvent(body, base64), lambdaContext('mcp'));
        expect([body, response.statusCode]).toEqual([body, 200]);
        expect(JSON.parse(response.body).result.tools).toHaveLength(2);
      }
      for (const body of [`\ufeff\ufeff${list}`, `\ufeff \ufeff${list}`]) {
        const response = await handlerOf(repository)(mcpEvent(body, base64), lambdaContext('mcp'));
        expect([body, response.statusCode, JSON.parse(response.body)]).toEqual([
          body,
          400,
          { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } },
        ]);
      }
    }
  });

  describe('what an attacker tried', () => {
    const initialize = (protocolVersion: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
    });

    it('refuses a batch behind a byte-order mark and blanks (400, -32600) before any tool runs', async () => {
      const calls = JSON.stringify([search(), { ...search(), id: 8 }]);
      for (const body of [`\ufeff${calls}`, `\ufeff \r\n\t${calls}`, `\ufeff\ufeff${calls}`]) {
        for (const base64 of [false, true]) {
          const lines: Record<string, unknown>[] = [];
          const response = await handlerOf(repository, recordingLogger(lines))(
            mcpEvent(body, base64),
            lambdaContext('mcp'),
          );
          expect(response.statusCode).toBe(400);
          expect(JSON.parse(response.body)).toEqual({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32600,
              message: 'Invalid Request: one JSON-RPC message per request, not a batch',
            },
          });
          expect(lines.some((line) => line.message === LISTING_SERVED)).toBe(false);
        }
      }
    });

    it('agrees to nothing older than 2025-06-18, and serves no request that names an older version', async () => {
      for (const asked of ['2024-11-05', '2025-03-26', '2024-10-07']) {
        const response = await handlerOf(repository)(mcpEvent(initialize(asked)), lambdaContext('mcp'));
        expect(response.statusCode).toBe(200);
        const { result } = JSON.parse(response.body) as { result: { protocolVersion: string } };
        expect(['2025-11-25', '2025-06-18']).toContain(result.protocolVersion);
        const named = await handlerOf(repository)(
          mcpEvent(search(), false, { 'MCP-Protocol-Version': asked }),
          lambdaContext('mcp'),
        );
        expect(named.statusCode).toBe(400);
        expect(named.body).not.toContain('structuredContent');
      }
    });

    it('answers arguments that are not an object with -32602, naming no schema library', async () => {
      for (const args of [null, [], 'x', 7, true]) {
        const lines: Record<string, unknown>[] = [];
        const message = { ...search(), params: { name: 'search_vacancies', arguments: args } };
        const response = await handlerOf(repository, recordingLogger(lines))(
          mcpEvent(message),
          lambdaContext('mcp'),
        );
        const { error } = JSON.parse(response.body) as { error: { code: number; message: string } };
        expect(error).toEqual({
          code: -32602,
          message: 'Invalid params: the arguments must be a JSON object',
        });
        expect(lines.some((line) => line.message === LISTING_SERVED)).toBe(false);
      }
    });
  });
});
