/**
 * The structure stays as docs/design.md#layout says: no import circle anywhere in the project (Biome's
 * `noImportCycles`, run by `npm run lint` over every file — proven here to fire on a probe pair), and every read or
 * write of a vendor's summary item in the store's two runtime modules, `lambda/store/summary-store.ts` and the reads it
 * extends, `lambda/store/summary-reader.ts` (the record and its rules
 * are `lambda/schema/summary.ts`; docs/design.md#the-summary).
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
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
      'lambda/schema/summary.ts',
      'lambda/store/summary-reader.ts',
      'lambda/store/summary-store.ts',
    ]);
  });

  it("has no folder of lambda/ that imports one that imports it back: the folders' arrows point one way", () => {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', 'lambda/*.ts'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
      .split('\n')
      // Not the lint probes test/project/layers.test.ts writes into lambda/ and removes, maybe while this reads.
      .filter((file) => file !== '' && !/-probe-/.test(file));
    /** Folder → the folders of lambda/ its files import. */
    const arrows = new Map<string, Set<string>>();
    for (const file of files) {
      const from = dirname(file);
      for (const [, specifier] of readFileSync(join(ROOT, file), 'utf8').matchAll(
        /from '(\.{1,2}\/[^']+)'/g,
      )) {
        const to = dirname(normalize(join(from, specifier as string)));
        if (to !== from && !relative('lambda', to).startsWith('..')) {
          arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
        }
      }
    }
    expect(arrows.size).toBeGreaterThan(5);
    const both = [...arrows].flatMap(([from, tos]) =>
      [...tos].filter((to) => from < to && arrows.get(to)?.has(from)).map((to) => `${from} <-> ${to}`),
    );
    expect(both).toEqual([]);
  });
});
