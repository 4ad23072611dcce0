/**
 * The ops CLI and the local server as the tests start them, a few hundred times a run: each an esbuild bundle of its
 * entry point (`bin/admin.ts`, `bin/local-server.ts`), built once per run by the global setup from the same sources
 * `npx vacancy-admin` and `npm start` run through tsx. Loading them through tsx costs a process about 1 s of CPU;
 * the bundle with its packages outside about 0.33 s, with them inside (as the functions are bundled: their ES module
 * builds, only what is used) about 0.22 s — on 2 cores, a run's minutes. Each of our modules keeps its own
 * `import.meta.url`, so what it reads beside itself (cdk.json, the demo seed, the career page) is found where it is.
 * Packages that read or load files beside their own (`PACKAGES_OUTSIDE`) stay in node_modules. The documented commands
 * themselves are run as written by the transcripts' and the examples' tests (test/e2e/docs, test/e2e/examples).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The variable that names the run's folder of bundles (set by the global setup, read by every worker). */
export const ENTRY_BUNDLES_VARIABLE = 'VVA_TEST_ENTRY_BUNDLES';

const ROOT = new URL('../', import.meta.url).pathname;

/** The entry points the tests start, by name. */
const ENTRIES = {
  admin: 'bin/admin.ts',
  'local-server': 'bin/local-server.ts',
  'local-api-child': 'testkit/local-api-child.ts',
} as const;
export type Entry = keyof typeof ENTRIES;

/** Packages loaded from node_modules, not bundled: dynalite loads a native binding and its TLS files beside itself. */
const PACKAGES_OUTSIDE = ['dynalite'];

/** Each source module's `import.meta.url` its own file's, as tsx runs it, not the bundle's. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(path).href),
      ),
      loader: 'ts',
    }));
  },
};

/**
 * Builds the bundles into a folder of their own under node_modules/.cache (where Node finds the packages they import,
 * and two runs at once do not share one); returns the folder, which `removeEntryBundles` deletes.
 */
export async function buildEntryBundles(): Promise<string> {
  const parent = join(ROOT, 'node_modules/.cache/vva-entry-bundles');
  mkdirSync(parent, { recursive: true });
  const folder = mkdtempSync(join(parent, 'run-'));
  await build({
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ in: join(ROOT, entry), out })),
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    external: PACKAGES_OUTSIDE,
    // Bundled CommonJS packages call `require` for Node built-ins; an ES module has none of its own.
    banner: {
      js: "import{createRequire as bannerRequire}from'node:module';const require=bannerRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [ownImportMetaUrl],
    logLevel: 'error',
  });
  return folder;
}

export function removeEntryBundles(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/**
 * The arguments of `node` that start an entry point: its bundle where the run built them, else its source through tsx
 * (a test file run outside Jest's global setup).
 */
export function entryArguments(entry: Entry): string[] {
  const folder = process.env[ENTRY_BUNDLES_VARIABLE];
  return folder
    ? ['--enable-source-maps', join(folder, `${entry}.mjs`)]
    : ['--import', 'tsx', join(ROOT, ENTRIES[entry])];
}
