/** Pay and place as stated and included (`lambda/domain/vacancy/pay-and-place.ts`). */
import { describe, expect, it } from '@jest/globals';
import type { ListedVacancy } from '../../../../../lambda/domain/schema/vacancy-item';
import {
  includedFields,
  isCurrencyCode,
  payAndPlace,
} from '../../../../../lambda/domain/vacancy/pay-and-place';

const DEFAULTS = { salaryCurrency: 'AZN', salaryPeriod: 'MONTH' } as const;
const vacancy = (fields: Partial<ListedVacancy>) =>
  ({ type: 1, salary_type: 'fixed', ...fields }) as ListedVacancy;

describe('payAndPlace', () => {
  it("states the vacancy's own values, else the deployment's (period lower-case) and the type's workplace", () => {
    expect(payAndPlace(vacancy({}), DEFAULTS)).toEqual({
      currency: 'AZN',
      period: 'month',
      workplace: 'onsite',
    });
    expect(payAndPlace(vacancy({ type: 3 }), DEFAULTS).workplace).toBe('remote');
    expect(
      payAndPlace(vacancy({ salary_currency: 'EUR', salary_period: 'hour', workplace: 'hybrid' }), DEFAULTS),
    ).toEqual({ currency: 'EUR', period: 'hour', workplace: 'hybrid' });
  });
});

describe('includedFields', () => {
  it('gives what include asks for, in one order, the period null for a negotiable salary', () => {
    expect(includedFields(vacancy({}), [], DEFAULTS, 'en')).toEqual({});
    expect(
      Object.keys(
        includedFields(vacancy({ city: 'baku' }), ['pay', 'workplace', 'locations'], DEFAULTS, 'en'),
      ),
    ).toEqual(['salary_currency', 'salary_period', 'workplace', 'locations']);
    expect(includedFields(vacancy({ salary_type: 'negotiable' }), ['pay'], DEFAULTS, 'en')).toEqual({
      salary_currency: 'AZN',
      salary_period: null,
    });
    expect(includedFields(vacancy({ workplace: 'remote' }), ['workplace'], DEFAULTS, 'en')).toEqual({
      workplace: 'remote',
    });
  });

  it('gives every city for locations, the primary first, then the others in their order, labelled in the locale', () => {
    const many = vacancy({ city: 'sumgait', additional_cities: ['baku', 'ganja'] });
    expect(includedFields(many, ['locations'], DEFAULTS, 'az')).toEqual({
      locations: [
        { city: 'sumgait', label: 'Sumqayıt' },
        { city: 'baku', label: 'Bakı' },
        { city: 'ganja', label: 'Gəncə' },
      ],
    });
    expect(includedFields(many, ['locations'], DEFAULTS, 'en').locations?.map((l) => l.label)).toEqual([
      'Sumgait',
      'Baku',
      'Ganja',
    ]);
    expect(includedFields(vacancy({ city: 'quba' }), ['locations'], DEFAULTS, 'en')).toEqual({
      locations: [{ city: 'quba', label: 'Quba' }],
    });
  });
});

describe('isCurrencyCode', () => {
  it('knows ISO 4217 codes in capitals, and nothing else', () => {
    for (const code of ['AZN', 'EUR', 'USD', 'GBP', 'TRY']) expect(isCurrencyCode(code)).toBe(true);
    for (const code of ['azn', 'ABC', 'EURO', '', 944, null]) expect(isCurrencyCode(code)).toBe(false);
  });
});
