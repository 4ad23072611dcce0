/**
 * The `sitemap` feed over what fast-check makes up: hostile URLs (`]]>`, markup, controls, U+FFFE, lone surrogates,
 * right-to-left marks, 8,000-character runs), any number of them, under limits it sets small. Each file is
 * well-formed to libxml2; every `<loc>` reads back — through libxml2's canonical form and fast-xml-parser — as the URL
 * URL-escaped (RFC 3986's characters only, the same text once percent-decoded; a URL that is already an RFC 3986 URI
 * unchanged), every `<lastmod>` as the change's RFC 3339 time, in the order given, across the
 * parts; no part passes its limits (one URL aside, which a file always takes); the index names every part. A URL whose
 * location the XSD does not take (shorter than 12 or longer than 2,048 characters) is left out, and counted.
 *
 * And every sitemap valid against the protocol's XSD, by libxml2, whatever URLs the import was given: the sitemap of
 * the URLs stored before the import refused those a sitemap cannot list holds exactly those the import takes now.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  SITEMAP_FILE,
  type SitemapOutput,
  type SitemapVacancy,
  SitemapWriter,
  sitemapLocation,
  sitemapPartFile,
} from '../../../../../lambda/domain/feed-formats/sitemap';
import { validateVacancyRecord } from '../../../../../lambda/domain/import/record';
import { normalizeUrl } from '../../../../../lambda/domain/schema/web-url';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';
import {
  canonicalForms,
  hostileText,
  libxml2Errors,
  parseXml,
  playSitemap,
  SITEMAP_XSD,
  xmlCarries,
} from '../../../../../testkit/xml';

const FEED_URL = 'https://feeds.example.az/feeds/abc/sitemap.xml';

/** Text of RFC 3986's characters only, each `%` beginning a `%XX`. */
const RFC_3986_TEXT = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** A text with each `%XX` made the byte it stands for, read as UTF-8 (a byte that is not, as U+FFFD). */
function percentDecoded(text: string): string {
  const bytes: number[] = [];
  const utf8 = Buffer.from(text);
  for (let i = 0; i < utf8.length; i += 1) {
    const hex = utf8.subarray(i + 1, i + 3).toString('latin1');
    if (utf8[i] === 0x25 && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(utf8[i] as number);
  }
  return Buffer.from(bytes).toString('utf8');
}

const vacancy: fc.Arbitrary<SitemapVacancy> = fc.record({
  url: hostileText,
  updated_at: fc.integer({ min: 0, max: Date.parse('2100-12-31T23:59:59.999Z') }),
});

/** The entries of a urlset or an index, as fast-xml-parser reads the document. */
function entries(text: string): { loc: string; lastmod: string }[] {
  const root = parseXml(text, ['url', 'sitemap']) as Record<string, Record<string, unknown>>;
  const top = root.urlset ?? root.sitemapindex ?? {};
  return ((top.url ?? top.sitemap ?? []) as Record<string, unknown>[]).map(({ loc, lastmod }) => ({
    loc: String(loc ?? ''),
    lastmod: String(lastmod),
  }));
}

describe('the sitemap over hostile URLs and small limits', () => {
  it('reads back as the URLs, URL-escaped, split within the limits, through both parsers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(vacancy, { maxLength: 12 }),
        fc.record({ urls: fc.integer({ min: 1, max: 5 }), bytes: fc.integer({ min: 1, max: 40_000 }) }),
        async (vacancies, limits) => {
          const writer = new SitemapWriter({ feedUrl: FEED_URL, limits });
          const outputs: SitemapOutput[] = [...vacancies.flatMap((one) => writer.add(one)), ...writer.end()];
          const { files, closes } = playSitemap(outputs);
          // Those whose location the XSD takes, in order; the others left out, counted.
          const listed = vacancies.filter(({ url }) => {
            const { length } = sitemapLocation(url);
            return length >= 12 && length <= 2048;
          });
          expect(writer.leftOut).toBe(vacancies.length - listed.length);
          const parts =
            files.size === 1
              ? [SITEMAP_FILE]
              : [...Array(files.size - 1).keys()].map((n) => sitemapPartFile(n + 1));
          const names = files.size === 1 ? parts : [...parts, SITEMAP_FILE];
          expect([...files.keys()].sort()).toEqual([...names].sort());
          const texts = names.map((file) => files.get(file) ?? '');
          const canonical = await canonicalForms(texts, ['urlset', 'sitemapindex']);
          const read: { loc: string; lastmod: string }[] = [];
          for (const [position, text] of texts.slice(0, parts.length).entries()) {
            expect(text.isWellFormed()).toBe(true);
            const mine = entries(text);
            expect(entries(canonical[position] ?? '')).toEqual(mine);
            // Files close in order: the parts (the first as sitemap.xml, before its rename), then the index.
            const close = closes[position];
            expect(close?.urls).toBe(mine.length);
            expect(mine.length).toBeLessThanOrEqual(limits.urls);
            if (mine.length > 1) expect(close?.bytes).toBeLessThanOrEqual(limits.bytes);
            read.push(...mine);
          }
          expect(read.map(({ lastmod }) => lastmod)).toEqual(
            listed.map(({ updated_at }) => new Date(updated_at).toISOString()),
          );
          // Each location is the URL, URL-escaped: only what RFC 3986 allows (nothing XML cannot carry), and the
          // same text once both are percent-decoded.
          for (const [position, { loc }] of read.entries()) {
            const url = listed[position]?.url ?? '';
            expect(loc).toMatch(RFC_3986_TEXT);
            expect(xmlCarries(loc)).toBe(loc);
            expect(percentDecoded(loc)).toBe(percentDecoded(url.toWellFormed()));
            // Brackets aside (RFC 3986 has them in a host only, and none of these texts has one).
            if (RFC_3986_TEXT.test(url) && !/[[\]]/.test(url) && url.split('#').length <= 2)
              expect(loc).toBe(url);
          }
          if (files.size > 1) {
            const index = entries(canonical[parts.length] ?? '');
            expect(index).toEqual(entries(files.get(SITEMAP_FILE) ?? ''));
            expect(index.map(({ loc }) => loc)).toEqual(parts.map((part) => new URL(part, FEED_URL).href));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** What a URL's path and query are made of: characters kept as they are, and those a sitemap escapes to 3 or more. */
const urlPiece = fc.constantFrom(
  'a',
  '/',
  '-',
  '|',
  '[',
  ']',
  '%',
  '%41',
  '#',
  'ə',
  ' ',
  '"',
  '{',
  '?',
  '&',
  '🙂',
);

/**
 * A `url` as an import file may give it: a scheme, a host (short, long, an address, an international name) and a path
 * of pieces, some run hundreds of times — so that stored and URL-escaped lengths fall on both sides of the XSD's 12 and
 * 2,048 characters, and of the import's 2,048.
 */
const givenUrl = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'HTTPS://'),
    fc.constantFrom('x', 'ab', 'a.az', 'careers.example.az', '[::1]', '127.0.0.1', 'bücher.example'),
    fc.array(urlPiece, { maxLength: 8 }),
    urlPiece,
    fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 600, max: 2_100 })),
  )
  .map(([scheme, host, pieces, run, times]) => `${scheme}${host}/${pieces.join('')}${run.repeat(times)}`);

describe('the sitemap of whatever URLs the import was given', () => {
  it('is valid against sitemap.xsd, and lists exactly the URLs the import takes, leaving out those stored before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(givenUrl, { minLength: 1, maxLength: 8 }), async (urls) => {
        // Stored before the import refused URLs a sitemap cannot list: every URL the URL rule takes.
        const stored = urls.flatMap((url) => {
          const check = normalizeUrl('url', url, 'vacancy');
          return check.ok ? [check.url] : [];
        });
        // What the import takes now.
        const taken = urls.flatMap((url) => {
          const result = validateVacancyRecord(vacancyRecord({ url }), CLOCK);
          return result.ok ? [result.vacancy.url] : [];
        });
        const writer = new SitemapWriter({ feedUrl: FEED_URL });
        const outputs = [...stored.flatMap((url, n) => writer.add({ url, updated_at: n })), ...writer.end()];
        const text = playSitemap(outputs).files.get(SITEMAP_FILE) ?? '';
        const listed = entries(text).map(({ loc }) => loc);
        expect(listed).toEqual(taken.map(sitemapLocation));
        expect(writer.leftOut).toBe(stored.length - taken.length);
        // Valid, but for the one exception: a sitemap of nothing, the empty urlset.
        if (listed.length > 0)
          expect(await libxml2Errors([{ name: SITEMAP_FILE, text }], SITEMAP_XSD.urlset)).toEqual([]);
        else expect(text).toMatch(/<urlset [^>]*>\n<\/urlset>\n$/);
      }),
      { numRuns: 80 },
    );
  });
});
