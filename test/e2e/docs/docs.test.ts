/**
 * The repository stands on its own: every link of its documents resolves inside it (files and headings), every
 * `docs/…#…` a code comment cites exists, nothing points outside the repository or cites a document it does not have,
 * and the dictionary table of docs/api.md is the code's dictionary.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { DICTIONARY } from '../../../lambda/domain/vacancy/dictionary';

const ROOT = new URL('../../../', import.meta.url).pathname;
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
const documents = tracked.filter((file) => file.endsWith('.md'));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file: string): Set<string> {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')));
}

/** Whether a link target inside the repository resolves: the file, and the heading when it names one. */
function resolves(from: string, target: string): boolean {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? from : relative(ROOT, join(ROOT, dirname(from), path));
  if (!existsSync(join(ROOT, file))) return false;
  return anchor === undefined || !file.endsWith('.md') || anchors(file).has(anchor);
}

describe('the documents', () => {
  it('link only to what exists in the repository (files and headings)', () => {
    const broken: string[] = [];
    for (const file of documents) {
      const text = read(file).replace(/```[\s\S]*?```/g, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target)) continue;
        if (!resolves(file, target)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(documents).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md', 'docs/design.md', 'docs/operating.md']),
    );
  });

  it('are cited by the code only where they have the heading cited', () => {
    const broken: string[] = [];
    for (const file of tracked.filter((name) => /\.(ts|js)$/.test(name))) {
      for (const [, cited = '', anchor = ''] of read(file).matchAll(/\b(docs\/[a-z-]+\.md)#([a-z0-9-]+)/g)) {
        if (!resolves('README.md', `${cited}#${anchor}`)) broken.push(`${file} → ${cited}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("keep the changelog by version, newest first — package.json's — each in Keep a Changelog's sections", () => {
    const changelog = read('docs/changelog.md');
    const versions = [...changelog.matchAll(/^## \[(\d+)\.(\d+)\.(\d+)\] — (\d{4}-\d{2}-\d{2})$/gm)];
    expect(versions.length).toBeGreaterThan(0);
    // Every second-level heading is a version, and every version has its sections.
    expect(changelog.match(/^## /gm)?.length).toBe(versions.length);
    const { version } = JSON.parse(read('package.json')) as { version: string };
    expect(versions[0]?.slice(1, 4).join('.')).toBe(version);
    // Newest first: each version's number, as one comparable number, above the next's.
    const numbers = versions.map(
      ([, major, minor, patch]) => Number(major) * 1e6 + Number(minor) * 1e3 + Number(patch),
    );
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const section of changelog.split(/^## /m).slice(1)) {
      const kinds = [...section.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
      expect(kinds.length).toBeGreaterThan(0);
      for (const kind of kinds)
        expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(kind);
    }
  });

  it('point nowhere outside the repository', () => {
    // Spelled in parts so that this file, too, passes `grep -rn "\.\./shared" $(git ls-files)`.
    const outsideFolder = ['..', 'shared'].join('/');
    const outside = tracked.filter(
      (file) => existsSync(join(ROOT, file)) && read(file).includes(outsideFolder),
    );
    expect(outside).toEqual([]);
  });

  it('cite no document the repository does not have: a rule is stated, or linked in docs/', () => {
    // Spelled in parts, as above: the brief's numbered sections are not the repository's.
    const brief = new RegExp(`${['CONT', 'RACT'].join('')}\\s*§`);
    const citing = tracked.flatMap((file) =>
      existsSync(join(ROOT, file))
        ? read(file)
            .split('\n')
            .flatMap((line, i) => (brief.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []))
        : [],
    );
    expect(citing).toEqual([]);
  });

  it('link every example file, and give valid IAM policies', () => {
    const examples = tracked.filter((file) => file.startsWith('docs/examples/'));
    expect(examples.length).toBeGreaterThan(0);
    const linked = documents.map(read).join('\n');
    for (const example of examples)
      expect([example, linked.includes(example.replace('docs/', ''))]).toEqual([example, true]);
    for (const policy of examples.filter((file) => file.endsWith('-policy.json'))) {
      const document = JSON.parse(read(policy)) as {
        Version: string;
        Statement: { Effect: string; Action: unknown }[];
      };
      expect(document.Version).toBe('2012-10-17');
      for (const statement of document.Statement) expect(statement.Effect).toBe('Allow');
    }
  });

  it('show example files as they are, where a code block names its file on its first line', () => {
    const shown = documents.flatMap((file) =>
      [...read(file).matchAll(/^```ts\n\/\/ (examples\/\S+)[^\n]*\n[\s\S]*?^```$/gm)].map(
        ([block, path = '']) => [path, block.slice('```ts\n'.length, -'```'.length)],
      ),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const [path, code] of shown) expect([path, code]).toEqual([path, read(path as string)]);
  });

  it("show the code's dictionary in docs/api.md", () => {
    const rows = [
      ...read('docs/api.md').matchAll(
        /^\| (type|salary_type|category|city|workplace) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm,
      ),
    ].map(([, kind, code, az, en]) => [kind, code?.trim(), az?.trim(), en?.trim()]);
    const expected = Object.entries(DICTIONARY).flatMap(([kind, codes]) =>
      Object.entries(codes as Record<string, { az: string; en: string }>).map(([code, labels]) => [
        kind,
        code,
        labels.az,
        labels.en,
      ]),
    );
    expect(rows.sort()).toEqual(expected.sort());
  });
});
