import { describe, expect, it } from '@jest/globals';
import { negotiateLocale } from '../../../../../lambda/domain/vacancy/locale';

describe('negotiateLocale', () => {
  it('lets the lang parameter override Accept-Language', () => {
    expect(negotiateLocale('az', 'en', 'en')).toBe('az');
    expect(negotiateLocale('en', 'az;q=1', 'az')).toBe('en');
  });

  it('falls back to the default locale without lang or Accept-Language', () => {
    expect(negotiateLocale(undefined, undefined, 'az')).toBe('az');
    expect(negotiateLocale(undefined, '', 'en')).toBe('en');
  });

  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['en-US', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['az-Latn-AZ', 'az'],
    ['fr, en;q=0.5', 'en'],
    ['en;q=0.4, az;q=0.8', 'az'],
    ['az;q=0.8, en;q=0.8', 'az'],
    ['en;q=0.8, az;q=0.8', 'en'],
    ['en;q=0', 'az'],
    ['en;q=0, *', 'az'],
    ['*', 'az'],
    // `*` stands for the languages the header does not name: here only en, which it then prefers.
    ['*, az;q=0', 'en'],
    ['az;q=0, *;q=0.1', 'en'],
    ['*;q=0, en', 'en'],
    ['*;q=0', 'az'],
    // A range naming the language exactly outranks a more specific one.
    ['en-US;q=0, en', 'en'],
    ['en, en-US;q=0', 'en'],
    ['en-US;q=0', 'az'],
    ['en-US;q=0, en-GB;q=0.5, az;q=0.4', 'en'],
    ['en-US, en;q=0', 'az'],
    ['az-AZ;q=0.3, en;q=0.2', 'az'],
    ['*;q=0.5, en;q=0.4', 'az'],
    ['*;q=0.3, en;q=0.4', 'en'],
    ['fr, de', 'az'],
    ['en;q=2', 'az'],
    ['en;q=abc, az;q=0.1', 'az'],
    ['!!, en', 'en'],
    [' en ; q=0.7 ', 'en'],
  ])('Accept-Language %p with default az gives %p', (header, expected) => {
    expect(negotiateLocale(undefined, header, 'az')).toBe(expected);
  });

  it('maps * to the configured default, whichever it is', () => {
    expect(negotiateLocale(undefined, '*', 'en')).toBe('en');
    expect(negotiateLocale(undefined, 'az;q=0.2, *;q=0.9', 'en')).toBe('en');
  });
});
