/**
 * docs/design.md#layout is written from the tree, and stays so: every folder of `lambda/`, `lib/` and `examples/` is
 * named there, and every file of `lib/`'s top and of `lib/local/` (the places a loose file goes unnoticed); the test
 * tree mirrors the code as the section says — a file of `test/unit/` or `test/integration/` names a module or folder
 * that exists, `<module>[.<aspect>].test.ts` at its path; every other test sits in `test/e2e/<transport>/` or
 * `test/project/`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = new URL('../../', import.meta.url).pathname;
const DESIGN = readFileSync(join(ROOT, 'docs/design.md'), 'utf8');

/** The Layout section of docs/design.md: from its heading to the next of the same level. */
const LAYOUT = (() => {
  const start = DESIGN.indexOf('\n## Layout\n');
  const end = DESIGN.indexOf('\n## ', start + 1);
  return DESIGN.slice(start, end);
})();

/** The transports of `test/e2e/` the section names. */
const E2E_TRANSPORTS = ['http', 'browser', 'cli', 'cdk', 'docs', 'examples', 'crash'];

function folders(top: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(join(ROOT, path), { withFileTypes: true }))
      if (entry.isDirectory()) {
        found.push(`${path}/${entry.name}`);
        walk(`${path}/${entry.name}`);
      }
  };
  walk(top);
  return found;
}

function files(folder: string, pattern = /\.ts$/): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(join(ROOT, path), { withFileTypes: true }))
      if (entry.isDirectory()) walk(`${path}/${entry.name}`);
      else if (pattern.test(entry.name)) found.push(`${path}/${entry.name}`);
  };
  walk(folder);
  return found;
}

/** Whether the section names a path, in code: its whole path, or its last part (a folder with its slash). */
function named(path: string, isFolder: boolean): boolean {
  const last = path.split('/').at(-1);
  const suffix = isFolder ? '/' : '';
  return LAYOUT.includes(`\`${path}${suffix}\``) || LAYOUT.includes(`\`${last}${suffix}\``);
}

/**
 * What a test file of a mirrored tree names: its path without the tree's prefix and `.test.ts`, less any
 * `.<aspect>` parts — the first of the candidates that exists as a module (`.ts`, `.js`) or a folder.
 */
function mirroredModule(testFile: string, tree: string): string | undefined {
  const stem = relative(join(ROOT, tree), join(ROOT, testFile)).replace(/\.test\.ts$/, '');
  const parts = stem.split('/');
  const name = (parts.pop() ?? '').split('.');
  for (let keep = name.length; keep >= 1; keep--) {
    const candidate = [...parts, name.slice(0, keep).join('.')].join('/');
    for (const path of [`${candidate}.ts`, `${candidate}.js`, candidate])
      if (existsSync(join(ROOT, path))) return path;
  }
  return undefined;
}

describe('docs/design.md#layout', () => {
  it('names every folder of lambda/, lib/ and examples/', () => {
    const unnamed = [...folders('lambda'), ...folders('lib'), ...folders('examples')].filter(
      (folder) => !named(folder, true),
    );
    expect(unnamed).toEqual([]);
  });

  it("names every file of lib/'s top and of lib/local/, and every top folder", () => {
    const loose = readdirSync(join(ROOT, 'lib'))
      .filter((name) => statSync(join(ROOT, 'lib', name)).isFile())
      .map((name) => `lib/${name}`);
    const local = readdirSync(join(ROOT, 'lib/local')).map((name) => `lib/local/${name}`);
    // Other tests' lint probes come and go in lib/ while this runs (test/project/layers, structure).
    const probe = /-probe-/;
    const unnamed = [...loose, ...local].filter((file) => !probe.test(file) && !named(file, false));
    const tops = ['lambda', 'lib', 'bin', 'testkit', 'test', 'bench', 'docs', 'examples'].filter(
      (top) => !LAYOUT.includes(`\`${top}/\``),
    );
    expect({ unnamed, tops }).toEqual({ unnamed: [], tops: [] });
  });

  it('fails on a folder it does not name (the check can fail)', () => {
    expect(named('lambda/no-such-folder', true)).toBe(false);
    expect(named('lambda/functions/vacancies/answers', true)).toBe(true);
  });
});

describe('the test tree', () => {
  const tests = files('test', /\.test\.ts$/);

  it('mirrors the code in test/unit/ and test/integration/: each file names a module or folder that exists', () => {
    const orphans = tests
      .filter((file) => file.startsWith('test/unit/') || file.startsWith('test/integration/'))
      .filter(
        (file) => !mirroredModule(file, file.startsWith('test/unit/') ? 'test/unit' : 'test/integration'),
      );
    expect(orphans).toEqual([]);
  });

  it('keeps every other test in test/e2e/<transport>/ or test/project/', () => {
    const misplaced = tests.filter(
      (file) =>
        !file.startsWith('test/unit/') &&
        !file.startsWith('test/integration/') &&
        !file.startsWith('test/project/') &&
        !E2E_TRANSPORTS.some((transport) => file.startsWith(`test/e2e/${transport}/`)),
    );
    expect(misplaced).toEqual([]);
    for (const transport of E2E_TRANSPORTS) expect(LAYOUT).toContain(`\`${transport}/\``);
  });

  it('reads a mirrored name as the docs say (the check can fail)', () => {
    expect(
      mirroredModule('test/unit/lambda/functions/vacancies/request/query.property.test.ts', 'test/unit'),
    ).toBe('lambda/functions/vacancies/request/query.ts');
    expect(mirroredModule('test/unit/lambda/domain/schema.test.ts', 'test/unit')).toBe(
      'lambda/domain/schema',
    );
    expect(
      mirroredModule('test/unit/lambda/functions/vacancies/no-such-module.test.ts', 'test/unit'),
    ).toBeUndefined();
  });
});

describe("the test sequencer's estimates", () => {
  it('name test files that exist (an estimate of a moved file would start it last again)', async () => {
    const sequencer = new URL('../../testkit/jest/sequencer.js', import.meta.url).href;
    const { ESTIMATES } = (await import(sequencer)) as { ESTIMATES: Record<string, number> };
    const missing = Object.keys(ESTIMATES).filter((end) => !existsSync(join(ROOT, 'test', end)));
    expect(missing).toEqual([]);
  });
});
