/**
 * XML text over hostile values fast-check makes up (`]]>`, markup, controls, U+FFFE, lone surrogates, bidi marks,
 * 8,000-character runs): a document of them as CDATA, as text and as attributes is well-formed to libxml2, and every
 * value reads back — through libxml2's canonical form and through fast-xml-parser — as the value less what XML 1.0's
 * `Char` production does not allow, the model written from the production itself.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  cdataSections,
  escapedAttribute,
  escapedText,
  XML_DECLARATION,
  xmlCharacters,
} from '../../../../../lambda/domain/feed-formats/xml-text';
import { canonicalForm, hostileText, parseXml, xmlCarries } from '../../../../../testkit/xml';

/** A document holding each value three ways: CDATA sections, escaped text, an attribute. */
function document(values: readonly string[]): string {
  const items = values.map(
    (value) =>
      `<i a="${escapedAttribute(value)}"><c>${cdataSections(value)}</c><t>${escapedText(value)}</t></i>`,
  );
  return `${XML_DECLARATION}\n<v>${items.join('')}</v>`;
}

/** The values of a document read by fast-xml-parser: each item's CDATA, text and attribute. */
function readBack(text: string): { c: string; t: string; a: string }[] {
  const { i: items } = parseXml(text, ['i']).v as { i: Record<string, string>[] };
  return items.map((item) => ({
    c: String(item.c ?? ''),
    t: String(item.t ?? ''),
    a: String(item['@_a'] ?? ''),
  }));
}

describe('XML text over hostile values', () => {
  it('leaves out exactly what XML 1.0 does not allow', () => {
    fc.assert(
      fc.property(hostileText, (value) => {
        expect(xmlCharacters(value)).toBe(xmlCarries(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('never writes `]]>` inside a section, nor a character XML does not allow', () => {
    fc.assert(
      fc.property(hostileText, (value) => {
        const written = cdataSections(value);
        // Every `]]>` ends a section; whatever follows it opens the next one or is a reference.
        const ends = written.split(']]>').slice(1, -1);
        for (const after of ends) expect(after).toMatch(/^(?:<!\[CDATA\[|&#13;<!\[CDATA\[)/);
        expect(xmlCarries(written)).toBe(written);
        expect(written.isWellFormed()).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back as the value less what XML cannot carry, through libxml2 and fast-xml-parser', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileText, { minLength: 1, maxLength: 6 }), async (values) => {
        const text = document(values);
        const expected = values.map((value) => {
          const carried = xmlCarries(value);
          return { c: carried, t: carried, a: carried };
        });
        expect(readBack(await canonicalForm(text))).toEqual(expected);
        expect(readBack(text)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
