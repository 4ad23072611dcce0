/**
 * The layers point one way (docs/design.md#layout), and Biome's lint says so: `lambda/` — what is bundled into the
 * functions — imports only Node's built-ins, the DynamoDB SDK, Powertools, Middy, the Lambda types and its own
 * modules; nothing of the tools, the stack, the tests or the benchmark. `lib/` and `bin/` — the tools — import
 * nothing of the tests' and the benchmark's (`testkit/`, `test/`, `bench/`, and the packages only they use), and
 * `testkit/` — the one home of those two's helpers — neither of them; `test/unit/`, the inner loop, no engine,
 * process, browser or synthesized stack, nor a helper of `testkit/` that starts one (those are
 * `test/integration/`'s: the list is checked against what each helper imports). A probe file in each is linted with
 * the project's own configuration, as `npm run lint` lints every file — in a copy of the project's frame (its
 * `biome.json`, `package.json`, plugins and packages) rather than the checkout: a probe written into the checkout was
 * seen by whatever else read it meanwhile (another test run's lint and layout checks), and Biome scanned the whole
 * project for each probe (4 s of CPU, against a tenth of a second here).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIOME = `${ROOT}node_modules/.bin/biome`;

/** Where the probes are linted: the project's lint configuration, plugins, manifest and packages, and nothing else. */
const FRAME = mkdtempSync(join(tmpdir(), 'layer-probes-'));
for (const file of ['biome.json', 'package.json']) copyFileSync(join(ROOT, file), join(FRAME, file));
for (const folder of ['lint', 'node_modules']) symlinkSync(join(ROOT, folder), join(FRAME, folder));
afterAll(() => rmSync(FRAME, { recursive: true, force: true }));

interface Diagnostic {
  readonly category: string;
  readonly location: { readonly start: { readonly line: number } };
}

/** The lines of a probe in `folder` (`lambda/` unless given) that Biome's import rules refuse. */
async function refusedLines(imports: readonly string[], folder = 'lambda'): Promise<number[]> {
  const file = `${folder}/layer-probe-${randomUUID().slice(0, 8)}.ts`;
  await mkdir(join(FRAME, folder), { recursive: true });
  await writeFile(join(FRAME, file), `${imports.join('\n')}\n`);
  // No version control in the frame: there is no ignore file to read.
  const output = await new Promise<string>((resolve) =>
    execFile(
      BIOME,
      ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=100', file],
      { cwd: FRAME },
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
}

/** What `biome.json` refuses in `test/unit/`: its first group of patterns. */
const UNIT_REFUSED: readonly string[] = (() => {
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as {
    overrides: {
      includes: string[];
      linter?: {
        rules: { style: { noRestrictedImports: { options: { patterns: { group: string[] }[] } } } };
      };
    }[];
  };
  const unit = config.overrides.find(({ includes }) => includes.includes('test/unit/**'));
  return unit?.linter?.rules.style.noRestrictedImports.options.patterns[0]?.group ?? [];
})();

/**
 * Whether a pattern of `UNIT_REFUSED` names a module: a package by its name, a path of the repository by its end
 * (`lib/create-tables`), a folder's files by the folder and `/**` (`testkit/jest/`).
 */
function matchesRefusal(pattern: string, module: string): boolean {
  const path = pattern.replace(/^\*\*\//, '');
  return path.endsWith('/**') ? module.startsWith(path.slice(0, -2)) : module === path;
}

/** Whether `test/unit/` is refused a `testkit/` file. */
function refusedInUnit(file: string): boolean {
  const module = file.replace(/\.(ts|js)$/, '');
  return UNIT_REFUSED.some((pattern) => pattern.startsWith('**/testkit/') && matchesRefusal(pattern, module));
}

/** `testkit/`'s files and what each imports (values and types, static and dynamic). */
function testkitImports(): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(entry.name) && !/-probe-/.test(entry.name))
        imports.set(
          path,
          [
            ...readFileSync(join(ROOT, path), 'utf8').matchAll(
              /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'([^']+)'/gm,
            ),
          ].map(([, specifier]) => specifier as string),
        );
    }
  };
  walk('testkit');
  return imports;
}

/**
 * The `testkit/` helpers that reach what `test/unit/` refuses — a child process, the engine, the local server, the
 * CDK, a browser — themselves or through another helper. `transcripts.ts` aside: it lists the documents with
 * `git ls-files`, which its unit test (how a transcript is read and matched) never calls.
 */
