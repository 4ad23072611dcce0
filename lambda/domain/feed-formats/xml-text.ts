/**
 * XML text as the service writes it for others to parse — the feeds (docs/design.md#feeds-as-xml) — and the one home of its
 * rules: which characters XML 1.0 can carry at all, a value as CDATA sections, a value escaped where CDATA is not
 * used (an element's text, an attribute). Every value goes through one of these; nothing else writes a value into
 * XML. No XML library: a feed is written as text, streamed, with only what these few rules need.
 *
 * - **Characters XML 1.0 does not allow** (its `Char` production) are left out of every value: the C0 controls
 *   other than tab, line feed and carriage return, U+FFFE, U+FFFF, and a surrogate that is not half of a pair. No
 *   parser would read a document holding one (a character reference to one is not allowed either), so a value
 *   parses back as what was given less these characters. Everything else passes, right-to-left marks and the C1
 *   controls included (XML 1.0 allows them).
 * - **CDATA**: a value is one or more CDATA sections. A `]]>` in it would end a section, so it is split across two
 *   (`]]` ends one, `>` opens the next). A carriage return is the one allowed character a section cannot carry as
 *   itself — a parser reads a raw CR (or CR LF) in a document as one line feed, CDATA or not — so it is written as
 *   `&#13;` between two sections, and the value parses back with it.
 * - **Escaped text and attributes**: `&`, `<`, `>`, `"` and `'` as the five predefined entities (the sitemaps
 *   protocol asks for all five in a URL), a carriage return as `&#13;`; in an attribute, tab and line feed too (an
 *   attribute's value is normalized, each to a space, unless written as references).
 */

/**
 * What XML 1.0 does not allow, in UTF-16 code units: the C0 controls but tab, LF and CR; U+FFFE and U+FFFF; a high
 * surrogate not followed by a low one, a low one not preceded by a high one. One pass, so that leaving one out never
 * joins two others into something new (a lone high and a lone low surrogate around a control stay two lone ones).
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the control characters to leave out.
  /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The XML declaration every document the service writes opens with: XML 1.0, UTF-8 (docs/design.md#feeds-as-xml). */
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** A value less the characters XML 1.0 does not allow (see the module's paragraph). */
export function xmlCharacters(value: string): string {
  return value.replace(NOT_XML, '');
}

/**
 * A value as CDATA sections: `<![CDATA[…]]>`, split where the value holds `]]>` and around each carriage return
 * (written `&#13;`), the characters XML does not allow left out. An empty value is one empty section.
 */
export function cdataSections(value: string): string {
  const sections = xmlCharacters(value)
    .replaceAll(']]>', ']]]]><![CDATA[>')
    .replaceAll('\r', ']]>&#13;<![CDATA[');
  return `<![CDATA[${sections}]]>`;
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...TEXT_ESCAPES,
  '\t': '&#9;',
  '\n': '&#10;',
};

/** A value as an element's text: the five special characters as entities, CR as `&#13;`, what XML forbids left out. */
export function escapedText(value: string): string {
  return xmlCharacters(value).replace(/[&<>"'\r]/g, (character) => TEXT_ESCAPES[character] as string);
}

/** A value as an attribute's, between double or single quotes: `escapedText`'s escapes, and tab and LF as references. */
export function escapedAttribute(value: string): string {
  return xmlCharacters(value).replace(
    /[&<>"'\t\n\r]/g,
    (character) => ATTRIBUTE_ESCAPES[character] as string,
  );
}
