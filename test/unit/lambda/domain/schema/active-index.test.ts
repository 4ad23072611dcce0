/** The active index's keys: the order key and day numbers (`lambda/domain/schema/active-index.ts`). */
import { describe, expect, it } from '@jest/globals';
import {
  dayNumber,
  indexedType,
  indexedTypes,
  orderKey,
  typeOfIndexed,
  workplaceOfIndexed,
} from '../../../../../lambda/domain/schema/active-index';
import { VACANCY_TYPES, WORKPLACES } from '../../../../../lambda/domain/schema/vacancy';

/** Byte-wise comparison, as DynamoDB orders binary sort keys. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1)
    if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

describe('orderKey', () => {
  it('is 12 bytes that sort newest first, then larger id first, when read in descending order', () => {
    const keys = [
      orderKey(new Date('2026-01-01T00:00:00Z'), 9),
      orderKey(new Date('2026-01-02T00:00:00Z'), 1),
      orderKey(new Date('2026-01-02T00:00:00Z'), 256),
      orderKey(new Date('2026-01-02T00:00:00Z'), 2),
      orderKey(new Date('2025-12-31T23:59:59Z'), Number.MAX_SAFE_INTEGER),
      orderKey(new Date('1970-01-01T00:00:00Z'), 3),
      orderKey(new Date('1970-01-01T00:00:01Z'), 1),
      orderKey(new Date('9999-12-31T23:59:59Z'), 1),
    ];
    const descending = [...keys].sort(compareBytes).reverse();
    expect(descending).toEqual([keys[7], keys[2], keys[3], keys[1], keys[0], keys[4], keys[6], keys[5]]);
    expect(new Set(keys.map((key) => key.length))).toEqual(new Set([12]));
  });

  it('writes the second and the id big-endian', () => {
    expect([...orderKey(new Date(258_000), 2 ** 48 + 3)]).toEqual([0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 3]);
  });
});

describe('dayNumber', () => {
  it('counts days since 1970-01-01, before it too, and keeps their order', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('1969-12-31')).toBe(-1);
    expect(dayNumber('2026-06-16')).toBe(20_620);
    expect(dayNumber('0099-01-01')).toBeLessThan(dayNumber('1900-01-01'));
  });
});

describe('indexedType', () => {
  it("is the type alone for the type's default workplace, so an item stored before workplaces reads as its default", () => {
    expect(indexedType(1, undefined)).toBe(1);
    expect(indexedType(1, 'onsite')).toBe(1);
    expect(indexedType(3, 'remote')).toBe(3);
    expect(workplaceOfIndexed(1)).toBe('onsite');
    expect(workplaceOfIndexed(3)).toBe('remote');
  });

  it('gives back the type and the workplace of every pair, and the type filter keeps every encoding of a type', () => {
    for (const type of VACANCY_TYPES) {
      for (const workplace of WORKPLACES) {
        const indexed = indexedType(type, workplace);
        expect(typeOfIndexed(indexed)).toBe(type);
        expect(workplaceOfIndexed(indexed)).toBe(workplace);
        expect(indexedTypes(type)).toContain(indexed);
      }
      for (const other of VACANCY_TYPES.filter((one) => one !== type)) {
        for (const indexed of indexedTypes(other)) expect(typeOfIndexed(indexed)).toBe(other);
      }
    }
    expect(indexedType(2, 'hybrid')).toBe(22);
    expect(indexedType(4, 'remote')).toBe(34);
  });
});
