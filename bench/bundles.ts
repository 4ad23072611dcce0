/** Bundle sizes and cold init of the functions, next to a bare reference function. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { FUNCTION_NAMES } from '../lambda/domain/service/limits';
import { functionEnvironment } from '../lambda/domain/settings/environment';
import { DEFAULT_SETTINGS } from '../lib/settings';
import {
  DEFAULT_BUNDLE,
  ESBUILD_SETTINGS,
  esbuildAlias,
  esbuildDefine,
  FUNCTION_NODE_OPTIONS,
} from '../lib/stack/bundling';
import { percentile, round } from './stats';

export interface BundleResult {
  bytes: number;
  gzip_bytes: number;
  init_p50_ms: number;
  init_p90_ms: number;
}

export const ENTRIES = {
  listing: 'lambda/functions/vacancies/handler.ts',
  authorizer: 'lambda/functions/authorizer/handler.ts',
  mcp: 'lambda/functions/mcp/handler.ts',
  bare: 'bench/bare-handler.ts',
} as const;
export type BundleName = keyof typeof ENTRIES;

/** Bundles with exactly the stack's esbuild settings (lib/stack/bundling.ts). */
async function bundle(name: BundleName, folder: string): Promise<string> {
  const outfile = join(folder, name, 'index.mjs');
  const { banner, ...settings } = ESBUILD_SETTINGS;
  await build({
    ...settings,
    mainFields: [...settings.mainFields],
    banner: { js: banner },
    alias: esbuildAlias(DEFAULT_BUNDLE),
    define: esbuildDefine(DEFAULT_BUNDLE),
    entryPoints: [ENTRIES[name]],
    bundle: true,
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/** Every function's environment as deployed with the default settings (each reads its own at cold start). */
const FUNCTIONS_ENVIRONMENT = Object.assign(
  {},
  ...FUNCTION_NAMES.map((name) =>
    functionEnvironment(name, DEFAULT_SETTINGS, { vacancies: 'bench', vendors: 'bench' }),
  ),
) as Record<string, string>;

/** Milliseconds to import (load and initialise) a bundle in a fresh Node.js process, flags as on Lambda. */
function importTime(file: string): number {
  const script = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});process.stdout.write(String(performance.now()-t));`;
  const run = spawnSync(process.execPath, [...FUNCTION_NODE_OPTIONS, '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, AWS_REGION: 'eu-central-1', ...FUNCTIONS_ENVIRONMENT },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`Importing ${file} failed: ${run.stderr}`);
  return Number(run.stdout);
}

/** Bundles every entry and times `runs` cold inits of each, interleaved. */
export async function measureBundles(runs: number): Promise<Record<BundleName, BundleResult>> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-bundles-'));
  try {
    const names = Object.keys(ENTRIES) as BundleName[];
    const files = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await bundle(name, folder)])),
    ) as Record<BundleName, string>;
    const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      BundleName,
      number[]
    >;
    // Interleaved, so that a noisy moment on a shared machine hits every bundle alike.
    for (let run = 0; run < runs; run += 1)
      for (const name of names) times[name].push(importTime(files[name]));
    const result = {} as Record<BundleName, BundleResult>;
    for (const name of names) {
      const code = await readFile(files[name]);
      result[name] = {
        bytes: code.length,
        gzip_bytes: gzipSync(code).length,
        init_p50_ms: round(percentile(times[name], 50)),
        init_p90_ms: round(percentile(times[name], 90)),
      };
    }
    return result;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
