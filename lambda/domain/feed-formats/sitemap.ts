/**
 * The `sitemap` feed (docs/design.md#feeds-as-xml): a sitemaps.org 0.9 `urlset` of the vacancies' URLs, each with its
 * `<lastmod>` (the vacancy's `updated_at`, §8's RFC 3339 form, a W3C date-time) — and, past the protocol's limits of
 * one file (50,000 URLs, 50 MB uncompressed), a sitemap index whose parts are served beside it. Written as text,
 * streamed, one file at a time, and never holding a file.
 *
 * **Files and their names.** The feed's URL serves `sitemap.xml` (`SITEMAP_FILE`); parts are `sitemap-1.xml`,
 * `sitemap-2.xml`, … (`sitemapPartFile`), served beside it, each named in the index by its URL resolved against
 * the feed's. Whether `sitemap.xml` is a urlset or an index is known only when a URL does not fit — the 50,001st, or
 * the one that would pass 50 MB — so the writer starts `sitemap.xml` as the urlset it usually is, and when a URL does
 * not fit: closes it, says it is to be renamed `sitemap-1.xml`, writes the next parts as they fill, and writes the
 * index as `sitemap.xml` last. What it holds meanwhile is one chunk of text and a line of the index per part. (An
 * index has limits of its own, 50,000 parts: 2.5 billion vacancies, which no vendor comes near; they are not checked.)
 *
 * The output is a sequence of `SitemapOutput`s: a file's text in chunks, then its close; a rename of a closed file.
 * Files never interleave: one file's text runs from its first chunk to its close.
 *
 * **Valid whatever the data.** A `<loc>` is the URL URL-escaped (`sitemapLocation`), and the XSD takes one of 12 to
 * 2,048 characters (`SITEMAP_LOCATION_CHARACTERS`): the import refuses a URL whose location is shorter or longer, and
 * one stored before that rule is left out here, counted (`leftOut`), never written. The one exception is a sitemap
 * without a URL (a vendor with no listable vacancy): an empty `urlset`, well-formed though the XSD wants one `<url>`
 * at least — there is no valid sitemap of nothing, and any URL put there to please the XSD would send crawlers to a
 * page that is no listed vacancy (docs/api.md#feeds).
 */
import { formatRfc3339 } from '../../platform/time/rfc3339';
import type { ITEM } from '../schema/tables';
import type { StoredVacancy } from '../schema/vacancy-item';
import { escapedText, XML_DECLARATION } from './xml-text';

/** The file the feed's URL serves: the urlset, or the index of the parts. */
export const SITEMAP_FILE = 'sitemap.xml';

/** The name of the `n`th part (from 1) of a sitemap with an index: served beside `SITEMAP_FILE`. */
export const sitemapPartFile = (n: number): string => `sitemap-${n}.xml`;

/** What one sitemap file may hold (sitemaps.org): 50,000 URLs, 50 MB (52,428,800 bytes) uncompressed. */
export const SITEMAP_LIMITS = { urls: 50_000, bytes: 52_428_800 } as const;

/**
 * How long a `<loc>` may be, in characters (the XSD's `tLoc`: `minLength` 12, `maxLength` 2,048): a vacancy's URL
 * whose location (`sitemapLocation`) is not is refused by the import and left out of sitemaps.
 */
export const SITEMAP_LOCATION_CHARACTERS = { min: 12, max: 2_048 } as const;

/** Whether a location (`sitemapLocation`'s, all ASCII) is as long as the XSD takes. */
export const sitemapLocationFits = (location: string): boolean =>
  location.length >= SITEMAP_LOCATION_CHARACTERS.min && location.length <= SITEMAP_LOCATION_CHARACTERS.max;

/** The sitemaps protocol's namespace. */
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** What a sitemap shows of a vacancy: its URL and when it last changed (ms) — as an item of the table holds them. */
export type SitemapVacancy = Pick<StoredVacancy, 'url' | typeof ITEM.updatedAt>;

