/**
 * The `indeed` feed over hostile values fast-check makes up — in every text a feed carries (title, URL, the three
 * texts, codes missing from the dictionary, the company, the publisher's URL, the deployment's country and currency):
 * `]]>`, markup, controls, U+FFFE, lone surrogates, right-to-left marks, 8,000-character runs. The feed is
 * well-formed to libxml2, and every value of every job reads back — through libxml2's canonical form and through
 * fast-xml-parser — as what the API serves (the vacancy object's values, the JobPosting's description) less the
 * characters XML 1.0 cannot carry.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  experienceWording,
  type FeedSettings,
  type IndeedFeedHead,
  type IndeedVacancy,
  indeedFeed,
  salaryWording,
} from '../../../../../lambda/domain/feed-formats/indeed';
import { LOCALES, VACANCY_TYPES } from '../../../../../lambda/domain/schema/vacancy';
import { toVacancyItem, utcInstant } from '../../../../../lambda/domain/schema/vacancy-item';
import { DICTIONARY } from '../../../../../lambda/domain/vacancy/dictionary';
import { toJobPosting } from '../../../../../lambda/domain/vacancy/job-posting';
import { toVacancyObjects } from '../../../../../lambda/domain/vacancy/presenter';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';
import { canonicalForm, hostileText, parseXml, xmlCarries } from '../../../../../testkit/xml';

const BASE = toVacancyItem(fixtureVacancy(vacancyRecord()), 0) as unknown as IndeedVacancy;

/** A dictionary code, or hostile text standing for one the dictionary lacks (the API then shows the code). */
const code = (kind: 'city' | 'category') =>
  fc.oneof(fc.constantFrom(...Object.keys(DICTIONARY[kind])), hostileText);

const amount = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const salary = fc.oneof(
  fc.tuple(amount, amount).map(([a, b]) => ({
    salary_type: 'range' as const,
    salary_min: Math.min(a, b),
    salary_max: Math.max(a, b),
  })),
  amount.map((value) => ({ salary_type: 'fixed' as const, salary: value })),
  fc.constant({ salary_type: 'negotiable' as const }),
);
const experience = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }))
  .map(([min, max]) => ({
    experience_min: max === undefined ? min : Math.min(min, max),
    ...(max !== undefined && { experience_max: Math.max(min, max) }),
  }));
const instant = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2100-12-31T23:59:59Z'),
  noInvalidDate: true,
});

