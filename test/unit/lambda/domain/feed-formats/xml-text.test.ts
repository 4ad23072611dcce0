/**
 * XML text (docs/design.md#feeds-as-xml): what each rule writes — the characters XML 1.0 cannot carry left out, CDATA
 * split at `]]>` and around a carriage return, the escapes of text and attributes — and each read back by libxml2.
 */
import { describe, expect, it } from '@jest/globals';
import {
  cdataSections,
  escapedAttribute,
  escapedText,
  XML_DECLARATION,
  xmlCharacters,
} from '../../../../../lambda/domain/feed-formats/xml-text';
import { canonicalForm, parseXml } from '../../../../../testkit/xml';

describe('xmlCharacters', () => {
  it('leaves out the C0 controls but tab, LF and CR, and U+FFFE, U+FFFF', () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('');
    expect(xmlCharacters(`a${controls}b\uFFFE\uFFFFc`)).toBe('a\t\n\rbc');
  });

  it('leaves out a surrogate that is not half of a pair, and keeps a pair', () => {
    expect(xmlCharacters('\uD83D\uDE00')).toBe('😀');
    expect(xmlCharacters('a\uD83Db')).toBe('ab');
    expect(xmlCharacters('a\uDE00b')).toBe('ab');
    expect(xmlCharacters('\uDE00\uD83D')).toBe('');
    // Leaving out the control between two lone halves does not pair them.
    expect(xmlCharacters('\uD83D\u0001\uDE00')).toBe('');
  });

  it('keeps what XML 1.0 allows: C1 controls, right-to-left marks, U+FFFD, the last plane', () => {
    const allowed = '\u007F\u0085\u009F\u200F\u202E\u2028\uFFFD\u{10FFFF}ə';
    expect(xmlCharacters(allowed)).toBe(allowed);
  });
});

describe('cdataSections', () => {
  it('is one section for a plain value, an empty one for an empty value', () => {
    expect(cdataSections('Bakı <b>&amp;</b>')).toBe('<![CDATA[Bakı <b>&amp;</b>]]>');
    expect(cdataSections('')).toBe('<![CDATA[]]>');
  });

  it('splits a `]]>` across two sections, so that it never ends one', () => {
    expect(cdataSections('a]]>b')).toBe('<![CDATA[a]]]]><![CDATA[>b]]>');
    expect(cdataSections(']]>]]>')).toBe('<![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]>');
  });

  it('writes a carriage return as a reference between two sections', () => {
    expect(cdataSections('a\r\nb')).toBe('<![CDATA[a]]>&#13;<![CDATA[\nb]]>');
  });

  it('leaves out what XML cannot carry before splitting, so that no `]]>` is made by it', () => {
    expect(cdataSections(']]\u0000>')).toBe('<![CDATA[]]]]><![CDATA[>]]>');
  });

  it('is read back by libxml2 as the value', async () => {
    const values = ['a]]>b', ']]>', ']]]>>', 'x\r\ny\rz', '<![CDATA[', ']]', '&amp;', '\u202Eabc'];
    const document = `${XML_DECLARATION}\n<v>${values.map((value) => `<i>${cdataSections(value)}</i>`).join('')}</v>`;
    const canonical = await canonicalForm(document);
    expect((parseXml(canonical, ['i']).v as { i: string[] }).i).toEqual(values);
    expect((parseXml(document, ['i']).v as { i: string[] }).i).toEqual(values);
  });
});

describe('escapedText and escapedAttribute', () => {
  it('write the five special characters as entities, and CR as a reference', () => {
    expect(escapedText(`a&b<c>d"e'f\rg\th\ni`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f&#13;g\th\ni');
  });

  it('write tab and LF as references in an attribute, where they would become spaces', () => {
    expect(escapedAttribute(`a&<>"'\t\n\r`)).toBe('a&amp;&lt;&gt;&quot;&apos;&#9;&#10;&#13;');
  });

  it('leave out what XML cannot carry', () => {
    expect(escapedText('a\u0000\uFFFE\uD800b')).toBe('ab');
    expect(escapedAttribute('a\u0008\uDFFFb')).toBe('ab');
  });

  it('are read back by libxml2 as the value', async () => {
    const value = `https://example.az/?a=1&b=<2>&c="3"&d='4'\r\n\t]]>`;
    const document = `<v a="${escapedAttribute(value)}" b='${escapedAttribute(value)}'>${escapedText(value)}</v>`;
    const read = parseXml(await canonicalForm(document)).v as Record<string, string>;
    expect(read).toEqual({ '#text': value, '@_a': value, '@_b': value });
  });
});