/** A sitemap's files, as they are written. */
export type SitemapOutput =
  /** The next text of `file`: the first opens it. */
  | { readonly kind: 'text'; readonly file: string; readonly text: string }
  /** `file` is complete: `urls` URLs (or parts, for the index) in `bytes` bytes of UTF-8. */
  | { readonly kind: 'close'; readonly file: string; readonly urls: number; readonly bytes: number }
  /** The closed file `from` is to be served as `to` (and no longer as `from`). */
  | { readonly kind: 'rename'; readonly from: string; readonly to: string };

export interface SitemapOptions {
  /** The feed's URL, which serves `SITEMAP_FILE`: the parts' URLs are resolved against it. */
  readonly feedUrl: string;
  /** A file's limits; the protocol's unless a test says otherwise. */
  readonly limits?: { readonly urls: number; readonly bytes: number } | undefined;
}

/** Text is handed on in chunks of about this many bytes: few enough outputs, little held. */
const CHUNK_BYTES = 64 * 1024;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The opening and closing of a file whose root is `root`. */
function frame(root: 'urlset' | 'sitemapindex') {
  const open = `${XML_DECLARATION}\n<${root} xmlns="${NAMESPACE}">\n`;
  const close = `</${root}>\n`;
  return { open, close, openBytes: utf8Bytes(open), closeBytes: utf8Bytes(close) };
}
const URLSET = frame('urlset');
const INDEX = frame('sitemapindex');

/** A URL's scheme and authority (`https://host:port`, an IPv6 host's brackets included), which are kept as they are. */
const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
/**
 * What RFC 3986 does not allow after the authority: any other character, and a `%` that begins no `%XX` — and `#`,
 * which it allows once (`sitemapLocation` keeps the first).
 */
const NOT_IN_A_URI = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?@!$&'()*+,;=%]/gu;
const UTF8 = new TextEncoder();

/**
 * A vacancy's URL as a sitemap's `<loc>`, which the protocol's XSD reads as an RFC 3986 URI (`xsd:anyURI`): the URL as
 * stored — the WHATWG parser's form, which keeps `[`, `]`, `{`, `|`, `^`, a stray `%` or a second `#` after the
 * host — with each character RFC 3986 does not allow there percent-encoded as UTF-8, as the protocol asks ("URL-escape
 * your URLs"). A URL that is already an RFC 3986 URI is its own location; no other changes, and `%XX` stays as it is.
 */
export function sitemapLocation(url: string): string {
  const kept = SCHEME_AND_AUTHORITY.exec(url)?.[0] ?? '';
  let fragment = false;
  const rest = url.slice(kept.length).replace(NOT_IN_A_URI, (character) => {
    if (character === '#' && !fragment) {
      fragment = true;
      return character;
    }
    return [...UTF8.encode(character)]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
  });
  return kept + rest;
}

/** One `<url>` (or `<sitemap>`, in the index) entry: its location (`sitemapLocation`'s), escaped, and its last change. */
const entry = (element: 'url' | 'sitemap', location: string, lastModified: number): string =>
  `  <${element}>\n    <loc>${escapedText(location)}</loc>\n    <lastmod>${formatRfc3339(lastModified)}</lastmod>\n  </${element}>\n`;

/**
 * The writer behind `sitemapFeed`, for a caller that pushes: `add` each vacancy, then `end`; each returns what is
 * to be written now.
 */
export class SitemapWriter {
  readonly #feedUrl: string;
  readonly #limits: { readonly urls: number; readonly bytes: number };
  /** The file being written, and what it holds so far. */
  #file = SITEMAP_FILE;
  #urls = 0;
  #bytes = 0;
  #lastModified = 0;
  /** Text not handed on yet, and its bytes. */
  #pending: string[] = [];
  #pendingBytes = 0;
  /** The parts closed so far (none while `sitemap.xml` is still the urlset): name and latest change. */
  readonly #parts: { readonly file: string; readonly lastModified: number }[] = [];
  #ended = false;
  #leftOut = 0;

  constructor(options: SitemapOptions) {
    this.#feedUrl = options.feedUrl;
    this.#limits = options.limits ?? SITEMAP_LIMITS;
    this.#append(URLSET.open, URLSET.openBytes);
  }

  /** Vacancies left out so far: their location is not as long as the XSD takes (`sitemapLocationFits`). */
  get leftOut(): number {
    return this.#leftOut;
  }

