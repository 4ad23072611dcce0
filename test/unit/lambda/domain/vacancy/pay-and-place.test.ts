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
    expect(includedFields(vacancy({}), [], DEFAULTS)).toEqual({});
    expect(Object.keys(includedFields(vacancy({}), ['pay', 'workplace'], DEFAULTS))).toEqual([
      'salary_currency',
      'salary_period',
      'workplace',
    ]);
    expect(includedFields(vacancy({ salary_type: 'negotiable' }), ['pay'], DEFAULTS)).toEqual({
      salary_currency: 'AZN',
      salary_period: null,
    });
    expect(includedFields(vacancy({ workplace: 'remote' }), ['workplace'], DEFAULTS)).toEqual({
      workplace: 'remote',
    });
  });
});

describe('isCurrencyCode', () => {
  it('knows ISO 4217 codes in capitals, and nothing else', () => {
    for (const code of ['AZN', 'EUR', 'USD', 'GBP', 'TRY']) expect(isCurrencyCode(code)).toBe(true);
    for (const code of ['azn', 'ABC', 'EURO', '', 944, null]) expect(isCurrencyCode(code)).toBe(false);
  });
});
