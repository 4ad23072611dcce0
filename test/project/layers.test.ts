/**
 * The layers point one way (docs/design.md#layout), and Biome's lint says so: `lambda/` — what is bundled into the
 * functions — imports only Node's built-ins, the DynamoDB SDK, Powertools, Middy, the Lambda types and its own
 * modules; nothing of the tools, the stack, the tests or the benchmark. `lib/` and `bin/` — the tools — import
 * nothing of the tests' and the benchmark's (`testkit/`, `test/`, `bench/`, and the packages only they use), and
 * `testkit/` — what those two share — neither of them; `test/unit/`, the inner loop, no engine, process, browser or
 * synthesized stack (those are `test/integration/`'s). A probe file in each is linted with the project's own
 * configuration, as `npm run lint` lints every file.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from '@jest/globals';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIOME = `${ROOT}node_modules/.bin/biome`;

interface Diagnostic {
  readonly category: string;
  readonly location: { readonly start: { readonly line: number } };
}

/** The lines of a probe in `folder` (`lambda/` unless given) that Biome's import rules refuse. */
async function refusedLines(imports: readonly string[], folder = 'lambda'): Promise<number[]> {
  const file = `${folder}/layer-probe-${randomUUID().slice(0, 8)}.ts`;
  await writeFile(`${ROOT}${file}`, `${imports.join('\n')}\n`);
  try {
    const output = await new Promise<string>((resolve) =>
      execFile(
        BIOME,
        ['lint', '--reporter=json', '--max-diagnostics=100', file],
        { cwd: ROOT },
        (_e, stdout) => resolve(stdout),
      ),
    );
    const { diagnostics } = JSON.parse(output) as { diagnostics: Diagnostic[] };
    return [
      ...new Set(
        diagnostics
          .filter(({ category }) => /noRestrictedImports|noUndeclaredDependencies|^plugin$/.test(category))
          .map(({ location }) => location.start.line),
      ),
    ].sort((a, b) => a - b);
  } finally {
    await rm(`${ROOT}${file}`, { force: true });
  }
}

describe('the layers', () => {
  it("let lambda/ import only the functions' own packages and modules", async () => {
    const allowed = [
      "import { readFileSync } from 'node:fs';",
      "import { setTimeout } from 'node:timers/promises';",
      "import { Logger } from '@aws-lambda-powertools/logger';",
      "import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';",
      "import { Metrics } from '@aws-lambda-powertools/metrics';",
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { QueryCommand } from '@aws-sdk/lib-dynamodb';",
      "import { marshall } from '@aws-sdk/util-dynamodb';",
      "import middy from '@middy/core';",
      "import type { Context } from 'aws-lambda';",
      "import { SERVICE_NAME } from './platform/defaults';",
      'export { readFileSync, setTimeout, Logger, injectLambdaContext, Metrics, DynamoDBClient, QueryCommand, marshall, middy, SERVICE_NAME };',
      'export type { Context };',
    ];
    expect(await refusedLines(allowed)).toEqual([]);
  });

  it("point lambda/'s layers one way: platform/ imports neither domain/ nor functions/, domain/ not functions/", async () => {
    const upward = [
      "import { ITEM } from '../../domain/schema/tables';",
      "import type { VendorContext } from '../../domain/keys/context';",
      "export { handler } from '../../functions/vacancies/handler';",
      "import type { InboxReport } from '../../functions/inbox/report';",
    ];
    expect(await refusedLines(upward, 'lambda/platform/http')).toEqual([1, 2, 3, 4]);
    expect(await refusedLines(upward, 'lambda/domain/store')).toEqual([3, 4]);
    const downward = [
      "import { SERVICE_NAME } from '../../platform/defaults';",
      "import type { ReadCost } from '../dynamodb/capacity';",
      'export { SERVICE_NAME };',
      'export type { ReadCost };',
    ];
    expect(await refusedLines(downward, 'lambda/platform/http')).toEqual([]);
  });

  it('refuse in lambda/ the CDK, the tools, test and benchmark packages, and the other layers', async () => {
    const refused = [
      "import { App } from 'aws-cdk-lib';",
      "import { Bucket } from 'aws-cdk-lib/aws-s3';",
      "import { Construct } from 'constructs';",
      "import { Command } from 'commander';",
      "import { CloudFormationClient } from '@aws-sdk/client-cloudformation';",
      "import { APIGatewayClient } from '@aws-sdk/client-api-gateway';",
      "import dynalite from 'dynalite';",
      "import fc from 'fast-check';",
      "import { settingsOfCdkJson } from '../lib/settings';",
      "import { listingEvent } from '../test/support/events';",
      "import { round } from '../bench/stats';",
      "import { silentLogger } from '../testkit/quiet-runtime';",
    ];
    expect(await refusedLines(refused)).toEqual(refused.map((_, i) => i + 1));
  });

  it('let lib/ and bin/ import their packages, lambda/ and lib/', async () => {
    const allowed = [
      "import { App } from 'aws-cdk-lib';",
      "import { Command } from 'commander';",
      "import dynalite from 'dynalite';",
      "import { SERVICE_NAME } from '../lambda/platform/defaults';",
      "import { lambdaContext } from '../lib/local/lambda-runtime';",
      'export { App, Command, dynalite, SERVICE_NAME, lambdaContext };',
    ];
    for (const folder of ['lib', 'bin']) expect(await refusedLines(allowed, folder)).toEqual([]);
  });

  it("refuse in lib/ and bin/ the tests' and the benchmark's code and the packages only they use", async () => {
    const refused = [
      "import { startTestS3 } from '../testkit/s3-server';",
      "import { listingEvent } from '../test/support/events';",
      "import { round } from '../bench/stats';",
      "import S3rver from 's3rver';",
      "import chromium from '@sparticuz/chromium';",
      "import puppeteer from 'puppeteer-core';",
      "import { expect } from '@jest/globals';",
      "import fc from 'fast-check';",
    ];
    for (const folder of ['lib', 'bin'])
      expect(await refusedLines(refused, folder)).toEqual(refused.map((_, i) => i + 1));
  });

  it('refuse in testkit/ the tests and the benchmark it serves', async () => {
    const refused = [
      "import { listingEvent } from '../test/support/events';",
      "import { round } from '../bench/stats';",
    ];
    expect(await refusedLines(refused, 'testkit')).toEqual([1, 2]);
  });

  it('keep test/unit/ to tests in process: no engine, process, browser or stack; test/integration/ may', async () => {
    const refused = [
      "import { createTestTables } from '../../support/dynamodb';",
      "import { startFaultProxy } from '../../support/fault-proxy';",
      "import { startNpmStart } from '../../support/npm-start';",
      "import { launchBrowser } from '../../support/browser';",
      "import { stackTemplate } from '../../support/stack';",
      "import { spawn } from 'node:child_process';",
      "import { startTestS3 } from '../../../testkit/s3-server';",
      "import { App } from 'aws-cdk-lib';",
      "import { round } from '../../../bench/stats';",
    ];
    const allowed = [
      "import { CLOCK, vacancyRecord } from '../../support/vacancies';",
      "import { FACET_NAMES } from '../../../lambda/functions/vacancies/request/query';",
    ];
    expect(await refusedLines([...refused, ...allowed], 'test/unit/lambda')).toEqual(
      refused.map((_, i) => i + 1),
    );
    expect(await refusedLines(refused.slice(0, -1), 'test/integration/lambda')).toEqual([]);
  });
});
