/**
 * The Bearer pattern means the same to API Gateway's regex engine (Java's, for the authorizer's
 * `validationRegex`) as to JavaScript's (the authorizer, the local server): checked on made-up headers against a
 * real Java when one is installed (the project's machines have one; without, the comparison is skipped and says
 * so), and on fixed cases always.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { BEARER_HEADER_PATTERN, bearerToken } from '../../../../../lambda/functions/authorizer/bearer';

const JAVA_SOURCE = new URL('../../../../fixtures/BearerPattern.java', import.meta.url).pathname;
const hasJava = spawnSync('java', ['-version']).status === 0;

/** What Java's `Pattern.matcher(header).matches()` makes of each header: the token, or undefined. */
function javaTokens(headers: readonly string[]): (string | undefined)[] {
  const input = headers.map((header) => Buffer.from(header, 'utf8').toString('base64')).join('\n');
  const run = spawnSync('java', [JAVA_SOURCE, BEARER_HEADER_PATTERN], {
    input: `${input}\n`,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`java failed: ${run.stderr}`);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) =>
      line === 'none' ? undefined : Buffer.from(line.slice('match '.length), 'base64').toString('utf8'),
    );
}

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BeArEr   abc  ', 'abc'],
    ['\tBearer abc', 'abc'],
    ['Bearer\tabc\t', 'abc'],
  ])('reads %p', (header, token) => expect(bearerToken(header)).toBe(token));

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Basic abc',
    'Bearer a b',
    'Bearerabc',
    'Token abc',
    // Unicode spaces are not blanks: API Gateway (Java, ASCII `\s` at most) would refuse these.
    'Bearer\u00A0abc',
    '\u2003Bearer abc',
    'Bearer\u2028abc',
    'Bearer\u000Babc',
  ])('rejects %p', (header) => expect(bearerToken(header)).toBeUndefined());

  (hasJava ? it : it.skip)('agrees with Java’s regex engine on every header fast-check makes up', () => {
    const blank = fc.constantFrom(
      ' ',
      '\t',
      ' ',
      '\t',
      '\u000B',
      '\f',
      '\u00A0',
      '\u2003',
      '\u2028',
      '\u0085',
    );
    const tokenCharacter = fc.constantFrom('k', '_', '-', 'ə', '🙂', '=', '"', 'B', '\u00A0', '\u3000', ' ');
    const blanks = (maxLength: number) => fc.string({ unit: blank, maxLength });
    const headers = fc.sample(
      fc.oneof(
        fc
          .tuple(
            blanks(2),
            fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr', 'Bear', 'Basic'),
            fc.string({ unit: blank, minLength: 1, maxLength: 3 }),
            fc.string({ unit: tokenCharacter, maxLength: 6 }),
            blanks(2),
          )
          .map((parts) => parts.join('')),
        fc.string({ unit: fc.oneof(blank, tokenCharacter), maxLength: 12 }),
      ),
      { numRuns: 3_000, seed: 42 },
    );
    const java = javaTokens(headers);
    const disagreements = headers.filter((header, i) => bearerToken(header) !== java[i]);
    expect(disagreements).toEqual([]);
    // The sample really exercised both outcomes.
    expect(java.filter(Boolean).length).toBeGreaterThan(100);
    expect(java.filter((token) => token === undefined).length).toBeGreaterThan(300);
  });
});
