/** The vacancy's fields (`lambda/domain/schema/vacancy.ts`). */
import { describe, expect, it } from '@jest/globals';
import { RECORD_FIELDS, VACANCY_FIELDS } from '../../../../../lambda/domain/schema/vacancy';
import { SPEC_VACANCY_FIELDS } from '../../../../../testkit/spec';

describe('the vacancy schema', () => {
  it('has the 15 fields of the vacancy object in the specification order', () => {
    expect(VACANCY_FIELDS).toEqual(SPEC_VACANCY_FIELDS);
    expect(new Set(RECORD_FIELDS).size).toBe(23);
  });
});