  /**
   * Adds a vacancy's URL: what is to be written now (often nothing: text is handed on in chunks). A URL whose location
   * does not fit the XSD is left out, and counted.
   */
  add(vacancy: SitemapVacancy): SitemapOutput[] {
    if (this.#ended) throw new Error('The sitemap has ended.');
    const location = sitemapLocation(vacancy.url);
    if (!sitemapLocationFits(location)) {
      this.#leftOut += 1;
      return [];
    }
    const text = entry('url', location, vacancy.updated_at);
    const bytes = utf8Bytes(text);
    const output: SitemapOutput[] = [];
    const full =
      this.#urls >= this.#limits.urls || this.#bytes + bytes + URLSET.closeBytes > this.#limits.bytes;
    // A file holds one URL at least, whatever its size: a URL never fits better in the next.
    if (this.#urls > 0 && full) output.push(...this.#nextPart());
    this.#append(text, bytes);
    this.#urls += 1;
    this.#lastModified = Math.max(this.#lastModified, vacancy.updated_at);
    if (this.#pendingBytes >= CHUNK_BYTES) output.push(this.#flush());
    return output;
  }

  /** Ends the sitemap: the last file's close — and, for a sitemap with parts, the index, written last. */
  end(): SitemapOutput[] {
    if (this.#ended) throw new Error('The sitemap has ended.');
    this.#ended = true;
    if (this.#parts.length > 0) this.#parts.push({ file: this.#file, lastModified: this.#lastModified });
    const output = this.#closeFile();
    if (this.#parts.length === 0) return output;
    this.#file = SITEMAP_FILE;
    this.#append(INDEX.open, INDEX.openBytes);
    for (const part of this.#parts) {
      const text = entry(
        'sitemap',
        sitemapLocation(new URL(part.file, this.#feedUrl).href),
        part.lastModified,
      );
      this.#append(text, utf8Bytes(text));
      if (this.#pendingBytes >= CHUNK_BYTES) output.push(this.#flush());
    }
    this.#append(INDEX.close, INDEX.closeBytes);
    output.push(this.#flush(), {
      kind: 'close',
      file: SITEMAP_FILE,
      urls: this.#parts.length,
      bytes: this.#bytes,
    });
    return output;
  }

  /**
   * Closes the file being written and opens the next part. The first time, the file is `sitemap.xml`, which
   * becomes part 1: the top file will be the index.
   */
  #nextPart(): SitemapOutput[] {
    const first = this.#parts.length === 0;
    const file = first ? sitemapPartFile(1) : this.#file;
    this.#parts.push({ file, lastModified: this.#lastModified });
    const output = this.#closeFile();
    if (first) output.push({ kind: 'rename', from: SITEMAP_FILE, to: file });
    this.#file = sitemapPartFile(this.#parts.length + 1);
    this.#append(URLSET.open, URLSET.openBytes);
    return output;
  }

  /** The close of the urlset being written, with its last text; its counts start again. */
  #closeFile(): SitemapOutput[] {
    this.#append(URLSET.close, URLSET.closeBytes);
    const output: SitemapOutput[] = [
      this.#flush(),
      { kind: 'close', file: this.#file, urls: this.#urls, bytes: this.#bytes },
    ];
    this.#urls = 0;
    this.#bytes = 0;
    this.#lastModified = 0;
    return output;
  }

  #append(text: string, bytes: number): void {
    this.#pending.push(text);
    this.#pendingBytes += bytes;
    this.#bytes += bytes;
  }

  #flush(): SitemapOutput {
    const text = this.#pending.join('');
    this.#pending = [];
    this.#pendingBytes = 0;
    return { kind: 'text', file: this.#file, text };
  }
}

/**
 * A sitemap's files from the vacancies (any order; §2's, as the feeds read them), pulled one output at a time: what
 * it holds at once is one chunk of text and a line of the index per part.
 */
export async function* sitemapFeed(
  options: SitemapOptions,
  vacancies: AsyncIterable<SitemapVacancy> | Iterable<SitemapVacancy>,
): AsyncGenerator<SitemapOutput, void, undefined> {
  const writer = new SitemapWriter(options);
  for await (const vacancy of vacancies) yield* writer.add(vacancy);
  yield* writer.end();
}