function heavyHelpers(imports = testkitImports()): string[] {
  const roots = UNIT_REFUSED.filter((pattern) => !pattern.startsWith('**/testkit/'));
  const target = (file: string, specifier: string) =>
    specifier.startsWith('.')
      ? normalize(join(dirname(file), specifier)).replace(/\.(ts|js)$/, '')
      : specifier;
  const heavy = new Set<string>();
  let grown = true;
  while (grown) {
    grown = false;
    for (const [file, specifiers] of imports) {
      if (heavy.has(file) || file === 'testkit/transcripts.ts') continue;
      const reaches = specifiers.some((specifier) => {
        const module = target(file, specifier);
        return (
          roots.some((pattern) => matchesRefusal(pattern, module)) ||
          heavy.has(`${module}.ts`) ||
          heavy.has(`${module}.js`)
        );
      });
      if (reaches) {
        heavy.add(file);
        grown = true;
      }
    }
  }
  return [...heavy].sort();
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
      "import { RETRY_AFTER } from './platform/http/errors';",
      'export { readFileSync, setTimeout, Logger, injectLambdaContext, Metrics, DynamoDBClient, QueryCommand, marshall, middy, RETRY_AFTER };',
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
      "import { RETRY_AFTER } from '../../platform/http/errors';",
      "import type { ReadCost } from '../dynamodb/capacity';",
      'export { RETRY_AFTER };',
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
      "import { ESTIMATES } from '../test/project/layout.test';",
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
      "import { SERVICE_NAME } from '../lambda/domain/service/limits';",
      "import { lambdaContext } from '../lib/local/lambda-runtime';",
      'export { App, Command, dynalite, SERVICE_NAME, lambdaContext };',
    ];
    for (const folder of ['lib', 'bin']) expect(await refusedLines(allowed, folder)).toEqual([]);
  });

  it("refuse in lib/ and bin/ the tests' and the benchmark's code and the packages only they use", async () => {
    const refused = [
      "import { startTestS3 } from '../testkit/s3-server';",
      "import { listingEvent } from '../testkit/events';",
      "import { ESTIMATES } from '../test/project/layout.test';",
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
      "import { ESTIMATES } from '../test/project/layout.test';",
      "import { round } from '../bench/stats';",
    ];
    expect(await refusedLines(refused, 'testkit')).toEqual([1, 2]);
  });

  it('keep test/unit/ to tests in process: no engine, process, browser or stack; test/integration/ may', async () => {
    const refused = [
      "import { createTestTables } from '../../../testkit/dynamodb';",
      "import { testListingHandler } from '../../../testkit/listing';",
      "import { startFaultProxy } from '../../../testkit/fault-proxy';",
      "import { startNpmStart } from '../../../testkit/npm-start';",
      "import { launchBrowser } from '../../../testkit/browser';",
      "import { stackTemplate } from '../../../testkit/stack';",
      "import { syncedCopy } from '../../../testkit/sync-copy';",
      "import globalSetup from '../../../testkit/jest/global-setup';",
      "import { spawn } from 'node:child_process';",
      "import { startTestS3 } from '../../../testkit/s3-server';",
      "import { App } from 'aws-cdk-lib';",
      "import puppeteer from 'puppeteer-core';",
      "import { round } from '../../../bench/stats';",
    ];
    const allowed = [
      "import { CLOCK, vacancyRecord } from '../../../testkit/vacancies';",
      "import { listingEvent } from '../../../testkit/events';",
      "import { silentLogger } from '../../../testkit/quiet-runtime';",
      "import { seededRandom } from '../../../testkit/seeded-random';",
      "import { FACET_NAMES } from '../../../lambda/domain/answers/query';",
    ];
    expect(await refusedLines([...refused, ...allowed], 'test/unit/lambda')).toEqual(
      refused.map((_, i) => i + 1),
    );
    expect(await refusedLines(refused.slice(0, -1), 'test/integration/lambda')).toEqual([]);
  });

  it("name in test/unit/'s refusals every testkit/ helper that starts an engine, a process, a browser or a stack", () => {
    const missing = heavyHelpers().filter((helper) => !refusedInUnit(helper));
    // A refusal of a helper that was moved or renamed would refuse nothing.
    const stale = UNIT_REFUSED.filter((pattern) => pattern.startsWith('**/testkit/')).filter((pattern) => {
      const path = pattern.slice('**/'.length).replace(/\/\*\*$/, '');
      return ![path, `${path}.ts`, `${path}.js`].some((candidate) => existsSync(join(ROOT, candidate)));
    });
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('finds a helper that reaches what test/unit/ refuses through another (the check can fail)', () => {
    const imports = new Map([
      ['testkit/a.ts', ['./b', 'node:fs']],
      ['testkit/b.ts', ['../lib/create-tables']],
      ['testkit/c.ts', ['./d', 'aws-cdk-lib/assertions']],
      ['testkit/d.ts', ['../lambda/domain/schema/tables']],
    ]);
    expect(heavyHelpers(imports)).toEqual(['testkit/a.ts', 'testkit/b.ts', 'testkit/c.ts']);
    expect(refusedInUnit('testkit/listing.ts')).toBe(true);
    expect(refusedInUnit('testkit/jest/global-setup.ts')).toBe(true);
    expect(refusedInUnit('testkit/vacancies.ts')).toBe(false);
  });
});
