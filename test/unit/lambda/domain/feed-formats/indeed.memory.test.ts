/**
 * The `indeed` feed's memory (docs/design.md#feeds-as-xml): 100,000 vacancies streamed through the writer, gzip and
 * a sink that keeps only counts — as a builder pipes it into an upload. The live heap, measured after a full
 * collection every 10,000 jobs, grows by less than 1 % of the text the feed wrote: holding the feed, or even one job
 * in a hundred, would take more. No timing is asserted.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import {
  type FeedSettings,
  type IndeedVacancy,
  indeedFeed,
} from '../../../../../lambda/domain/feed-formats/indeed';
import { toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { liveHeapBytes } from '../../../../../testkit/live-heap';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

const JOBS = 100_000;
const SAMPLE_EVERY = 10_000;
const SETTINGS: FeedSettings = { jobCountry: 'AZ', salaryCurrency: 'AZN', salaryPeriod: 'MONTH' };
const HEAD = {
  company: 'Acme',
  feedUrl: 'https://feeds.example.az/feeds/abc/indeed.xml',
  builtAt: new Date('2026-11-23T10:15:30Z'),
  locale: 'az' as const,
};

const BASE = toVacancyItem(
  fixtureVacancy(
    vacancyRecord({
      description: 'Build the APIs our customers use, & keep them <fast>. '.repeat(20),
      requirements: 'Three years of TypeScript.\n'.repeat(10),
    }),
  ),
  0,
) as unknown as IndeedVacancy;

describe('the indeed feed of 100,000 vacancies', () => {
  it('streams through gzip with the live heap bounded by a small share of what it wrote', async () => {
    const samples: number[] = [];
    let written = 0;
    // The vacancies, made one at a time as a reader of the table would hand them on, and the heap sampled between.
    async function* vacancies(): AsyncGenerator<IndeedVacancy> {
      for (let n = 0; n < JOBS; n += 1) {
        if (n % SAMPLE_EVERY === 0) samples.push(liveHeapBytes());
        yield { ...BASE, id: JOBS - n, title: `Backend developer ${JOBS - n}` };
      }
      samples.push(liveHeapBytes());
    }
    async function* counted(chunks: AsyncIterable<string>): AsyncGenerator<string> {
      for await (const chunk of chunks) {
        written += Buffer.byteLength(chunk);
        yield chunk;
      }
    }
    let compressed = 0;
    await pipeline(
      Readable.from(counted(indeedFeed(HEAD, SETTINGS, vacancies()))),
      createGzip({ level: 1 }),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          compressed += chunk.length;
          done();
        },
      }),
    );

    // From the first sample after the start (the writer and the stream warmed up) to the highest later one.
    const [, warm = 0, ...later] = samples;
    const growth = Math.max(...later) - warm;
    const bound = written / 100;
    expect(samples).toHaveLength(JOBS / SAMPLE_EVERY + 1);
    expect(written).toBeGreaterThan(JOBS * 1_000);
    expect(compressed).toBeGreaterThan(0);
    // Measured: about 70 kB of growth for 244 MB written, against a bound of 2.4 MB.
    expect(growth).toBeLessThan(bound);
  });
});
