/**
 * The functions' metrics as CloudWatch would receive them: the EMF lines they print, captured from stdout,
 * from real requests on the embedded DynamoDB. One namespace, the service as the only dimension — never the
 * vendor — and a value per served listing that matches what the listing read.
 */

import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SERVICE_NAME } from '../../../../../lambda/domain/service/limits';
import {
  createFunctionMetrics,
  FUNCTION_DIMENSION,
  FUNCTION_METRICS,
  METRICS_NAMESPACE,
  SERVICE_DIMENSION,
} from '../../../../../lambda/domain/service/metrics';
import { createAuthorizerHandler } from '../../../../../lambda/functions/authorizer/factory';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import type { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { issueApiKey } from '../../../../../lib/ops/api-keys';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest, vacancyEvent } from '../../../../../testkit/events';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { CLOCK, putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}

/** Every line written to stdout and stderr while `run` runs, the EMF ones parsed. */
async function emfLinesOf(run: () => Promise<unknown>): Promise<{ emf: EmfLine[]; other: string[] }> {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation(capture),
  );
  try {
    await run().catch(() => undefined);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const lines = written.join('').split('\n').filter(Boolean);
  const isEmf = (line: string) => line.startsWith('{"_aws":');
  return {
    emf: lines.filter(isEmf).map((line) => JSON.parse(line) as EmfLine),
    other: lines.filter((line) => !isEmf(line)),
  };
}

const metricNames = (line: EmfLine) =>
  line._aws.CloudWatchMetrics.flatMap((m) => m.Metrics.map((d) => d.Name));
const coldStarts = (lines: EmfLine[]) => lines.filter((line) => metricNames(line).includes('ColdStart'));
const measured = (lines: EmfLine[]) => lines.filter((line) => !metricNames(line).includes('ColdStart'));

