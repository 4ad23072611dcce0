/**
 * The `sitemap` feed (docs/design.md#feeds-as-xml): a urlset as written, valid against the protocol's XSD
 * (`test/fixtures/sitemaps/`, by libxml2); and the split — at the protocol's limits and at small ones a test sets — into
 * parts, `sitemap.xml` renamed `sitemap-1.xml` at the first URL that does not fit, the index written last as
 * `sitemap.xml`, each part valid against `sitemap.xsd` and the index against `siteindex.xsd`.
 */
import { describe, expect, it } from '@jest/globals';
import {
  SITEMAP_FILE,
  SITEMAP_LIMITS,
  type SitemapOptions,
  type SitemapOutput,
  type SitemapVacancy,
  SitemapWriter,
  sitemapFeed,
  sitemapPartFile,
} from '../../../../../lambda/domain/feed-formats/sitemap';
import { escapedText } from '../../../../../lambda/domain/feed-formats/xml-text';
import { normalizeUrl } from '../../../../../lambda/domain/schema/web-url';
import { libxml2Errors, parseXml, playSitemap, SITEMAP_XSD } from '../../../../../testkit/xml';

const FEED_URL = 'https://feeds.example.az/feeds/abc/sitemap.xml';
const T0 = Date.parse('2026-11-23T10:15:30.123Z');

/** `count` vacancies, the `n`th at `…/jobs/n` changed `n` seconds after T0. */
const vacancies = (count: number, from = 1): SitemapVacancy[] =>
  Array.from({ length: count }, (_, index) => ({
    url: `https://careers.example.az/jobs/${from + index}`,
    updated_at: T0 + (from + index) * 1000,
  }));

async function outputsOf(options: SitemapOptions, input: Iterable<SitemapVacancy>): Promise<SitemapOutput[]> {
  const outputs: SitemapOutput[] = [];
  for await (const output of sitemapFeed(options, input)) outputs.push(output);
  return outputs;
}

/** The `<loc>`s and `<lastmod>`s of a urlset or an index. */
function entries(text: string): { loc: string; lastmod: string }[] {
  const root = parseXml(text, ['url', 'sitemap']) as Record<string, Record<string, unknown>>;
  const top = root.urlset ?? root.sitemapindex ?? {};
  return ((top.url ?? top.sitemap ?? []) as { loc: string; lastmod: string }[]).map(({ loc, lastmod }) => ({
    loc,
    lastmod,
  }));
}