/** A vacancy item with hostile texts and codes, any type, salary and experience. */
const hostileVacancy: fc.Arbitrary<IndeedVacancy> = fc
  .record({
    id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    title: hostileText,
    url: hostileText,
    description: hostileText,
    requirements: hostileText,
    responsibilities: hostileText,
    city: code('city'),
    category: code('category'),
    type: fc.constantFrom(...VACANCY_TYPES),
    salary,
    experience,
    created: instant,
    deadline: instant.map((date) => date.toISOString().slice(0, 10)),
    pay: fc.record(
      {
        salary_currency: hostileText,
        salary_period: fc.constantFrom('hour', 'day', 'week', 'month', 'year' as const),
        workplace: fc.constantFrom('onsite', 'hybrid', 'remote' as const),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ salary: pay, experience: range, created, pay: terms, ...fields }) => {
    const { salary_min: _min, salary_max: _max, salary: _salary, experience_max: _exp, ...base } = BASE;
    // The Remote type's workplace is remote (an import refuses another).
    const place = fields.type === 3 && terms.workplace !== undefined ? { workplace: 'remote' as const } : {};
    return {
      ...base,
      ...fields,
      ...pay,
      ...range,
      ...terms,
      ...place,
      created_at: utcInstant(created),
    } as IndeedVacancy;
  });

const head: fc.Arbitrary<IndeedFeedHead> = fc.record({
  company: hostileText,
  website: fc.option(hostileText, { nil: undefined }),
  feedUrl: hostileText,
  builtAt: instant,
  locale: fc.constantFrom(...LOCALES),
});

const settings: fc.Arbitrary<FeedSettings> = fc.record({
  jobCountry: hostileText,
  salaryCurrency: hostileText,
  salaryPeriod: fc.constantFrom('HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR' as const),
});

/** What the API serves of a vacancy, as a job of the feed states it (before XML leaves anything out). */
function served(vacancy: IndeedVacancy, feed: IndeedFeedHead, deployment: FeedSettings) {
  const [shown] = toVacancyObjects([vacancy], feed.locale, CLOCK, {
    include: ['workplace'],
    defaults: deployment,
  });
  if (!shown) throw new Error('no vacancy object');
  const posting = toJobPosting(vacancy, shown, { company: feed.company }, feed.locale, {
    ...deployment,
    clock: CLOCK,
  });
  const jobType = ({ 1: 'fulltime', 2: 'parttime', 4: 'internship' } as Record<number, string>)[vacancy.type];
  return {
    title: shown.title,
    date: new Date(vacancy.created_at).toUTCString(),
    referencenumber: String(shown.id),
    requisitionid: String(shown.id),
    url: shown.url,
    company: feed.company,
    city: shown.city,
    state: '',
    country: deployment.jobCountry,
    postalcode: '',
    description: String(posting.description),
    expirationdate: shown.deadline,
    category: shown.category,
    jobtype: jobType,
    remotetype: (
      { onsite: undefined, hybrid: 'Hybrid remote', remote: 'Fully remote' } as Record<
        string,
        string | undefined
      >
    )[String(shown.workplace)],
    experience: experienceWording(vacancy.experience_min, vacancy.experience_max ?? null),
    salary: salaryWording(vacancy, deployment),
  };
}

/** Each value less what XML cannot carry; absent values left absent. */
const carried = (values: Record<string, string | undefined>) =>
  Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, xmlCarries(value as string)]),
  );

/** The elements of a job, §15's. */
const JOB_ELEMENTS = [
  'title',
  'date',
  'referencenumber',
  'requisitionid',
  'url',
  'company',
  'city',
  'state',
  'country',
  'postalcode',
  'description',
  'expirationdate',
  'category',
  'jobtype',
  'remotetype',
  'experience',
  'salary',
];

/** The feed's publisher and jobs, as fast-xml-parser reads a document. */
function readBack(text: string) {
  const { source } = parseXml(text, ['job']) as {
    source: Record<string, string> & { job?: Record<string, string>[] };
  };
  const pick = (element: Record<string, string>, names: readonly string[]) =>
    Object.fromEntries(names.filter((name) => name in element).map((name) => [name, String(element[name])]));
  return {
    head: pick(source, ['publisher', 'publisherurl', 'lastBuildDate']),
    jobs: (source.job ?? []).map((job) => pick(job, JOB_ELEMENTS)),
  };
}

describe('the indeed feed over hostile values', () => {
  it('reads back as what the API serves, less what XML cannot carry, through libxml2 and fast-xml-parser', async () => {
    await fc.assert(
      fc.asyncProperty(
        head,
        settings,
        fc.array(hostileVacancy, { minLength: 0, maxLength: 3 }),
        async (feed, deployment, vacancies) => {
          const chunks: string[] = [];
          for await (const chunk of indeedFeed(feed, deployment, vacancies)) chunks.push(chunk);
          const text = chunks.join('');
          expect(text.isWellFormed()).toBe(true);
          const expected = {
            head: carried({
              publisher: feed.company,
              publisherurl: feed.website || feed.feedUrl,
              lastBuildDate: feed.builtAt.toUTCString(),
            }),
            jobs: vacancies.map((vacancy) => carried(served(vacancy, feed, deployment))),
          };
          expect(readBack(await canonicalForm(text))).toEqual(expected);
          expect(readBack(text)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
