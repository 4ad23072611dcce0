/**
 * The URL rule (lambda/domain/schema/web-url.ts): whatever the string, a URL is refused in one line naming its field, or
 * stored in a form that is its own normal form — of the kind's schemes, without credentials, within the length limit,
 * and with nothing in it that HTML or a JSON-LD reader treats specially (`<`, `>`, `"`, a blank).
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  MAX_URL_CHARACTERS,
  normalizeUrl,
  URL_KINDS,
  type UrlKind,
} from '../../../../../lambda/domain/schema/web-url';

const PARTS = [
  'https://',
  'http://',
  'HTTPS://',
  'user:pw@',
  '@',
  ':443',
  ':80',
  '/',
  '../',
  '?',
  '#',
  '<',
  '>',
  '"',
];
const candidate = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .array(fc.oneof(fc.constantFrom(...PARTS), fc.string({ unit: 'grapheme', maxLength: 6 })), {
      maxLength: 10,
    })
    .map((parts) => parts.join('')),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

describe('normalizeUrl', () => {
  it('refuses in one line naming the field, or gives a normal form within the rule', () => {
    let accepted = 0;
    fc.assert(
      fc.property(candidate, fc.constantFrom(...(Object.keys(URL_KINDS) as UrlKind[])), (value, kind) => {
        const checked = normalizeUrl('url', value, kind);
        if (!checked.ok) {
          expect(checked.reason).toMatch(/^url must [^\n]+$/);
          return;
        }
        accepted += 1;
        const url = new URL(checked.url);
        expect(URL_KINDS[kind].protocols).toContain(url.protocol);
        expect([url.username, url.password]).toEqual(['', '']);
        expect(checked.url.length).toBeLessThanOrEqual(MAX_URL_CHARACTERS);
        expect(checked.url).not.toMatch(/[<>"\s]/);
        expect(normalizeUrl('url', checked.url, kind)).toEqual(checked);
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
