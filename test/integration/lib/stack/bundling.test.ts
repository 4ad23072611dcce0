/**
 * The functions as deployed: the stack synthesized with real esbuild bundles, as `cdk synth` builds them, each
 * bundle run in a Node.js process of its own with what Lambda gives a function — the environment of the template,
 * the execution role's credentials in `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, the
 * region, the template's Node options — and nothing else: no profile, no home directory. Only where DynamoDB is
 * differs: `AWS_ENDPOINT_URL_DYNAMODB`, the SDK's own setting, points at the test engine through a proxy that
 * records which key signed each request. The bundles carry the environment's credential provider in place of
 * the SDK's chain (docs/design.md#runtime).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { App } from 'aws-cdk-lib';
import { FUNCTION_METRICS, METRICS_EMITTED } from '../../../../lambda/domain/service/metrics';
import { MCP_PATH } from '../../../../lambda/domain/service/routes';
import { TABLE_VARIABLES } from '../../../../lambda/domain/settings/environment';
import { listingEvent as mcpProxyEvent } from '../../../../lib/local/proxy-event';
import { putVendor } from '../../../../lib/ops/vendors';
import { readSettings } from '../../../../lib/settings';
import { VacancyApiStack } from '../../../../lib/stack/vacancy-api-stack';
import { createTestTables, type TestTables } from '../../../../testkit/dynamodb';
import { listingEvent } from '../../../../testkit/events';
import { type FaultProxy, startFaultProxy } from '../../../../testkit/fault-proxy';
import { importRecords } from '../../../../testkit/listing';
import { CDK_CONTEXT } from '../../../../testkit/stack';
import { vacancyRecord } from '../../../../testkit/vacancies';

interface DeployedFunction {
  /** The bundle's folder in the cloud assembly. */
  readonly folder: string;
  readonly handler: string;
  /** The template's variables; a table's name is a reference there, resolved per test. */
  readonly variables: Record<string, unknown>;
}

/**
 * The role's credentials. DynamoDB Local keeps a database per access key id and region, so the key id is the one
 * the test's tables were made with (`createDynamoDBClient`'s fixed local one); the session token, which those
 * fixed credentials never carry, shows that the environment's signed.
 */
const ROLE = { accessKeyId: 'local', sessionToken: 'role-session-token' };
/** What starts the line of the handler's answer in the process's output. */
const RESULT = 'handler answered: ';
const outdir = mkdtempSync(join(tmpdir(), 'bundles-'));
const home = mkdtempSync(join(tmpdir(), 'bundles-home-'));

/**
 * Synthesizes the stack with real bundles (in a folder of its own under `outdir`, with `context` over the tests'
 * own) and finds each function's by the construct that made it.
 */
function synthesizeFunctions(
  folder = 'default',
  context: Record<string, string> = {},
): Map<string, DeployedFunction> {
  const app = new App({
    outdir: join(outdir, folder),
    context: {
      ...CDK_CONTEXT,
      ...context,
      'aws:cdk:enable-path-metadata': true,
      'aws:cdk:enable-asset-metadata': true,
    },
    // The CDK's CloudFormation validation is the app's (test/e2e/cdk/synth-cli.test.ts); here, seconds of CPU.
    builtinCloudFormationValidation: false,
  });
  new VacancyApiStack(app, 'Bundles', { settings: readSettings((key) => app.node.tryGetContext(key)) });
  const artifact = app.synth().getStackByName('Bundles');
  const functions = new Map<string, DeployedFunction>();
  for (const resource of Object.values(artifact.template.Resources) as {
    Type: string;
    Properties: { Handler?: string; Environment?: { Variables?: Record<string, unknown> } };
    Metadata?: Record<string, string>;
  }[]) {
    const path = resource.Metadata?.['aws:cdk:path'] ?? '';
    const asset = resource.Metadata?.['aws:asset:path'];
    const name = /\/Functions\/(\w+)\//.exec(path)?.[1];
    if (resource.Type !== 'AWS::Lambda::Function' || !asset || !name) continue;
    functions.set(name, {
      folder: join(outdir, folder, asset),
      handler: resource.Properties.Handler ?? '',
      variables: resource.Properties.Environment?.Variables ?? {},
    });
  }
  return functions;
}

/** The files each bundle was built from, by its source map. */
const bundledSources = (fn: DeployedFunction): string[] =>
  JSON.parse(readFileSync(join(fn.folder, 'index.mjs.map'), 'utf8')).sources;

