/**
 * The `sitemap` feed over what fast-check makes up: hostile URLs (`]]>`, markup, controls, U+FFFE, lone surrogates,
 * right-to-left marks, 8,000-character runs), any number of them, under limits it sets small. Each file is
 * well-formed to libxml2; every `<loc>` reads back — through libxml2's canonical form and fast-xml-parser — as the URL
 * URL-escaped (RFC 3986's characters only, the same text once percent-decoded; a URL that is already an RFC 3986 URI
 * unchanged), every `<lastmod>` as the change's RFC 3339 time, in the order given, across the
 * parts; no part passes its limits (one URL aside, which a file always takes); the index names every part.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  SITEMAP_FILE,
  type SitemapOutput,
  type SitemapVacancy,
  sitemapFeed,
  sitemapPartFile,
} from '../../../../../lambda/domain/feed-formats/sitemap';
import { canonicalForms, hostileText, parseXml, playSitemap, xmlCarries } from '../../../../../testkit/xml';

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
          const outputs: SitemapOutput[] = [];
          for await (const output of sitemapFeed({ feedUrl: FEED_URL, limits }, vacancies))
            outputs.push(output);
          const { files, closes } = playSitemap(outputs);
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
            vacancies.map(({ updated_at }) => new Date(updated_at).toISOString()),
          );
          // Each location is the URL, URL-escaped: only what RFC 3986 allows (nothing XML cannot carry), and the
          // same text once both are percent-decoded.
          for (const [position, { loc }] of read.entries()) {
            const url = vacancies[position]?.url ?? '';
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