describe('a sitemap within one file', () => {
  it('is a urlset of the URLs, each with its last change, valid against sitemap.xsd', async () => {
    const input = [
      { url: 'https://careers.example.az/jobs?id=1&lang=az', updated_at: T0 },
      { url: "https://careers.example.az/jobs/it's", updated_at: T0 + 1 },
    ];
    const { files, closes, renames } = playSitemap(await outputsOf({ feedUrl: FEED_URL }, input));
    const text = files.get(SITEMAP_FILE) ?? '';
    expect(text).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '  <url>',
        '    <loc>https://careers.example.az/jobs?id=1&amp;lang=az</loc>',
        '    <lastmod>2026-11-23T10:15:30.123Z</lastmod>',
        '  </url>',
        '  <url>',
        '    <loc>https://careers.example.az/jobs/it&apos;s</loc>',
        '    <lastmod>2026-11-23T10:15:30.124Z</lastmod>',
        '  </url>',
        '</urlset>',
        '',
      ].join('\n'),
    );
    expect([...files.keys()]).toEqual([SITEMAP_FILE]);
    expect(closes).toEqual([{ file: SITEMAP_FILE, urls: 2, bytes: Buffer.byteLength(text) }]);
    expect(renames).toEqual([]);
    expect(entries(text).map(({ loc }) => loc)).toEqual(input.map(({ url }) => url));
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text }], SITEMAP_XSD.urlset)).toEqual([]);
  });

  it('URL-escapes what the import stores but RFC 3986 does not allow — brackets, a stray %, a second #, |^{}` — and stays valid against sitemap.xsd', async () => {
    // Each as an import file gives it and as the import stores it (the WHATWG parser's form).
    const given = [
      'https://careers.example.az/jobs?filter[city]=baku',
      'https://careers.example.az/jobs/%zz',
      'https://careers.example.az/a b/"<x>"?q=1&r=]]>',
      'https://[::1]:8080/a|b^c{d}`e#f#g',
      'https://careers.example.az/vakansiya/mühəndis?şəhər=bakı',
    ];
    const stored = given.map((url) => {
      const check = normalizeUrl('url', url, 'vacancy');
      if (!check.ok) throw new Error(check.reason);
      return check.url;
    });
    const input = stored.map((url, n) => ({ url, updated_at: T0 + n }));
    const text = playSitemap(await outputsOf({ feedUrl: FEED_URL }, input)).files.get(SITEMAP_FILE) ?? '';
    expect(entries(text).map(({ loc }) => loc)).toEqual([
      'https://careers.example.az/jobs?filter%5Bcity%5D=baku',
      'https://careers.example.az/jobs/%25zz',
      'https://careers.example.az/a%20b/%22%3Cx%3E%22?q=1&r=%5D%5D%3E',
      'https://[::1]:8080/a%7Cb%5Ec%7Bd%7D%60e#f%23g',
      'https://careers.example.az/vakansiya/m%C3%BCh%C9%99ndis?%C5%9F%C9%99h%C9%99r=bak%C4%B1',
    ]);
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text }], SITEMAP_XSD.urlset)).toEqual([]);
    // As stored, libxml2 refuses the first four.
    let n = 0;
    const asStored = text.replace(/<loc>[^<]*<\/loc>/g, () => `<loc>${escapedText(stored[n++] ?? '')}</loc>`);
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text: asStored }], SITEMAP_XSD.urlset)).toHaveLength(4);
  });

  it('holds 50,000 URLs in one urlset, valid against sitemap.xsd', async () => {
    const { files, renames } = playSitemap(await outputsOf({ feedUrl: FEED_URL }, vacancies(50_000)));
    expect([...files.keys()]).toEqual([SITEMAP_FILE]);
    expect(renames).toEqual([]);
    const text = files.get(SITEMAP_FILE) ?? '';
    expect(entries(text)).toHaveLength(50_000);
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text }], SITEMAP_XSD.urlset)).toEqual([]);
  });

  it('leaves out, and counts, a URL stored before the import refused those whose <loc> the XSD does not take', async () => {
    const stored = [
      'https://careers.example.az/jobs/1',
      // 9 characters: a <loc> takes 12 at least.
      'http://x/',
      // 6,022 characters URL-escaped: a <loc> takes 2,048 at most.
      `https://ex.example.az/${'|'.repeat(2000)}`,
      // 12 and 2,048 characters: the bounds, kept.
      'http://a.az/',
      `https://example.com/${'a'.repeat(2025)}|`,
    ];
    const writer = new SitemapWriter({ feedUrl: FEED_URL });
    const outputs = [...stored.flatMap((url, n) => writer.add({ url, updated_at: T0 + n })), ...writer.end()];
    const { files, closes } = playSitemap(outputs);
    const text = files.get(SITEMAP_FILE) ?? '';
    expect(entries(text).map(({ loc }) => loc.length)).toEqual([33, 12, 2048]);
    expect(closes).toEqual([{ file: SITEMAP_FILE, urls: 3, bytes: Buffer.byteLength(text) }]);
    expect(writer.leftOut).toBe(2);
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text }], SITEMAP_XSD.urlset)).toEqual([]);
  });

  it('is an empty urlset without a URL: well-formed, short only of the one <url> the XSD wants', async () => {
    const { files } = playSitemap(await outputsOf({ feedUrl: FEED_URL }, []));
    const text = files.get(SITEMAP_FILE) ?? '';
    expect(text).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n',
    );
    const errors = await libxml2Errors([{ name: SITEMAP_FILE, text }], SITEMAP_XSD.urlset);
    expect(errors.join('\n')).toMatch(/Missing child element\(s\)\. Expected is .*url/);
  });
});

