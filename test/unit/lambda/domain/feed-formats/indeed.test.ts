/**
 * The `indeed` feed (docs/design.md#feeds-as-xml): a whole feed as written, then each mapping — `<jobtype>` and
 * `<remotetype>` by workplace, `<experience>` and `<salary>` wording (the deployment's currency and period, or the
 * vacancy's), `<publisherurl>`, labels in the feed's locale as the vacancy object shows them, the description as the
 * JobPosting's — and the stream: the opening, one chunk a job in the order given, the closing, read by libxml2.
 */
import { describe, expect, it } from '@jest/globals';
import {
  experienceWording,
  type FeedSettings,
  INDEED_FEED_END,
  type IndeedFeedHead,
  type IndeedVacancy,
  indeedFeed,
  indeedFeedStart,
  indeedJobs,
  salaryWording,
} from '../../../../../lambda/domain/feed-formats/indeed';
import type { Locale } from '../../../../../lambda/domain/schema/vacancy';
import { toVacancyItem, withCities } from '../../../../../lambda/domain/schema/vacancy-item';
import { toJobPosting } from '../../../../../lambda/domain/vacancy/job-posting';
import { toVacancyObjects } from '../../../../../lambda/domain/vacancy/presenter';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';
import { canonicalForm, parseXml } from '../../../../../testkit/xml';

const SETTINGS: FeedSettings = { jobCountry: 'AZ', salaryCurrency: 'AZN', salaryPeriod: 'MONTH' };
const HEAD: IndeedFeedHead = {
  company: 'Acme',
  feedUrl: 'https://feeds.example.az/feeds/abc/indeed.xml',
  builtAt: new Date('2026-11-23T10:15:30.123Z'),
  locale: 'en',
};

/** A vacancy item as the table holds it, from an import record's fields. */
const item = (overrides: Record<string, unknown> = {}): IndeedVacancy =>
  withCities(toVacancyItem(fixtureVacancy(vacancyRecord(overrides)), 0));

/** The values of the one `<job>` a feed of `vacancy` has, as fast-xml-parser reads them. */
function jobOf(vacancy: IndeedVacancy, head = HEAD, settings = SETTINGS): Record<string, string> {
  const text = indeedFeedStart(head) + indeedJobs(vacancy, head, settings) + INDEED_FEED_END;
  const { job } = (parseXml(text, ['job']) as { source: { job: Record<string, string>[] } }).source;
  return job[0] as Record<string, string>;
}

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

