/**
 * XML read back by real parsers, for the feeds' tests: libxml2 itself (its `xmllint`, compiled to WebAssembly by
 * `xmllint-wasm`, run in a worker thread: `testkit/libxml2-worker.js`) says whether a document is well-formed, whether
 * it is valid against an XSD, and gives its canonical form (W3C C14N: every value as libxml2 read it, CDATA and
 * references resolved); `fast-xml-parser` reads values out of a document — ours as written, or libxml2's canonical
 * form of it. And what the tests write into the feeds: hostile text, and the model of what XML 1.0 can carry of it;
 * and a sitemap's outputs played into files.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterAll } from '@jest/globals';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import type { SitemapOutput } from '../lambda/domain/feed-formats/sitemap';

/** The sitemaps protocol's XSDs (`test/fixtures/sitemaps/`). */
export const SITEMAP_XSD = {
  urlset: {
    fileName: 'sitemap.xsd',
    contents: readFileSync(new URL('../test/fixtures/sitemaps/sitemap.xsd', import.meta.url), 'utf8'),
  },
  index: {
    fileName: 'siteindex.xsd',
    contents: readFileSync(new URL('../test/fixtures/sitemaps/siteindex.xsd', import.meta.url), 'utf8'),
  },
} as const;

/** A file `xmllint` reads: its name (as its messages name it) and its text. */
interface XmlFile {
  readonly fileName: string;
  readonly contents: string;
}

/** What one run of `xmllint` gave. */
interface XmllintRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Room for documents of tens of megabytes, in WebAssembly pages of 64 KiB: 16 MiB to start, up to 1 GiB (libxml2's
 * tree of a document is several times its size).
 */
const MEMORY = { initialMemory: 256, maxMemory: 16_384 };

/** The file's worker: started by its first run of `xmllint`, ended with the file. */
let worker: Worker | undefined;
const pending = new Map<number, (run: XmllintRun) => void>();
let lastId = 0;
afterAll(async () => {
  await worker?.terminate();
});

/**
 * Runs `xmllint [--schema <schema's name>] <flags> <documents' names>` once, as its command line does, with `schema`
 * beside the documents if given.
 */
function xmllint(
  documents: readonly XmlFile[],
  flags: readonly string[],
  schema?: XmlFile,
): Promise<XmllintRun> {
  if (!worker) {
    const started = new Worker(new URL('./libxml2-worker.js', import.meta.url));
    started.on('message', ({ id, ...run }: XmllintRun & { id: number }) => {
      pending.get(id)?.(run);
      pending.delete(id);
      // Idle, it keeps nothing waiting: the file's end, not the worker, decides when its process may exit.
      if (pending.size === 0) started.unref();
    });
    started.on('error', (error) => {
      for (const resolve of pending.values()) resolve({ exitCode: -1, stdout: '', stderr: String(error) });
      pending.clear();
      worker = undefined;
    });
    worker = started;
  }
  const running = worker;
  const id = ++lastId;
  running.ref();
  return new Promise((resolve) => {
    pending.set(id, resolve);
    running.postMessage({
      id,
      files: schema ? [...documents, schema] : documents,
      args: [
        ...(schema ? ['--schema', schema.fileName] : []),
        ...flags,
        ...documents.map(({ fileName }) => fileName),
      ],
      ...MEMORY,
    });
  });
}

/**
 * `xmllint`'s verdict as `xmllint-wasm` reads it: exit code 0 is well (valid), 3 (not well-formed) or 4 (invalid
 * against the schema) is not; any other is a failure of the run itself, thrown.
 */
function verdict(run: XmllintRun): boolean {
  if (run.exitCode === 0) return true;
  if (run.exitCode === 3 || run.exitCode === 4) return false;
  throw new Error(`xmllint failed (${run.exitCode}): ${run.stderr}`);
}

