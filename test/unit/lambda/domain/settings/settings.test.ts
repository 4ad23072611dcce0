/**
 * The one table of settings (docs/operating.md#settings): each row has what the tools and the functions need, and
 * the operator's table in docs/operating.md is that table — every setting, no other, each with its default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { FUNCTION_NAMES } from '../../../../../lambda/domain/service/limits';
import {
  DEFAULT_SETTINGS,
  FUNCTION_SETTINGS,
  SETTINGS,
  type SettingName,
  settingsOf,
} from '../../../../../lambda/domain/settings/settings';

const OPERATING = readFileSync(new URL('../../../../../docs/operating.md', import.meta.url), 'utf8');

/** The rows of the table under `## Settings`: each setting's name and the default column as written. */
function documentedSettings(): Map<string, string> {
  const section = OPERATING.slice(OPERATING.indexOf('\n## Settings\n'));
  const table = section.slice(
    section.indexOf('| setting |'),
    section.indexOf('\n\n', section.indexOf('| setting |')),
  );
  const rows = table.split('\n').slice(2);
  return new Map(
    rows.map((row) => {
      const [name = '', defaultColumn = ''] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      return [name.replaceAll('`', ''), defaultColumn];
    }),
  );
}

/** A default as the table writes it: `empty` for none, a list comma-separated, an object as its JSON. */
function documentedValue(column: string): unknown {
  if (column === 'empty') return '';
  const written = /^`([^`]*)`/.exec(column)?.[1];
  if (written === undefined) return undefined;
  if (written.startsWith('{')) return JSON.parse(written);
  if (/^\d+(,\d+)+$/.test(written)) return written.split(',').map(Number);
  if (/^\d+$/.test(written)) return Number(written);
  if (written === 'true' || written === 'false') return written === 'true';
  return written;
}

describe('the table of settings', () => {
  it('is the table docs/operating.md#settings shows: every setting, no other, each with its default', () => {
    const documented = documentedSettings();
    expect([...documented.keys()].sort()).toEqual(Object.keys(SETTINGS).sort());
    for (const [name, column] of documented) {
      expect([name, documentedValue(column)]).toEqual([name, DEFAULT_SETTINGS[name as SettingName]]);
    }
  });

  it('gives every setting with a variable to some function, and a variable to every setting a function takes', () => {
    for (const [name, setting] of Object.entries(SETTINGS)) {
      expect([name, 'variable' in setting]).toEqual([name, setting.functions.length > 0]);
    }
    const taken = new Set(FUNCTION_NAMES.flatMap((name) => settingsOf(name)));
    expect([...taken].sort()).toEqual(Object.keys(FUNCTION_SETTINGS).sort());
  });

  it('passes every default through its own check unchanged', () => {
    for (const [name, setting] of Object.entries(SETTINGS)) {
      expect([name, (setting.check as (value: unknown) => unknown)(setting.default)]).toEqual([
        name,
        setting.default,
      ]);
    }
  });
});
