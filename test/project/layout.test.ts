/**
 * docs/design.md#layout is written from the tree, and stays so: every folder of `lambda/`, `lib/` and `examples/` is
 * named there, and every file of `lib/`'s top and of `lib/local/` (the places a loose file goes unnoticed); the test
 * tree mirrors the code as the section says — a file of `test/unit/` or `test/integration/` is named after one module
 * that exists at its path, `<module>.test.ts` or `<module>.<aspect>.test.ts` with one aspect of `ASPECTS` (one
 * spelling each), never after a folder; every other test sits in `test/e2e/<transport>/` or `test/project/`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
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
 * The aspects a test file may name after its module, `<module>.<aspect>.test.ts` — one spelling each, and what it
 * means. An aspect not here is refused: add it beside those it could be taken for, or use one of them.
 */
const ASPECTS: Readonly<Record<string, string>> = {
  property: 'random inputs (fast-check) checked against a model or an invariant',
  fuzz: 'random hostile bytes, each refused cleanly',
  'hostile-files': 'files made to break the reader: limits, links, pipes, renames',
  concurrency: 'runs at once: racing writers, syncs or dispatches',
  walks: 'walks by cursor while writers change the data',
  faults: 'injected faults: throttling, service errors, clocks off, answers held',
  'late-answers': 'answers that reach the caller after it gave up and retried',
  recovery: 'resumed after a process died holding work',
  'duplicate-entries': 'an index holding two entries of one item',
  'large-page': 'the largest page the limits allow',
  memory: 'the heap measured while a long stream is written, held to a bound drawn from what was written',
  'expiry-at-start': 'what a start does with what expired while stopped',
  settle: 'where the settle window ends what is read',
  ordering: 'the order of what is answered',
  changes: 'what stamps a change, and what does not',
  metrics: 'the metrics printed, as CloudWatch receives them',
  'attempt-log': 'the line printed for each attempt',
  openapi: 'against docs/openapi.yaml',
  embed: 'embedded in a page, read by a real parser',
  ssrf: 'where a request may not go',
};

/** Two aspects that are one word but for a plural (`property`, `properties`; `fault`, `faults`). */
function sameWord(a: string, b: string): boolean {
  const singular = (word: string) => word.replace(/ies$/, 'y').replace(/s$/, '');
  return a !== b && singular(a) === singular(b);
}

/**
 * What a test file of a mirrored tree is named after — its module, a file at the same path less the tree's prefix,
 * and its aspect — or what is wrong with its name.
 */
function mirrored(testFile: string, tree: string): { module: string; aspect?: string } | { wrong: string } {
  const stem = relative(join(ROOT, tree), join(ROOT, testFile)).replace(/\.test\.ts$/, '');
  const [name = '', aspect, ...more] = basename(stem).split('.');
  const path = join(dirname(stem), name);
  if (more.length > 0) return { wrong: 'more than one aspect' };
  if (aspect !== undefined && !(aspect in ASPECTS))
    return { wrong: `"${aspect}" is not an aspect of layout.test.ts's ASPECTS` };
  const module = [`${path}.ts`, `${path}.js`].find((file) => existsSync(join(ROOT, file)));
  if (module !== undefined) return aspect === undefined ? { module } : { module, aspect };
  return {
    wrong: existsSync(join(ROOT, path)) ? 'named after a folder: one file a module' : 'names no module',
  };
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
    expect(named('lambda/domain/answers/search', true)).toBe(true);
  });
});

describe('the test tree', () => {
  const tests = files('test', /\.test\.ts$/);
  const mirroring = tests.filter(
    (file) => file.startsWith('test/unit/') || file.startsWith('test/integration/'),
  );
  const treeOf = (file: string) => (file.startsWith('test/unit/') ? 'test/unit' : 'test/integration');

  it("mirrors the code in test/unit/ and test/integration/: <module>[.<aspect>].test.ts at its module's path", () => {
    const wrong = mirroring.flatMap((file) => {
      const found = mirrored(file, treeOf(file));
      return 'wrong' in found ? [`${file}: ${found.wrong}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('spells each aspect one way, and lists only aspects in use', () => {
    const names = Object.keys(ASPECTS);
    const twice = names.flatMap((a) =>
      names.filter((b) => a < b && sameWord(a, b)).map((b) => `${a} ~ ${b}`),
    );
    const used = new Set(
      mirroring
        .map((file) => mirrored(file, treeOf(file)))
        .flatMap((found) => ('aspect' in found ? [found.aspect] : [])),
    );
    expect({ twice, unused: names.filter((name) => !used.has(name)) }).toEqual({ twice: [], unused: [] });
  });

  it('names, in every test and helper, only paths that exist relative to it (a file moved leaves them behind)', () => {
    const broken = [...files('test'), ...files('testkit', /\.(ts|js)$/), ...files('bench')].flatMap((file) =>
      [
        ...readFileSync(join(ROOT, file), 'utf8').matchAll(
          /new URL\('(\.{1,2}\/[^']*)', import\.meta\.url\)/g,
        ),
      ]
        .map(([, path]) => path as string)
        .filter((path) => !existsSync(join(ROOT, dirname(file), path)))
        .map((path) => `${file}: ${path}`),
    );
    expect(broken).toEqual([]);
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

  it('reads a mirrored name as the docs say, and refuses the others (the check can fail)', () => {
    const unit = (file: string) => mirrored(`test/unit/${file}`, 'test/unit');
    expect(unit('lambda/domain/answers/query.property.test.ts')).toEqual({
      module: 'lambda/domain/answers/query.ts',
      aspect: 'property',
    });
    expect(unit('lambda/domain/schema/tables.test.ts')).toEqual({ module: 'lambda/domain/schema/tables.ts' });
    expect(unit('testkit/transcripts.test.ts')).toEqual({ module: 'testkit/transcripts.ts' });
    expect(unit('lambda/domain/answers/query.properties.test.ts')).toEqual({
      wrong: '"properties" is not an aspect of layout.test.ts\'s ASPECTS',
    });
    expect(unit('lambda/functions/inbox/inbox.hostile-files.fuzz.test.ts')).toEqual({
      wrong: 'more than one aspect',
    });
    expect(unit('lambda/domain/schema.test.ts')).toEqual({
      wrong: 'named after a folder: one file a module',
    });
    expect(unit('lambda/functions/vacancies/no-such-module.test.ts')).toEqual({ wrong: 'names no module' });
    expect([
      sameWord('property', 'properties'),
      sameWord('fault', 'faults'),
      sameWord('walks', 'race'),
    ]).toEqual([true, true, false]);
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