/**
 * Runs `fn`'s handler once on `event` in a fresh Node.js process with exactly `environment` (not waiting in
 * a blocking call: the proxy it reaches DynamoDB through runs in this process).
 */
async function invoke(
  fn: DeployedFunction,
  event: unknown,
  environment: Record<string, string>,
  nodeOptions: readonly string[] = [],
) {
  const [file, exported] = fn.handler.split('.');
  const script = `
    const { ${exported}: handler } = await import(${JSON.stringify(pathToFileURL(join(fn.folder, `${file}.mjs`)).href)});
    const deadline = Date.now() + 10000;
    const context = { functionName: 'listing', awsRequestId: 'bundle-test', memoryLimitInMB: '512',
      invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:listing',
      getRemainingTimeInMillis: () => deadline - Date.now() };
    process.stdout.write(${JSON.stringify(`\n${RESULT}`)} + JSON.stringify(await handler(JSON.parse(process.argv[1]), context)));`;
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [
      ...String(fn.variables.NODE_OPTIONS ?? '')
        .split(' ')
        .filter(Boolean),
      ...nodeOptions,
      '--input-type=module',
      '-e',
      script,
      JSON.stringify(event),
    ],
    { env: { PATH: process.env.PATH, HOME: home, ...environment }, encoding: 'utf8', timeout: 30_000 },
  );
  // The function's own log lines (JSON too) come before its answer.
  const answer = stdout.split('\n').find((line) => line.startsWith(RESULT)) ?? '';
  return Object.assign(
    JSON.parse(answer.slice(RESULT.length)) as {
      statusCode: number;
      headers: Record<string, string>;
      body: string;
    },
    { output: `${stdout}\n${stderr}` },
  );
}

/** What a process prints on stderr when it reads a source map, under `--import` of `MAP_READS`. */
const MAP_READ = 'source map read: ';

/**
 * A module to `--import` before a bundle: it reports every source map the process reads with `readFileSync` (as a
 * bundle reads its own, lambda/platform/observability/stack-traces.ts), on stderr.
 */
const MAP_READS = `
  import fs from 'node:fs';
  import { syncBuiltinESMExports } from 'node:module';
  const readFileSync = fs.readFileSync;
  fs.readFileSync = (path, ...rest) => {
    if (String(path).endsWith('.map')) process.stderr.write(${JSON.stringify(MAP_READ)} + String(path) + '\\n');
    return readFileSync(path, ...rest);
  };
  syncBuiltinESMExports();
`;

/** The errors in the log lines a function printed. */
function loggedErrors(output: string): { stack: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"error"'))
    .map((line) => (JSON.parse(line) as { error: { stack: string } }).error);
}

/** The names of the metrics in the EMF documents a function printed. */
function emittedMetrics(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"_aws"'))
    .flatMap((line) =>
      (
        JSON.parse(line) as { _aws: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] } }
      )._aws.CloudWatchMetrics.flatMap((directive) => directive.Metrics.map(({ Name }) => Name)),
    );
}

