/**
 * docs/operating.md's table of the ops CLI's commands names every command `vacancy-admin` has (hidden pointers such as
 * `vacancies close` aside), and no command it does not have.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { adminProgram, commandPaths } from '../../../lib/ops/cli/admin-program';

const operating = readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8');
/** The first cells of the command table in "The ops CLI": each holds one or more `command …` in backticks. */
const documentedCells = (() => {
  const section = /## The ops CLI\n([\s\S]*?)\n## /.exec(operating)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split(' | ')[0] ?? '');
})();
/** Each command a cell names: the words before the first argument or option. */
const documented = documentedCells.flatMap((cell) =>
  [...cell.matchAll(/`([a-z][a-z -]*?)(?= [<[-]|`)/g)].map((match) => (match[1] ?? '').trim()),
);

describe("the ops CLI's commands, in the docs", () => {
  it('are every command the CLI has, each in the table of "The ops CLI"', () => {
    const commands = commandPaths(adminProgram());
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((command) => !documented.includes(command))).toEqual([]);
    expect(documented.filter((command) => !commands.includes(command))).toEqual([]);
  });
});