describe('the indeed feed', () => {
  it('is written as §15 lists it', () => {
    const text = indeedFeedStart(HEAD) + indeedJobs(item(), HEAD, SETTINGS) + INDEED_FEED_END;
    expect(text).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<source>',
        '  <publisher><![CDATA[Acme]]></publisher>',
        '  <publisherurl><![CDATA[https://feeds.example.az/feeds/abc/indeed.xml]]></publisherurl>',
        '  <lastBuildDate><![CDATA[Mon, 23 Nov 2026 10:15:30 GMT]]></lastBuildDate>',
        '  <job>',
        '    <title><![CDATA[Backend developer]]></title>',
        '    <date><![CDATA[Sat, 10 Jan 2026 05:30:00 GMT]]></date>',
        '    <referencenumber><![CDATA[1]]></referencenumber>',
        '    <requisitionid><![CDATA[1]]></requisitionid>',
        '    <url><![CDATA[https://careers.example.com/jobs/1]]></url>',
        '    <company><![CDATA[Acme]]></company>',
        '    <city><![CDATA[Baku]]></city>',
        '    <state/>',
        '    <country><![CDATA[AZ]]></country>',
        '    <postalcode/>',
        '    <description><![CDATA[<p>Build the APIs our customers use.</p><h3>Requirements</h3><p>Three years of TypeScript.</p><h3>Responsibilities</h3><p>Design, build and run services.</p>]]></description>',
        '    <expirationdate><![CDATA[2099-12-31]]></expirationdate>',
        '    <category><![CDATA[Information Technology]]></category>',
        '    <jobtype><![CDATA[fulltime]]></jobtype>',
        '    <experience><![CDATA[3-6 years]]></experience>',
        '    <salary><![CDATA[2000-3500 AZN per month]]></salary>',
        '  </job>',
        '</source>',
        '',
      ].join('\n'),
    );
  });

  it('names the vendor’s website as the publisher’s URL when the operator set one', () => {
    const head = { ...HEAD, website: 'https://acme.example.az' };
    expect(indeedFeedStart(head)).toContain(
      '<publisherurl><![CDATA[https://acme.example.az]]></publisherurl>',
    );
  });

  it('maps each type to a job type, and Remote to a remote type instead', () => {
    const types = [1, 2, 3, 4].map((type) => {
      const job = jobOf(item({ type }));
      return [type, job.jobtype, job.remotetype];
    });
    expect(types).toEqual([
      [1, 'fulltime', undefined],
      [2, 'parttime', undefined],
      [3, undefined, 'Fully remote'],
      [4, 'internship', undefined],
    ]);
  });

  it('states where the work is done by the workplace: hybrid and remote, whatever the type', () => {
    const place = (fields: Record<string, unknown>) => jobOf(item(fields)).remotetype;
    expect(place({ type: 1, workplace: 'hybrid' })).toBe('Hybrid remote');
    expect(place({ type: 2, workplace: 'remote' })).toBe('Fully remote');
    expect(place({ type: 4, workplace: 'onsite' })).toBeUndefined();
    expect(jobOf(item({ type: 1, workplace: 'remote' })).jobtype).toBe('fulltime');
  });

  it('words the experience asked for, and leaves it out when any will do', () => {
    expect(experienceWording(3, null)).toBe('3+ years');
    expect(experienceWording(2, 5)).toBe('2-5 years');
    expect(experienceWording(0, 5)).toBe('0-5 years');
    expect(experienceWording(1, 1)).toBe('1 year');
    expect(experienceWording(4, 4)).toBe('4 years');
    expect(experienceWording(0, 0)).toBe('0 years');
    expect(experienceWording(0, null)).toBeUndefined();
    expect(jobOf(item({ experience_min: 0, experience_max: null })).experience).toBeUndefined();
    expect(jobOf(item({ experience_min: 5, experience_max: null })).experience).toBe('5+ years');
  });

  it('states the salary only when it is known, in the deployment’s currency and period', () => {
    const fixed = item({ salary_type: 'fixed', salary: 1200, salary_min: null, salary_max: null });
    const range = item({ salary_type: 'range', salary_min: 1000, salary_max: 1500, salary: null });
    const negotiable = item({ salary_type: 'negotiable', salary_min: null, salary_max: null, salary: null });
    expect(salaryWording(fixed, SETTINGS)).toBe('1200 AZN per month');
    expect(salaryWording(range, SETTINGS)).toBe('1000-1500 AZN per month');
    expect(salaryWording(negotiable, SETTINGS)).toBeUndefined();
    expect(jobOf(negotiable).salary).toBeUndefined();
    expect(salaryWording(fixed, { ...SETTINGS, salaryCurrency: 'EUR', salaryPeriod: 'YEAR' })).toBe(
      '1200 EUR per year',
    );
  });

  it('takes a vacancy’s own currency and period over the deployment’s', () => {
    const fixed = item({ salary_type: 'fixed', salary: 25, salary_min: null, salary_max: null });
    const own: IndeedVacancy = { ...fixed, salary_currency: 'USD', salary_period: 'hour' };
    expect(salaryWording(own, SETTINGS)).toBe('25 USD per hour');
    expect(salaryWording({ ...fixed, salary_period: 'week' }, SETTINGS)).toBe('25 AZN per week');
  });

  it.each(['az', 'en'] as const)(
    'shows labels and the description as the API does in %s',
    (locale: Locale) => {
      const vacancies: IndeedVacancy[] = [
        item({ city: 'gabala', category: 'customer-service', type: 3 }),
        item({
          city: 'shaki',
          category: 'hr',
          description: '',
          requirements: '',
          responsibilities: 'a < b\r\nc',
        }),
        // Codes the dictionary lacks (stored before it changed): the code itself, as the API shows it.
        { ...item(), city: 'atlantis', category: 'alchemy' },
      ];
      for (const vacancy of vacancies) {
        const [shown] = toVacancyObjects([vacancy], locale, CLOCK);
        if (!shown) throw new Error('no vacancy object');
        const posting = toJobPosting(vacancy, shown, { company: 'Acme' }, locale, {
          ...SETTINGS,
          clock: CLOCK,
        });
        const job = jobOf(vacancy, { ...HEAD, locale });
        expect([job.city, job.category, job.description]).toEqual([
          shown.city,
          shown.category,
          posting.description,
        ]);
        expect(job.expirationdate).toBe(shown.deadline);
        expect(job.title).toBe(shown.title);
        expect(job.url).toBe(shown.url);
      }
    },
  );

  it('streams the opening, one chunk a job in the order given, and the closing — read whole by libxml2', async () => {
    const vacancies = [item({ id: 3 }), item({ id: 2, type: 3 }), item({ id: 1, type: 4 })];
    async function* read() {
      yield* vacancies;
    }
    const chunks = await collect(indeedFeed(HEAD, SETTINGS, read()));
    expect(chunks).toHaveLength(5);
    expect(chunks[0]).toBe(indeedFeedStart(HEAD));
    expect(chunks.slice(1, 4)).toEqual(vacancies.map((vacancy) => indeedJobs(vacancy, HEAD, SETTINGS)));
    expect(chunks[4]).toBe(INDEED_FEED_END);
    const read_back = parseXml(await canonicalForm(chunks.join('')), ['job']) as {
      source: { job: Record<string, string>[] };
    };
    expect(read_back.source.job.map((job) => job.referencenumber)).toEqual(['3', '2', '1']);
  });

  it('has one job per city of a vacancy: the primary’s reference the id, each other’s the id and its code', async () => {
    const vacancy = item({ id: 7, city: 'sumgait', additional_cities: ['baku', 'ganja'] });
    const text = (await collect(indeedFeed({ ...HEAD, locale: 'az' }, SETTINGS, [vacancy]))).join('');
    const read = parseXml(await canonicalForm(text), ['job']) as {
      source: { job: Record<string, string>[] };
    };
    expect(
      read.source.job.map(({ referencenumber, requisitionid, city }) => [
        referencenumber,
        requisitionid,
        city,
      ]),
    ).toEqual([
      ['7', '7', 'Sumqayıt'],
      ['7-baku', '7', 'Bakı'],
      ['7-ganja', '7', 'Gəncə'],
    ]);
    // The same job in each: but for its reference and city, every value alike.
    const [first, ...others] = read.source.job.map(({ referencenumber, city, ...rest }) => rest);
    for (const other of others) expect(other).toEqual(first);
    expect(first?.url).toBe(vacancy.url);
    // One city: one job, as before.
    expect(
      indeedJobs(item({ id: 7, city: 'sumgait', additional_cities: [] }), HEAD, SETTINGS).match(/<job>/g),
    ).toHaveLength(1);
  });

  it('is a source with no job for a vendor with nothing listable', async () => {
    const text = (await collect(indeedFeed(HEAD, SETTINGS, []))).join('');
    const read = parseXml(await canonicalForm(text), ['job']) as { source: Record<string, unknown> };
    expect(read.source.publisher).toBe('Acme');
    expect(read.source.job).toBeUndefined();
  });
});
