/**
 * The binary sort keys' numbers (`lambda/domain/schema/big-endian.ts`): what is written reads back, byte order is number
 * order, and what a width cannot hold is refused — a negative number once became a key after every key.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readBigEndian, writeBigEndian } from '../../../../../lambda/domain/schema/big-endian';

const encode = (width: number, value: number) => {
  const bytes = new Uint8Array(width);
  writeBigEndian(bytes, 0, width, value);
  return bytes;
};

describe('big-endian numbers', () => {
  it('read back what was written, in the same order byte by byte', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.nat(), fc.nat(), (width, a, b) => {
        const limit = Math.min(2 ** (8 * width), Number.MAX_SAFE_INTEGER + 1);
        const [x, y] = [a % limit, b % limit];
        expect(readBigEndian(encode(width, x), 0, width)).toBe(x);
        expect(Math.sign(Buffer.compare(encode(width, x), encode(width, y)))).toBe(Math.sign(x - y));
      }),
    );
  });

  it.each([
    ['a negative number', 6, -1_000],
    ['a fraction', 6, 1.5],
    ['a number the width cannot hold', 2, 65_536],
    ['an unsafe integer', 7, 2 ** 53],
    ['not a number', 6, Number.NaN],
  ])('refuses %s', (_what, width, value) => {
    expect(() => encode(width, value)).toThrow(RangeError);
  });

  it('holds the largest number of a width', () => {
    expect(readBigEndian(encode(2, 65_535), 0, 2)).toBe(65_535);
    expect(readBigEndian(encode(7, Number.MAX_SAFE_INTEGER), 0, 7)).toBe(Number.MAX_SAFE_INTEGER);
  });
});
