/**
 * The smoke check on a deployed stack's target (docs/operating.md#smoke-check): the temporary vendor gets its two API
 * Gateway usage keys, in their plans, before its first request, and both are deleted when it is removed. API
 * Gateway's control plane is the tests' stand-in; the API is the local one, in a process of its own, on the run's
 * engine.
 */
import { randomUUID } from 'node:crypto';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { localTableNames } from '../../../../../lib/create-tables';
import { runSmoke } from '../../../../../lib/ops/smoke/run';
import type { Target } from '../../../../../lib/ops/target';
import { ControlPlanePacer } from '../../../../../lib/ops/usage-keys';
import { fakeApiGateway, PLANS } from '../../../../../testkit/api-gateway';
import { testEndpoint } from '../../../../../testkit/dynamodb';
import { type LocalApiProcess, startLocalApiProcess } from '../../../../../testkit/local-api-process';

const prefix = `s${randomUUID().slice(0, 8)}-`;
let api: LocalApiProcess;

beforeAll(async () => {
  api = await startLocalApiProcess({ port: 0, dynamodbEndpoint: testEndpoint(), tablePrefix: prefix });
});
afterAll(async () => api?.stop());

describe('vacancy-admin smoke --stack', () => {
  it('gives the temporary vendor its usage keys before the checks and deletes both at the end', async () => {
    const client = createDynamoDBClient({ endpoint: testEndpoint() });
    const documentClient = createDocumentClient(client);
    const apiGatewayClient = new APIGatewayClient({
      region: 'eu-central-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    const apiGateway = fakeApiGateway(apiGatewayClient, { now: () => 0 });
    const tables = localTableNames(prefix);
    const target: Target = {
      client,
      documentClient,
      tables,
      clock: zoneClock('Asia/Baku'),
      local: false,
      description: 'stack Api in eu-central-1',
      rateTiers: { names: Object.keys(PLANS), defaultTier: 'standard' },
      defaultLocale: 'az',
      jobCountry: 'AZ',
      feeds: { missing: 'no feeds here' },
      usageKeys: {
        apiGateway: apiGatewayClient,
        pacer: new ControlPlanePacer({ now: () => 0, sleep: async () => {} }),
        usagePlans: { stackName: 'Api', plans: PLANS },
        documentClient,
        vendorsTable: tables.vendors,
      },
      close: () => client.destroy(),
    };
    let keysDuringChecks: string[] = [];
    try {
      const report = await runSmoke(target, {
        apiUrl: api.url,
        changeWaitMs: 30_000,
        explain: (error) => String(error),
        onResult: (result) => {
          if (result.name === 'vendor created')
            keysDuringChecks = [...apiGateway.keys.values()].map((key) => key.name);
        },
      });
      expect(report.checks.concat(report.cleanup).filter((result) => !result.ok)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(keysDuringChecks.sort()).toEqual([
        `Api.${report.vendorId}.browser`,
        `Api.${report.vendorId}.standard`,
      ]);
      expect(report.cleanup.at(-1)).toMatchObject({ name: 'cleanup: usage keys deleted', ok: true });
      expect(apiGateway.keys.size).toBe(0);
    } finally {
      target.close();
    }
  }, 120_000);
});
