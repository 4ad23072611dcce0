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
import http from 'node:http';
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
 * `node:http` taken through `require`, as a CommonJS module takes it, in place of an ES module import: Node builds an
 * ES module's view of a built-in by reading every export, and `http`'s `WebSocket`, `CloseEvent` and `MessageEvent`
 * are getters that load undici: `import 'node:http'` alone takes 48 ms on Node 24.21 where `require` takes 4, and a
 * run of the ops CLI (the AWS SDK's HTTP handler imports it) about 25 ms less of CPU without it. The same module
 * object: the view names each export but those three (read once, as the view reads them).
 */
const httpThroughRequire: Plugin = {
  name: 'http-through-require',
  setup(plugin) {
    plugin.onResolve({ filter: /^(node:)?http$/ }, () => ({
      path: 'node:http',
      namespace: 'http-through-require',
    }));
    plugin.onLoad({ filter: /.*/, namespace: 'http-through-require' }, () => {
      const names = Object.keys(http).filter(
        (name) => !['WebSocket', 'CloseEvent', 'MessageEvent'].includes(name),
      );
      return {
        contents: [
          "import { createRequire } from 'node:module';",
          "const http = createRequire(import.meta.url)('node:http');",
          'export default http;',
          `export const { ${names.join(', ')} } = http;`,
        ].join('\n'),
        loader: 'js',
      };
    });
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
    plugins: [ownImportMetaUrl, httpThroughRequire],
    logLevel: 'error',
  });
  return folder;
}

export function removeEntryBundles(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/**
 * The arguments of `node` that start an entry point: its bundle where the run built them, else its source through tsx
 * (a test file run outside Jest's global setup). Without `--enable-source-maps`, which reads and indexes the bundle's
 * whole map at every start (some 26 ms of CPU, a few hundred starts a run): a stack trace names the bundle's lines,
 * each module's under a `// <source path>` line there; `NODE_OPTIONS=--enable-source-maps` maps them to the sources.
 */
export function entryArguments(entry: Entry): string[] {
  const folder = process.env[ENTRY_BUNDLES_VARIABLE];
  return folder ? [join(folder, `${entry}.mjs`)] : ['--import', 'tsx', join(ROOT, ENTRIES[entry])];
}