describe('a sitemap past one file', () => {
  it('renames sitemap.xml to sitemap-1.xml at the 50,001st URL, and writes the index as sitemap.xml last', async () => {
    const outputs = await outputsOf({ feedUrl: FEED_URL }, vacancies(50_001));
    const { files, closes, renames } = playSitemap(outputs);
    expect(renames).toEqual([{ from: SITEMAP_FILE, to: sitemapPartFile(1) }]);
    expect(closes.map(({ file, urls }) => [file, urls])).toEqual([
      [SITEMAP_FILE, 50_000],
      ['sitemap-2.xml', 1],
      [SITEMAP_FILE, 2],
    ]);
    expect(outputs.at(-1)).toMatchObject({ kind: 'close', file: SITEMAP_FILE });
    const index = files.get(SITEMAP_FILE) ?? '';
    expect(entries(index)).toEqual([
      {
        loc: 'https://feeds.example.az/feeds/abc/sitemap-1.xml',
        lastmod: new Date(T0 + 50_000_000).toISOString(),
      },
      {
        loc: 'https://feeds.example.az/feeds/abc/sitemap-2.xml',
        lastmod: new Date(T0 + 50_001_000).toISOString(),
      },
    ]);
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text: index }], SITEMAP_XSD.index)).toEqual([]);
    const parts = ['sitemap-1.xml', 'sitemap-2.xml'].map((name) => ({ name, text: files.get(name) ?? '' }));
    expect(await libxml2Errors(parts, SITEMAP_XSD.urlset)).toEqual([]);
    expect(parts.flatMap(({ text }) => entries(text).map(({ loc }) => loc))).toEqual(
      vacancies(50_001).map(({ url }) => url),
    );
  });

  it('rolls over before a file would pass 50 MB (52,428,800 bytes)', async () => {
    // URLs of 2,048 characters, the longest stored: about 2,100 bytes an entry, so 50 MB before 50,000 URLs.
    const long = (n: number) => `https://careers.example.az/${String(n).padStart(2_048 - 27, '0')}`;
    const input = Array.from({ length: 26_000 }, (_, n) => ({ url: long(n), updated_at: T0 }));
    const { files, closes } = playSitemap(await outputsOf({ feedUrl: FEED_URL }, input));
    expect([...files.keys()].sort()).toEqual([SITEMAP_FILE, 'sitemap-1.xml', 'sitemap-2.xml'].sort());
    const [first, second] = closes;
    expect(first?.bytes).toBeLessThanOrEqual(SITEMAP_LIMITS.bytes);
    // Full: one more entry would not have fitted.
    const entryBytes = Buffer.byteLength(
      `  <url>\n    <loc>${long(0)}</loc>\n    <lastmod>2026-11-23T10:15:30.123Z</lastmod>\n  </url>\n`,
    );
    expect(first?.bytes).toBeGreaterThan(SITEMAP_LIMITS.bytes - entryBytes);
    expect((first?.urls ?? 0) + (second?.urls ?? 0)).toBe(26_000);
  });

  it('splits at limits a test sets, and every part and the index are valid', async () => {
    const options = {
      feedUrl: 'http://127.0.0.1:3000/feeds/t0k3n/sitemap.xml',
      limits: { urls: 3, bytes: 1e9 },
    };
    const { files, closes, renames } = playSitemap(await outputsOf(options, vacancies(7)));
    expect(renames).toEqual([{ from: SITEMAP_FILE, to: 'sitemap-1.xml' }]);
    expect(closes.map(({ file, urls }) => [file, urls])).toEqual([
      [SITEMAP_FILE, 3],
      ['sitemap-2.xml', 3],
      ['sitemap-3.xml', 1],
      [SITEMAP_FILE, 3],
    ]);
    const index = files.get(SITEMAP_FILE) ?? '';
    expect(entries(index).map(({ loc }) => loc)).toEqual(
      [1, 2, 3].map((n) => `http://127.0.0.1:3000/feeds/t0k3n/sitemap-${n}.xml`),
    );
    expect(await libxml2Errors([{ name: SITEMAP_FILE, text: index }], SITEMAP_XSD.index)).toEqual([]);
    const parts = [1, 2, 3].map((n) => ({
      name: sitemapPartFile(n),
      text: files.get(sitemapPartFile(n)) ?? '',
    }));
    expect(await libxml2Errors(parts, SITEMAP_XSD.urlset)).toEqual([]);
  });

  it('keeps exactly a full file as the urlset: no index for 3 URLs at a limit of 3', async () => {
    const { files, renames } = playSitemap(
      await outputsOf({ feedUrl: FEED_URL, limits: { urls: 3, bytes: 1e9 } }, vacancies(3)),
    );
    expect([...files.keys()]).toEqual([SITEMAP_FILE]);
    expect(renames).toEqual([]);
  });

  it('puts one URL in a file even when it alone passes the byte limit', async () => {
    const { closes } = playSitemap(
      await outputsOf({ feedUrl: FEED_URL, limits: { urls: 10, bytes: 10 } }, vacancies(2)),
    );
    expect(closes.map(({ file, urls }) => [file, urls])).toEqual([
      [SITEMAP_FILE, 1],
      ['sitemap-2.xml', 1],
      [SITEMAP_FILE, 2],
    ]);
  });
});

describe("the protocol's XSDs", () => {
  it('are the sitemaps.org 0.9 schemas, and refuse what they should', async () => {
    for (const xsd of [SITEMAP_XSD.urlset, SITEMAP_XSD.index])
      expect(xsd.contents).toContain('targetNamespace="http://www.sitemaps.org/schemas/sitemap/0.9"');
    const { files } = playSitemap(await outputsOf({ feedUrl: FEED_URL }, vacancies(1)));
    const urlset = files.get(SITEMAP_FILE) ?? '';
    const refusals = async (text: string, xsd: { fileName: string; contents: string }) =>
      (await libxml2Errors([{ name: 'probe.xml', text }], xsd)).join('\n');
    expect(await refusals(urlset, SITEMAP_XSD.index)).toMatch(/No matching global declaration/);
    expect(await refusals(urlset.replace(/<loc>[^<]*/, '<loc>http://a.b'), SITEMAP_XSD.urlset)).toMatch(
      /minLength/,
    );
    expect(
      await refusals(urlset.replace(/<lastmod>[^<]*/, '<lastmod>23.11.2026'), SITEMAP_XSD.urlset),
    ).toMatch(/lastmod/);
    expect(
      await refusals(
        urlset.replace(' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"', ''),
        SITEMAP_XSD.urlset,
      ),
    ).toMatch(/No matching global declaration/);
  });
});