/** What libxml2 says of documents: nothing when all are well (well-formed, and valid against `schema` if given). */
export async function libxml2Errors(
  documents: readonly { readonly name: string; readonly text: string }[],
  schema?: XmlFile,
): Promise<string[]> {
  const files = documents.map(({ name, text }) => ({ fileName: name, contents: text }));
  const run = await xmllint(files, schema ? ['--noout'] : ['--c14n'], schema);
  if (verdict(run)) return [];
  // Its messages, less the line a document's check ends with (`<name> validates`, `<name> fails to validate`).
  const summaries = new Set(
    files.flatMap(({ fileName }) => [`${fileName} validates`, `${fileName} fails to validate`]),
  );
  return run.stderr.split('\n').filter((line) => line !== '' && !summaries.has(line));
}

/** A document as libxml2 reads it, in its canonical form (C14N); throws with libxml2's words when it is not XML. */
export async function canonicalForm(text: string): Promise<string> {
  const run = await xmllint([{ fileName: 'feed.xml', contents: text }], ['--c14n']);
  if (!verdict(run)) throw new Error(`libxml2 cannot read the document: ${run.stderr}`);
  return run.stdout;
}

/**
 * Documents as libxml2 reads them, in one run of it: their canonical forms. libxml2 writes them one after the other,
 * so they are told apart by their root's end tag — C14N writes it last, and never elsewhere while no element inside
 * has the root's name (a value's `<` is always `&lt;` in C14N). Throws when a document is not XML.
 */
export async function canonicalForms(texts: readonly string[], roots: readonly string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const files = texts.map((text, n) => ({ fileName: `document-${n}.xml`, contents: text }));
  const run = await xmllint(files, ['--c14n']);
  if (!verdict(run)) throw new Error(`libxml2 cannot read the documents: ${run.stderr}`);
  const ends = new RegExp(`(?<=</(?:${roots.join('|')})>)`);
  const forms = run.stdout.replace(/\n$/, '').split(ends);
  if (forms.length !== texts.length) throw new Error(`${texts.length} documents, ${forms.length} read`);
  return forms;
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

/** A sitemap's files as its outputs make them, and the closes and renames among the outputs. */
export interface SitemapFiles {
  /** Each file served at the end, by name (a renamed one under its new name). */
  readonly files: Map<string, string>;
  readonly closes: { readonly file: string; readonly urls: number; readonly bytes: number }[];
  readonly renames: { readonly from: string; readonly to: string }[];
}

/**
 * Plays a sitemap's outputs as a builder would — each file's text appended as it comes, a rename moving a closed
 * file — and holds them to the protocol on the way: files never interleave (a file's text runs from its first chunk
 * to its close, and is never opened again), a close's bytes are its text's, a rename moves a closed file to a free
 * name.
 */
export function playSitemap(outputs: readonly SitemapOutput[]): SitemapFiles {
  const files = new Map<string, string>();
  const closed = new Set<string>();
  const closes: SitemapFiles['closes'][number][] = [];
  const renames: SitemapFiles['renames'][number][] = [];
  let open: string | undefined;
  for (const output of outputs) {
    if (output.kind === 'text') {
      if (open !== output.file) {
        if (open !== undefined) throw new Error(`${output.file} written while ${open} is open`);
        if (files.has(output.file)) throw new Error(`${output.file} written twice`);
        open = output.file;
        files.set(output.file, '');
      }
      files.set(output.file, `${files.get(output.file)}${output.text}`);
    } else if (output.kind === 'close') {
      if (open !== output.file) throw new Error(`${output.file} closed while ${open} is open`);
      const bytes = Buffer.byteLength(files.get(output.file) ?? '', 'utf8');
      if (bytes !== output.bytes)
        throw new Error(`${output.file} is ${bytes} bytes, closed as ${output.bytes}`);
      closed.add(output.file);
      closes.push({ file: output.file, urls: output.urls, bytes: output.bytes });
      open = undefined;
    } else {
      if (!closed.has(output.from) || files.has(output.to))
        throw new Error(`${output.from} renamed to ${output.to} before it was closed, or over another file`);
      files.set(output.to, files.get(output.from) ?? '');
      files.delete(output.from);
      closed.delete(output.from);
      renames.push({ from: output.from, to: output.to });
    }
  }
  if (open !== undefined) throw new Error(`${open} never closed`);
  return { files, closes, renames };
}
