import { describe, expect, it } from '@jest/globals';
import {
  DICTIONARY,
  isDictionaryCode,
  localize,
  pickLabel,
} from '../../../../../lambda/domain/vacancy/dictionary';

describe('dictionary', () => {
  it('translates every kind of coded field in both locales', () => {
    expect(localize('type', 4, 'az')).toBe('Təcrübə proqramı');
    expect(localize('type', 4, 'en')).toBe('Internship');
    expect(localize('salary_type', 'range', 'az')).toBe('Aralıq (min-max)');
    expect(localize('category', 'customer-service', 'en')).toBe('Customer Service');
    expect(localize('city', 'shaki', 'az')).toBe('Şəki');
  });

  it('holds a label in both locales for every code', () => {
    for (const codes of Object.values(DICTIONARY)) {
      for (const labels of Object.values(codes)) {
        expect(labels.az).not.toBe('');
        expect(labels.en).not.toBe('');
      }
    }
  });

  it('falls back to the code itself for an unknown code, and never to inherited properties', () => {
    expect(localize('city', 'atlantis', 'en')).toBe('atlantis');
    expect(localize('category', 'toString', 'az')).toBe('toString');
    expect(isDictionaryCode('category', 'constructor')).toBe(false);
    expect(isDictionaryCode('city', 'baku')).toBe(true);
  });

  it('falls back to the other locale when a label is missing, then to the code', () => {
    expect(pickLabel({ az: 'Bakı' }, 'en', 'baku')).toBe('Bakı');
    expect(pickLabel({ en: 'Baku', az: '' }, 'az', 'baku')).toBe('Baku');
    expect(pickLabel({}, 'az', 'baku')).toBe('baku');
    expect(pickLabel(undefined, 'en', 'baku')).toBe('baku');
  });
});
