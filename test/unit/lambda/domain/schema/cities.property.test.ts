/**
 * A vacancy's cities in its item's `city` (`lambda/domain/schema/cities.ts`): random primaries and additional cities
 * round-trip exactly, primary first, in the record's order; a code alone — every item stored before additional
 * cities existed — reads as a primary with none, and a vacancy without additional cities is stored as before.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CITY_SEPARATOR, citiesOfStored, storedCities } from '../../../../../lambda/domain/schema/cities';
import { MAX_ADDITIONAL_CITIES } from '../../../../../lambda/domain/schema/vacancy';
import { DICTIONARY } from '../../../../../lambda/domain/vacancy/dictionary';

const CITIES = Object.keys(DICTIONARY.city);

/** A code as the dictionary might one day hold one: lower-case letters, digits and hyphens, never the separator. */
const code = fc.oneof(fc.constantFrom(...CITIES), fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/));

describe("a vacancy's cities in its item", () => {
  it('no city code of the dictionary contains the separator, and each is lower-case letters', () => {
    for (const city of CITIES) {
      expect(city).toMatch(/^[a-z]+$/);
      expect(city.includes(CITY_SEPARATOR)).toBe(false);
    }
  });

  it('round-trips a primary and its additional cities exactly, primary first, in order', () => {
    fc.assert(
      fc.property(code, fc.uniqueArray(code, { maxLength: MAX_ADDITIONAL_CITIES }), (city, additional) => {
        const stored = storedCities(city, additional);
        expect(citiesOfStored(stored)).toEqual([city, ...additional]);
      }),
      { numRuns: 500 },
    );
  });

  it('stores a vacancy without additional cities as before: its code alone, which reads as a primary alone', () => {
    fc.assert(
      fc.property(code, (city) => {
        expect(storedCities(city)).toBe(city);
        expect(storedCities(city, [])).toBe(city);
        expect(citiesOfStored(city)).toEqual([city]);
      }),
    );
  });

  it('tells stored values apart: two different lists of cities are never stored alike', () => {
    const cities = fc.tuple(code, fc.uniqueArray(code, { maxLength: 4 }));
    fc.assert(
      fc.property(cities, cities, ([a, extraA], [b, extraB]) => {
        fc.pre(JSON.stringify([a, ...extraA]) !== JSON.stringify([b, ...extraB]));
        expect(storedCities(a, extraA)).not.toBe(storedCities(b, extraB));
      }),
    );
  });
});
