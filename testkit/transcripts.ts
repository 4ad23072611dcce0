/**
 * The command transcripts of the project's documents, and how to run one. A ```` ```console ```` block is a
 * transcript: lines starting with `$ ` are commands (a trailing `\` continues one on the next line), the lines after
 * a command are what it prints. In what it prints, `<name>` stands for a value seen there for the first time —
 * later, in output or in commands, `<name>` is that value — and `…` for anything (on a line of its own: any number of
 * lines). A ```` ```sh ```` block is not run; its first line says why (`NOT_RUN_REASONS`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../', import.meta.url).pathname;

/** Why a shell block of the documents is not run by the tests: its first line says one of these. */
export const NOT_RUN_REASONS = ['# needs an AWS account', '# what .ci/run runs'] as const;

/** A fenced block of a document. */
export interface Block {
  readonly file: string;
  /** The line its fence opens on. */
  readonly line: number;
  readonly language: string;
  readonly text: string;
}

/** A transcript's step: a command and what it prints. */
export interface Step {
  readonly command: string;
  readonly output: string;
}

/** The documents: every tracked Markdown file. */
export function documents(): string[] {
  return execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

/** The fenced blocks of a document. */
export function blocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line === '```');
    if (end === -1) break;
    found.push({ file, line: i + 1, language: open[1] ?? '', text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

/** The steps of a transcript. */
export function steps(transcript: string): Step[] {
  const result: { command: string; output: string[] }[] = [];
  const lines = transcript.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.startsWith('$ ')) {
      let command = line.slice(2);
      while (command.endsWith('\\') && i + 1 < lines.length) {
        i += 1;
        command = `${command.slice(0, -1)}${(lines[i] ?? '').trimStart()}`.replace(/\s+/g, ' ');
      }
      result.push({ command: command.trim(), output: [] });
    } else {
      const last = result.at(-1);
      if (!last) throw new Error(`A transcript starts with output, not with a command: ${line}`);
      last.output.push(line);
    }
  }
  return result.map(({ command, output }) => ({ command, output: output.join('\n').trimEnd() }));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether printed text matches a transcript's output, capturing its `<name>`s into `values` (names seen before must
 * have the value they had).
 */
export function matchOutput(expected: string, actual: string, values: Map<string, string>): boolean {
  const names: string[] = [];
  const pattern = expected
    .split('\n')
    .map((line) => {
      if (line.trim() === '…') return '(?:[^\\n]*\\n)*?';
      return `${line
        .trimEnd()
        .split(/(<[A-Za-z][A-Za-z0-9]*>|…)/)
        .map((part) => {
          if (part === '…') return '[^\\n]*?';
          const name = /^<([A-Za-z][A-Za-z0-9]*)>$/.exec(part)?.[1];
          if (!name) return escapeRegExp(part);
          if (values.has(name)) return escapeRegExp(values.get(name) as string);
          if (names.includes(name)) return `\\k<${name}>`;
          names.push(name);
          return `(?<${name}>[^\\s"'<>,)]+)`;
        })
        .join('')}[ \\t]*\\n`;
    })
    .join('');
  const normalised = `${actual
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd()}\n`;
  const match = new RegExp(`^${pattern}$`).exec(normalised);
  if (!match) return false;
  for (const name of names) values.set(name, match.groups?.[name] as string);
  return true;
}

/** A command with the values of its `<name>`s put in. */
export function withValues(command: string, values: ReadonlyMap<string, string>): string {
  return command.replace(/<([A-Za-z][A-Za-z0-9]*)>/g, (whole, name: string) => values.get(name) ?? whole);
}