describe('the synthesized bundles, run as Lambda runs them', () => {
  let functions: Map<string, DeployedFunction>;
  let tables: TestTables;
  let proxy: FaultProxy;

  /** What Lambda gives the listing, the role's credentials included unless `credentials` is false. */
  const listingEnvironment = (
    credentials: boolean,
    templateVariables: Record<string, unknown> = (functions.get('Listing') as DeployedFunction).variables,
  ): Record<string, string> => {
    const variables = Object.fromEntries(
      Object.entries(templateVariables).filter(([, value]) => typeof value === 'string'),
    ) as Record<string, string>;
    return {
      ...variables,
      [TABLE_VARIABLES.vacancies]: tables.names.vacancies,
      [TABLE_VARIABLES.vendors]: tables.names.vendors,
      AWS_REGION: process.env.AWS_REGION ?? 'local',
      AWS_LAMBDA_FUNCTION_NAME: 'listing',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
      ...(credentials && {
        AWS_ACCESS_KEY_ID: ROLE.accessKeyId,
        AWS_SECRET_ACCESS_KEY: 'role-secret',
        AWS_SESSION_TOKEN: ROLE.sessionToken,
      }),
    };
  };

  beforeAll(async () => {
    functions = synthesizeFunctions();
    tables = await createTestTables();
    proxy = await startFaultProxy(tables.endpoint);
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
    await importRecords(tables, [vacancyRecord({ id: 7, vendor_id: 'acme' })]);
  }, 120_000);

  afterAll(async () => {
    await proxy.stop();
    await tables.drop();
    rmSync(outdir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('bundles every function, and none carries a credential provider but the environment’s', () => {
    expect([...functions.keys()].sort()).toEqual([
      'Authorizer',
      'Expiry',
      'Feeds',
      'Inbox',
      'Listing',
      'Mcp',
      'Webhooks',
    ]);
    // The MCP SDK (and its schema library) in the MCP function's bundle alone.
    for (const [name, fn] of functions) {
      const sources = bundledSources(fn);
      const sdk = sources.some((source) => /@modelcontextprotocol\/(sdk|server|core)\/|\/zod\//.test(source));
      expect([name, sdk]).toEqual([name, name === 'Mcp']);
    }
    for (const fn of functions.values()) {
      const sources = bundledSources(fn);
      expect(
        sources.some((source) => source.includes('lambda/platform/aws/environment-credentials.ts')),
      ).toBe(true);
      expect(sources.some((source) => source.includes('@aws-sdk/credential-provider-env/'))).toBe(true);
      expect(
        sources.filter((source) =>
          /@aws-sdk\/(credential-provider-(node|ini|sso|process|web-identity|login|http)|nested-clients|token-providers)\//.test(
            source,
          ),
        ),
      ).toEqual([]);
    }
  });

  it('answers a listing, every request signed with the role’s credentials from the environment', async () => {
    const before = proxy.signers.length;
    const response = await invoke(
      functions.get('Listing') as DeployedFunction,
      listingEvent(),
      listingEnvironment(true),
    );

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'success', data: [{ id: 7 }] });
    const signers = proxy.signers.slice(before);
    expect(signers.length).toBeGreaterThan(0);
    for (const signer of signers) expect(signer).toEqual(ROLE);
  });

  it('answers an MCP tools/call from the MCP bundle, whose SDK runs without the libraries left out of it', async () => {
    const mcp = functions.get('Mcp') as DeployedFunction;
    // Left out: the SDK's default JSON Schema validator, Ajv (lambda/functions/mcp/left-out.ts).
    const sources = bundledSources(mcp);
    expect(sources.filter((source) => /node_modules\/(ajv|ajv-formats)\/|ajvProvider/.test(source))).toEqual(
      [],
    );
    expect(sources.some((source) => source.includes('@modelcontextprotocol/server/'))).toBe(true);
    const call = (id: number, method: string, params: unknown) =>
      mcpProxyEvent({
        route: MCP_PATH,
        path: `/prod${MCP_PATH}`,
        stage: 'prod',
        domainName: 'api.example.com',
        requestId: `req-mcp-${id}`,
        authorizer: { vendorId: 'acme', company: 'Acme LLC', rateTier: 'standard', principalId: 'acme' },
        headers: new Map([
          ['Content-Type', ['application/json']],
          ['Accept', ['application/json, text/event-stream']],
        ]),
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
    const environment = listingEnvironment(true, mcp.variables);
    const listed = await invoke(mcp, call(1, 'tools/list', {}), environment);
    expect(listed.statusCode).toBe(200);
    expect(JSON.parse(listed.body).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'search_vacancies',
      'get_vacancy',
    ]);
    const called = await invoke(
      mcp,
      call(2, 'tools/call', { name: 'search_vacancies', arguments: { include: ['pay', 'workplace'] } }),
      environment,
    );
    expect(called.statusCode).toBe(200);
    expect(JSON.parse(called.body).result.structuredContent).toMatchObject({
      company: 'Acme LLC',
      data: [{ id: 7, workplace: expect.any(String) }],
    });
  });

  it("answers a container's first request without reading its source map: the listing's, the MCP function's of either revision", async () => {
    const mcp = functions.get('Mcp') as DeployedFunction;
    const preload = join(outdir, 'map-reads.mjs');
    writeFileSync(preload, MAP_READS);
    const listed = await invoke(
      functions.get('Listing') as DeployedFunction,
      listingEvent({ requestId: 'first-listing' }),
      listingEnvironment(true),
      ['--import', pathToFileURL(preload).href],
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.output).not.toContain(MAP_READ);
    const environment = listingEnvironment(true, mcp.variables);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bundle-test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const firstRequests = [
      // 2025-11-25, as a client speaks it after initialize.
      { headers: { 'MCP-Protocol-Version': '2025-11-25' }, method: 'tools/list', params: {} },
      // 2026-07-28: no initialize, the version and client in _meta, the method and tool in headers too.
      {
        headers: {
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'search_vacancies',
        },
        method: 'tools/call',
        params: { name: 'search_vacancies', arguments: { per_page: 1 }, _meta: meta },
      },
    ];
    for (const [i, { headers, method, params }] of firstRequests.entries()) {
      const event = mcpProxyEvent({
        route: MCP_PATH,
        path: `/prod${MCP_PATH}`,
        stage: 'prod',
        domainName: 'api.example.com',
        requestId: `req-first-${i}`,
        authorizer: { vendorId: 'acme', company: 'Acme LLC', rateTier: 'standard', principalId: 'acme' },
        headers: new Map([
          ['Content-Type', ['application/json']],
          ['Accept', ['application/json, text/event-stream']],
          ...Object.entries(headers).map(([name, value]): [string, string[]] => [name, [value]]),
        ]),
        body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method, params }),
      });
      const response = await invoke(mcp, event, environment, ['--import', pathToFileURL(preload).href]);
      expect([response.statusCode, JSON.parse(response.body).result !== undefined]).toEqual([200, true]);
      expect(response.output).not.toContain(MAP_READ);
    }
    // The map is read where a stack is formatted: an error logged (the listing's, without credentials).
    const failed = await invoke(
      functions.get('Listing') as DeployedFunction,
      listingEvent({ requestId: 'map-read' }),
      listingEnvironment(false),
      ['--import', pathToFileURL(preload).href],
    );
    expect(failed.statusCode).toBe(500);
    expect(failed.output).toContain(
      `${MAP_READ}${join(functions.get('Listing')?.folder ?? '', 'index.mjs.map')}`,
    );
  });

  it('without credentials in the environment, answers 500 in the envelope and asks DynamoDB nothing', async () => {
    const before = proxy.operations.length;
    const response = await invoke(
      functions.get('Listing') as DeployedFunction,
      listingEvent({ requestId: 'no-credentials' }),
      listingEnvironment(false),
    );

    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      status: 'error',
      message: 'Server Error.',
      request_id: 'no-credentials',
    });
    expect(proxy.operations.length).toBe(before);
    // Logged with the TypeScript sources' lines, though Node runs without `--enable-source-maps`: the bundle maps
    // a stack when one is read (lambda/platform/observability/stack-traces.ts).
    const logged = loggedErrors(response.output);
    expect(logged.length).toBeGreaterThan(0);
    for (const { stack } of logged) {
      const frames = stack.split('\n').filter((line) => line.startsWith('    at '));
      expect(frames[0]).toMatch(/@aws-sdk\/credential-provider-env\/dist-es\/fromEnv\.js:\d+:\d+$/);
      // Node keeps ten frames: the outermost is the service's own TypeScript (the listing's flow or above).
      expect(frames.at(-1)).toMatch(
        /lambda\/(?:functions\/vacancies|domain\/answers)\/[\w/-]+\.ts:\d+:\d+\)?$/,
      );
      expect(frames.filter((frame) => frame.includes('index.mjs:'))).toEqual([]);
    }
  });

  it('leaves Powertools Metrics out of every bundle under the default monitoring profile: no EMF document', async () => {
    for (const fn of functions.values()) {
      expect(fn.variables.POWERTOOLS_METRICS_DISABLED).toBe('true');
      const sources = bundledSources(fn);
      expect(sources.filter((source) => source.includes('@aws-lambda-powertools/metrics/'))).toEqual([]);
    }
    const plain = await invoke(
      functions.get('Listing') as DeployedFunction,
      listingEvent({ requestId: 'default-profile' }),
      listingEnvironment(true),
    );
    expect(plain.statusCode).toBe(200);
    expect(plain.output).toContain('Listing served');
    expect(emittedMetrics(plain.output)).toEqual([]);
  });

  it('bundles them under detailed, and the listing emits exactly its declared metrics', async () => {
    const detailed = synthesizeFunctions('detailed', { monitoring: 'detailed' });
    for (const name of ['Authorizer', 'Listing', 'Expiry']) {
      const fn = detailed.get(name) as DeployedFunction;
      expect(fn.variables.POWERTOOLS_METRICS_DISABLED).toBeUndefined();
      expect(bundledSources(fn).some((source) => source.includes('@aws-lambda-powertools/metrics/'))).toBe(
        true,
      );
    }
    const listing = detailed.get('Listing') as DeployedFunction;
    const counted = await invoke(
      listing,
      listingEvent({ requestId: 'detailed-profile' }),
      listingEnvironment(true, listing.variables),
    );
    expect(counted.statusCode).toBe(200);
    expect(new Set(emittedMetrics(counted.output))).toEqual(
      new Set(METRICS_EMITTED.listing.map((metric) => FUNCTION_METRICS[metric])),
    );
  }, 120_000);
});
