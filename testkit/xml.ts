/**
 * XML read back by real parsers, for the feeds' tests: libxml2 itself (compiled to WebAssembly, `xmllint-wasm`, run in
 * a worker thread) says whether a document is well-formed and gives its canonical form (W3C C14N: every value as libxml2 read it, CDATA and references resolved); `fast-xml-parser` reads
 * values out of a document — ours as written, or libxml2's canonical form of it. And what the tests write into
 * the feeds: hostile text, and the model of what XML 1.0 can carry of it.
 */
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { memoryPages, validateXML } from 'xmllint-wasm';

/** Room for documents of tens of megabytes: libxml2's tree of one is several times its size. */
const MEMORY = { initialMemoryPages: 256, maxMemoryPages: memoryPages.GiB };

/** A document as libxml2 reads it, in its canonical form (C14N); throws with libxml2's words when it is not XML. */
export async function canonicalForm(text: string): Promise<string> {
  const result = await validateXML({
    xml: [{ fileName: 'feed.xml', contents: text }],
    normalization: 'c14n',
    ...MEMORY,
  });
  if (!result.valid) throw new Error(`libxml2 cannot read the document: ${result.rawOutput}`);
  return result.normalized;
}

/**
 * `fast-xml-parser` as the feeds' tests read a document: values as strings, exactly (no trimming, no numbers), CDATA
 * sections joined with the text around them, the predefined entities and character references resolved, attributes
 * kept (`@_name`); `arrays` are the elements that may repeat, always read as arrays.
 */
export function parseXml(text: string, arrays: readonly string[] = []): Record<string, unknown> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    ignoreDeclaration: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    // Numeric character references (`&#13;`): the parser resolves them with its HTML entities only. None of the
    // feeds' documents has a named entity other than XML's five, so no HTML one can be taken for a value.
    htmlEntities: true,
    isArray: (name) => arrays.includes(name),
  });
  return parser.parse(text, true) as Record<string, unknown>;
}

/**
 * A value less what XML 1.0's `Char` production does not allow — written from the production itself, code point by
 * code point (a lone surrogate is one "code point" of its own to `for…of`), as the model the writer is held to.
 */
export function xmlCarries(value: string): string {
  let kept = '';
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (allowed) kept += character;
  }
  return kept;
}

/** What breaks XML writers: markup, CDATA's end, line ends, controls, non-characters, lone surrogates, bidi marks. */
const HOSTILE_PIECES = [
  ']]>',
  ']]',
  ']',
  '>',
  '<',
  '&',
  '&amp;',
  '&#0;',
  '<![CDATA[',
  '</job>',
  '"',
  "'",
  '\r',
  '\r\n',
  '\n',
  '\t',
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000B',
  '\u001F',
  '\u007F',
  '\u0085',
  '\uFFFE',
  '\uFFFF',
  '\uFFFD',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\u200F',
  '\u202E',
  '\u2028',
  'ə',
  'Bakı',
  '😀',
  ' ',
];

const hostilePiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_PIECES) },
  // Any UTF-16 code unit: lone surrogates and every control among them.
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);

/**
 * Hostile text: mostly short runs of `HOSTILE_PIECES` and random code units, sometimes one of them repeated to
 * 8,000 code units (the longest text a vacancy holds) — cut anywhere, half a surrogate pair included.
 */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.array(hostilePiece, { maxLength: 24 }).map((pieces) => pieces.join('')) },
  {
    weight: 1,
    arbitrary: fc
      .array(hostilePiece, { minLength: 1, maxLength: 12 })
      .map((pieces) => pieces.join('') || ']]>')
      .map((run) => run.repeat(Math.ceil(8_000 / run.length)).slice(0, 8_000)),
  },
);

