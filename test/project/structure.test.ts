/**
 * The structure stays as docs/design.md#layout says: no import circle anywhere in the project (Biome's
 * `noImportCycles`, run by `npm run lint` over every file — proven here to fire on a probe pair), and every read or
 * write of a vendor's summary item in the store's two runtime modules, `lambda/domain/store/summary-store.ts` and the reads it
 * extends, `lambda/domain/store/summary-reader.ts` (the record and its rules
 * are `lambda/domain/schema/summary.ts`; docs/design.md#the-summary).
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIOME = `${ROOT}node_modules/.bin/biome`;

/** The Biome rules that fire on these files, linted with the project's configuration. */
async function firedRules(files: readonly string[]): Promise<string[]> {
  const output = await new Promise<string>((resolve) =>
    execFile(BIOME, ['lint', '--reporter=json', ...files], { cwd: ROOT }, (_e, stdout) => resolve(stdout)),
  );
  const { diagnostics } = JSON.parse(output) as { diagnostics: { category: string }[] };
  return [...new Set(diagnostics.map(({ category }) => category))];
}

/** lambda/'s layers, lowest first: a file imports its own layer's files or a lower layer's (docs/design.md#layout). */
const LAYERS = ['platform', 'domain', 'functions'] as const;

/** Whether `from` may import `to`: not up a layer, and a function's folder not another function's. */
function allowedArrow(from: string, to: string): boolean {
  const [, fromLayer = '', fromFunction] = from.split('/');
  const [, toLayer = '', toFunction] = to.split('/');
  const rank = (layer: string) => LAYERS.indexOf(layer as (typeof LAYERS)[number]);
  if (!to.startsWith('lambda/')) return true;
  if (rank(toLayer) > rank(fromLayer)) return false;
  return !(fromLayer === 'functions' && toLayer === 'functions' && fromFunction !== toFunction);
}

/** The project's TypeScript and JavaScript files under these folders, as git knows them (lint probes left out). */
function trackedSources(folders: readonly string[]): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...folders], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.(ts|js|mjs)$/.test(file) && !/-probe-/.test(file) && existsSync(join(ROOT, file)));
}

/** Every relative module a source names: imports and re-exports, of values or types, static or dynamic. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map(
    ([, specifier]) => specifier as string,
  );
}

/** File → the project files it imports, each specifier resolved as the bundler and tsc resolve it. */
function importGraph(files: readonly string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of importsOf(readFileSync(join(ROOT, file), 'utf8'))) {
      const base = normalize(join(dirname(file), specifier));
      const found = [base, `${base}.ts`, `${base}.js`, `${base}/index.ts`].find(
        (path) => existsSync(join(ROOT, path)) && !statSync(join(ROOT, path)).isDirectory(),
      );
      if (found !== undefined) targets.add(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The import circles of a graph: each strongly connected group of more than one file (or a file importing itself). */
function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || graph.get(node)?.has(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the structure', () => {
  it('has a lint rule that refuses an import circle', async () => {
    const id = randomUUID().slice(0, 8);
    const [a, b] = [`lib/cycle-probe-a-${id}.ts`, `lib/cycle-probe-b-${id}.ts`];
    await writeFile(`${ROOT}${a}`, `import { b } from './cycle-probe-b-${id}';\nexport const a = () => b;\n`);
    await writeFile(`${ROOT}${b}`, `import { a } from './cycle-probe-a-${id}';\nexport const b = () => a;\n`);
    try {
      expect(await firedRules([a, b])).toContain('lint/suspicious/noImportCycles');
    } finally {
      await Promise.all([a, b].map((file) => rm(`${ROOT}${file}`, { force: true })));
    }
  });

  it("reads and writes summary items in the store's modules only: no other names a summary item's key", () => {
    const naming = execFileSync('git', ['grep', '-l', 'summaryItemKey', '--', 'lambda', 'lib', 'bin'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(naming).toEqual([
      'lambda/domain/schema/summary.ts',
      'lambda/domain/store/summary-reader.ts',
      'lambda/domain/store/summary-store.ts',
    ]);
  });

  it('has no import circle, type imports included: every file of the project, its imports read here', () => {
    const graph = importGraph(
      trackedSources(['lambda', 'lib', 'bin', 'testkit', 'bench', 'examples', 'test']),
    );
    expect(graph.size).toBeGreaterThan(300);
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle that only type imports close (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      importsOf(
        "import type { A } from './a';\nexport type { B } from './b';\nconst c = await import('./c');",
      ),
    ).toEqual(['./a', './b', './c']);
  });

  it("points lambda/'s arrows one way: functions → domain → platform, and no function into another", () => {
    const graph = importGraph(trackedSources(['lambda']));
    const wrong = [...graph].flatMap(([from, tos]) =>
      [...tos].filter((to) => !allowedArrow(from, to)).map((to) => `${from} → ${to}`),
    );
    expect(graph.size).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
    // Not the lint probes test/project/layers.test.ts writes into lambda/ and removes, maybe while this reads.
    const tops = readdirSync(join(ROOT, 'lambda')).filter((name) => !/-probe-/.test(name));
    expect(tops.sort()).toEqual([...LAYERS].sort());
  });

  it('refuses an arrow up a layer or across functions (the check can fail)', () => {
    expect(allowedArrow('lambda/functions/vacancies/handler.ts', 'lambda/domain/schema/tables.ts')).toBe(
      true,
    );
    expect(allowedArrow('lambda/domain/schema/tables.ts', 'lambda/platform/http/errors.ts')).toBe(true);
    expect(allowedArrow('lambda/platform/http/errors.ts', 'lambda/domain/schema/tables.ts')).toBe(false);
    expect(allowedArrow('lambda/domain/import/import.ts', 'lambda/functions/inbox/report.ts')).toBe(false);
    expect(allowedArrow('lambda/functions/inbox/inbox.ts', 'lambda/functions/webhooks/run.ts')).toBe(false);
  });
});
