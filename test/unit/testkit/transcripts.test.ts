/** How a documented transcript is read and matched (`testkit/transcripts.ts`). */
import { describe, expect, it } from '@jest/globals';
import { matchOutput, steps, withValues } from '../../../testkit/transcripts';

describe('transcripts', () => {
  it('read commands, continued lines and their output', () => {
    expect(steps('$ export A=1\n$ echo one \\\n    two\none two\n\n$ true')).toEqual([
      { command: 'export A=1', output: '' },
      { command: 'echo one two', output: 'one two' },
      { command: 'true', output: '' },
    ]);
    expect(() => steps('output first')).toThrow(/starts with output/);
  });

  it('match output exactly, line by line, trailing blanks aside', () => {
    const values = new Map<string, string>();
    expect(matchOutput('a\nb', 'a  \nb\n', values)).toBe(true);
    expect(matchOutput('a\nb', 'a\nb\nc', values)).toBe(false);
    expect(matchOutput('a\nb', 'a\nB', values)).toBe(false);
    expect(matchOutput('a.c', 'abc', values)).toBe(false);
  });

  it('let … stand for anything on a line, or for any lines on a line of its own', () => {
    const values = new Map<string, string>();
    expect(matchOutput('{"id":1,…}', '{"id":1,"title":"x"}', values)).toBe(true);
    expect(matchOutput('{"id":1,…}', '{"id":2,"title":"x"}', values)).toBe(false);
    expect(
      matchOutput('HTTP/1.1 401\n…\n\nbody', 'HTTP/1.1 401\nDate: x\nConnection: close\n\nbody', values),
    ).toBe(true);
    expect(matchOutput('first\n…', 'first', values)).toBe(true);
  });

  it('capture a <name> once, hold it to the same value after, and put it into commands', () => {
    const values = new Map<string, string>();
    expect(matchOutput('key <keyId> issued\n<keyId> live', 'key key_1 issued\nkey_1 live', values)).toBe(
      true,
    );
    expect(values.get('keyId')).toBe('key_1');
    expect(matchOutput('<keyId> revoked', 'key_2 revoked', values)).toBe(false);
    expect(matchOutput('a <x> b <x>', 'a 1 b 2', new Map())).toBe(false);
    expect(withValues('key revoke <keyId> <other>', values)).toBe('key revoke key_1 <other>');
  });
});
