import { aws_lambda_nodejs as nodejs } from 'aws-cdk-lib';

/**
 * How the functions are bundled, written once: the stack hands these to `NodejsFunction` (which runs esbuild)
 * and the benchmark runs esbuild with the very same settings, so what it measures is what is deployed.
 *
 * ESM output (tree-shaken better than CommonJS, and what Node 24 prefers), minified, source maps without the
 * sources embedded (smaller files; the stack traces still point at the TypeScript lines), `module` entry points
 * first, and the AWS SDK bundled rather than taken from the runtime, so the deployed SDK is the tested one.
 */
export const ESBUILD_SETTINGS = {
  platform: 'node',
  target: 'node24',
  format: 'esm',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Some bundled CommonJS dependencies call `require` for Node built-ins; ESM has no `require` of its own.
  banner: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);",
} as const;

/** Node options of the functions: stack traces mapped through the source maps. */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/** `ESBUILD_SETTINGS` in `NodejsFunction`'s terms. */
export function nodejsBundling(): nodejs.BundlingOptions {
  return {
    target: ESBUILD_SETTINGS.target,
    format: nodejs.OutputFormat.ESM,
    minify: ESBUILD_SETTINGS.minify,
    sourceMap: ESBUILD_SETTINGS.sourcemap,
    sourceMapMode: nodejs.SourceMapMode.DEFAULT,
    sourcesContent: ESBUILD_SETTINGS.sourcesContent,
    mainFields: [...ESBUILD_SETTINGS.mainFields],
    banner: ESBUILD_SETTINGS.banner,
    bundleAwsSDK: true,
  };
}