describe('the metrics of the functions (EMF on stdout)', () => {
  let tables: TestTables;
  const disabled = process.env.POWERTOOLS_METRICS_DISABLED;

  beforeAll(async () => {
    // Metrics print, as on Lambda (the test environment turns them off elsewhere), and a container started on
    // demand has a cold start, as Lambda's variable says.
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
    tables = await createTestTables();
    await putVacancies(tables.documentClient, tables.names.vacancies, [
      ...[1, 2, 3, 4, 5].map((id) => vacancyRecord({ id, vendor_id: 'acme-metrics-vendor' })),
      vacancyRecord({ id: 6, vendor_id: 'acme-metrics-vendor', status: 'closed' }),
    ]);
  });
  afterAll(async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = disabled;
    delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
    await tables.drop();
  });

  describe('of the listing', () => {
    const vendor = { vendorId: 'acme-metrics-vendor', company: 'Acme Metrics' };
    // The function's logger, as deployed (INFO): what it prints besides the metrics is in `other`.
    const build = (logger = silentLogger()) =>
      testListingHandler(tables, {
        settings: { clock: CLOCK },
        logger,
        metrics: createFunctionMetrics('listing', logger),
        now: () => new Date('2026-06-15T12:00:00Z'),
      });
    let handler: ReturnType<typeof createVacanciesHandler>;
    const call = (request: TestRequest, target = handler) =>
      target(listingEvent({ authorizer: vendor, ...request }), lambdaContext('listing'));

    beforeAll(() => {
      handler = build();
    });

    it('counts a cold start once, with the function as its only other dimension', async () => {
      const first = await emfLinesOf(() => call({ query: 'per_page=2' }));
      const second = await emfLinesOf(() => call({ query: 'per_page=2' }));
      expect(coldStarts(first.emf)).toHaveLength(1);
      const [coldStart] = coldStarts(first.emf);
      expect(coldStart?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([
        [SERVICE_DIMENSION, FUNCTION_DIMENSION],
      ]);
      expect(coldStart).toMatchObject({ [FUNCTION_DIMENSION]: 'listing', ColdStart: 1 });
      expect(coldStarts(second.emf)).toHaveLength(0);
    });

    it("emits a served listing's read units, DynamoDB calls, items and foreign items (0), in one namespace, never per vendor", async () => {
      let body: ListingResponse | undefined;
      const { emf, other } = await emfLinesOf(async () => {
        body = JSON.parse((await call({ query: 'per_page=2&page=2' })).body) as ListingResponse;
      });
      expect(body?.data).toHaveLength(2);
      const [line, ...more] = measured(emf);
      expect(more).toEqual([]);
      expect(line?._aws.CloudWatchMetrics).toEqual([
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [[SERVICE_DIMENSION]],
          Metrics: expect.arrayContaining(
            [
              FUNCTION_METRICS.readUnits,
              FUNCTION_METRICS.dynamodbCalls,
              FUNCTION_METRICS.itemsReturned,
              FUNCTION_METRICS.foreignItems,
            ].map((Name) => ({ Name, Unit: 'Count' })),
          ),
        },
      ]);
      expect(line?._aws.CloudWatchMetrics[0]?.Metrics).toHaveLength(4);
      expect(line).toMatchObject({
        [SERVICE_DIMENSION]: SERVICE_NAME,
        [FUNCTION_METRICS.itemsReturned]: 2,
        [FUNCTION_METRICS.foreignItems]: 0,
        // The page's Query and BatchGetItem, the summary's GetItem, and — the items were put without one — the count.
        [FUNCTION_METRICS.dynamodbCalls]: 4,
        [FUNCTION_METRICS.readUnits]: expect.any(Number),
      });
      expect(line?.[FUNCTION_METRICS.readUnits] as number).toBeGreaterThan(0);
      expect(JSON.stringify(line)).not.toContain(vendor.vendorId);
      expect(other).toEqual([]);
    });

    it('emits a closed vacancy’s 410 as the route’s other answers: its read units and call, no item', async () => {
      let status = 0;
      const { emf, other } = await emfLinesOf(async () => {
        const response = await handler(vacancyEvent('6', { authorizer: vendor }), lambdaContext('listing'));
        status = (response as { statusCode: number }).statusCode;
      });
      expect(status).toBe(410);
      const [line, ...more] = measured(emf);
      expect(more).toEqual([]);
      expect(line).toMatchObject({
        [FUNCTION_METRICS.itemsReturned]: 0,
        [FUNCTION_METRICS.dynamodbCalls]: 1,
        [FUNCTION_METRICS.readUnits]: expect.any(Number),
      });
      expect(line?.[FUNCTION_METRICS.readUnits] as number).toBeGreaterThan(0);
      expect(line?.[FUNCTION_METRICS.readUnits] as number).toBeLessThanOrEqual(1);
      expect(other).toEqual([]);
    });

    it('emits nothing for a refused request, and prints no warning about it', async () => {
      const deployed = build(new Logger({ serviceName: SERVICE_NAME, logLevel: 'INFO' }));
      await emfLinesOf(() => call({}, deployed));
      const { emf, other } = await emfLinesOf(() => call({ query: 'per_page=abc' }, deployed));
      expect(measured(emf)).toEqual([]);
      expect(other).toEqual([]);
    });
  });

  describe('of the authorizer', () => {
    let authorize: (token: string) => Promise<unknown>;
    let key = '';

    beforeAll(async () => {
      const { documentClient, names } = tables;
      await putVendor(documentClient, names.vendors, { vendorId: 'acme-metrics-vendor', company: 'Acme' });
      key = (await issueApiKey(documentClient, names.vendors, 'acme-metrics-vendor', 'm'))?.apiKey ?? '';
      const handler = createAuthorizerHandler({
        client: tables.client,
        vendorsTable: names.vendors,
        logger: silentLogger(),
        metrics: testMetrics('authorizer'),
      });
      authorize = (token) =>
        handler(
          { type: 'TOKEN', authorizationToken: token, methodArn: 'arn:aws:execute-api:r:1:a/prod/GET/x' },
          lambdaContext('authorizer'),
        );
    });

    it('counts every refused key, and nothing for an allowed one', async () => {
      await emfLinesOf(() => authorize('Bearer warm-up'));
      const refused = await emfLinesOf(() => authorize('Bearer vvk_not_a_key_of_anyone'));
      expect(measured(refused.emf)).toEqual([
        expect.objectContaining({ [FUNCTION_METRICS.keysRefused]: 1, [SERVICE_DIMENSION]: SERVICE_NAME }),
      ]);
      expect(measured(refused.emf)[0]?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([[SERVICE_DIMENSION]]);
      const allowed = await emfLinesOf(() => authorize(`Bearer ${key}`));
      expect(measured(allowed.emf)).toEqual([]);
    });
  });
});
