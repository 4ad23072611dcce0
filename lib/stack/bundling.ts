import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aws_lambda_nodejs as nodejs } from 'aws-cdk-lib';

/**
 * How the functions are bundled, written once: the stack hands these to `NodejsFunction` (which runs esbuild)
 * and the benchmark runs esbuild with the very same settings, so what it measures is what is deployed.
 *
 * ESM output (tree-shaken better than CommonJS, and what Node 24 prefers), minified, source maps without the
 * sources embedded (smaller files; a bundle reads its map only when a stack trace is formatted, and the trace
 * then points at the TypeScript lines: lambda/platform/observability/stack-traces.ts), `module` entry points
 * first, and the AWS SDK bundled rather than taken from the runtime, so the deployed SDK is the tested one — with
 * its default credential chain reduced to the environment, where Lambda puts the role's credentials
 * (lambda/platform/aws/environment-credentials.ts).
 */
export const ESBUILD_SETTINGS = {
  platform: 'node',
  target: 'node24',
  format: 'esm',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Resolved from the project root, where both esbuild and `NodejsFunction` run it.
  alias: {
    '@aws-sdk/credential-provider-node': './lambda/platform/aws/environment-credentials.ts',
    // Imported by the MCP SDK, never run by the MCP function: left out of its bundle (lambda/functions/mcp/left-out.ts).
    '@modelcontextprotocol/server/_shims': './lambda/functions/mcp/left-out.ts',
  },
  // Some bundled CommonJS dependencies call `require` for Node built-ins; ESM has no `require` of its own.
  banner: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);",
} as const;

const LAMBDA_SOURCES = new URL('../../lambda', import.meta.url).pathname;

/**
 * The build of the functions: a digest of every source file under `lambda/`, which the bundler writes into the
 * code as `VVA_BUILD_ID` — part of the listing's entity tags, since another build may write other bytes for the
 * same data (docs/design.md#etags).
 */
export function functionsBuildId(): string {
  const hash = createHash('sha256');
  const files = (readdirSync(LAMBDA_SOURCES, { recursive: true }) as string[]).filter((file) =>
    file.endsWith('.ts'),
  );
  for (const file of files.sort())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(LAMBDA_SOURCES, file)))
      .update('\0');
  return hash.digest('base64url').slice(0, 22);
}

/** What a deployment's bundles carry besides the code: whether the functions publish metrics. */
export interface BundleOptions {
  /**
   * Whether Powertools Metrics is bundled: only under the `detailed` monitoring profile; the `default` one
   * publishes none, and its bundles leave it out (lambda/domain/service/metrics.ts, docs/design.md#cold-start).
   */
  readonly metrics: boolean;
}

/** The bundles of the default monitoring profile, which the benchmark measures. */
export const DEFAULT_BUNDLE: BundleOptions = { metrics: false };

/**
 * esbuild's `define` of the functions: the build id, whether metrics are bundled, and that the bundle maps its stack
 * traces through its source map when one is read (lambda/platform/observability/stack-traces.ts).
 */
export const esbuildDefine = ({ metrics }: BundleOptions) => ({
  VVA_BUILD_ID: JSON.stringify(functionsBuildId()),
  VVA_METRICS: String(metrics),
  VVA_LAZY_SOURCE_MAPS: 'true',
});

/**
 * Node options of the functions: none. Not `--enable-source-maps`, which reads and indexes the whole source map at
 * every cold start; a bundle maps its stack traces itself, when one is read (docs/design.md#cold-start).
 */
export const FUNCTION_NODE_OPTIONS: readonly string[] = [];

/** The metrics modules a build without metrics resolves to `lambda/platform/observability/metrics-left-out.ts`. */
const METRICS_MODULES = [
  '@aws-lambda-powertools/metrics',
  '@aws-lambda-powertools/metrics/middleware',
] as const;

/** esbuild's `alias` of a build: `ESBUILD_SETTINGS.alias`, and Powertools Metrics left out unless bundled. */
export function esbuildAlias({ metrics }: BundleOptions): Record<string, string> {
  const leftOut = './lambda/platform/observability/metrics-left-out.ts';
  return {
    ...ESBUILD_SETTINGS.alias,
    ...(metrics ? {} : Object.fromEntries(METRICS_MODULES.map((module) => [module, leftOut]))),
  };
}

/** `ESBUILD_SETTINGS` in `NodejsFunction`'s terms. */
export function nodejsBundling(options: BundleOptions): nodejs.BundlingOptions {
  return {
    target: ESBUILD_SETTINGS.target,
    format: nodejs.OutputFormat.ESM,
    minify: ESBUILD_SETTINGS.minify,
    sourceMap: ESBUILD_SETTINGS.sourcemap,
    sourceMapMode: nodejs.SourceMapMode.DEFAULT,
    sourcesContent: ESBUILD_SETTINGS.sourcesContent,
    mainFields: [...ESBUILD_SETTINGS.mainFields],
    banner: ESBUILD_SETTINGS.banner,
    // `NodejsFunction` has no `alias` of its own; it passes `--alias` arguments on to esbuild as `--alias:from=to`.
    esbuildArgs: {
      '--alias': Object.entries(esbuildAlias(options)).map(([from, to]) => `${from}=${to}`),
    },
    define: esbuildDefine(options),
    bundleAwsSDK: true,
  };
}
