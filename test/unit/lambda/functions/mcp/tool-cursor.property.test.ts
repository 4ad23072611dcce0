/** The tools' cursor (`lambda/functions/mcp/tool-cursor.ts`): it reads back what it was minted with, and nothing else. */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { mintToolCursor, readToolCursor } from '../../../../../lambda/functions/mcp/tool-cursor';

const link = fc.record(
  {
    page: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    cursor: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  },
  { requiredKeys: ['page'] },
);

describe('the tools’ cursor', () => {
  it('reads back the page and the core’s cursor it was minted with, for its vendor only', () => {
    fc.assert(
      fc.property(link, (minted) => {
        const token = mintToolCursor('acme', minted);
        expect(readToolCursor('acme', token)).toEqual(minted);
        expect(readToolCursor('other', token)).toBeUndefined();
      }),
    );
  });

  it('refuses any change to a token: a character replaced, added or taken away', () => {
    fc.assert(
      fc.property(link, fc.nat(), fc.constantFrom(...'AB09_-'), (minted, where, character) => {
        const token = mintToolCursor('acme', minted);
        const at = where % token.length;
        const variants = [
          `${token.slice(0, at)}${character}${token.slice(at + 1)}`,
          `${token.slice(0, at)}${token.slice(at + 1)}`,
          `${token.slice(0, at)}${character}${token.slice(at)}`,
        ].filter((variant) => variant !== token);
        for (const variant of variants) expect(readToolCursor('acme', variant)).toBeUndefined();
      }),
    );
  });

  it('refuses what it never minted: text of any kind', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const read = readToolCursor('acme', text);
        if (read !== undefined) expect(mintToolCursor('acme', read)).toBe(text);
      }),
    );
  });
});
