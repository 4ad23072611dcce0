/**
 * The JobPosting (docs/api.md#jobposting): properties over vacancies fast-check makes up, in zones with and without
 * daylight saving — every required property there and well typed by Google's rules, every text escaped, the dates
 * at the right instant with the zone's offset then — and a fixture per type and salary kind. And the `Accept`
 * negotiation that chooses it.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { LOCALES, type Locale } from '../../../../../lambda/domain/schema/vacancy';
import { toVacancyItem, withCities } from '../../../../../lambda/domain/schema/vacancy-item';
import {
  type JobPostingSettings,
  textToHtml,
  toJobPosting,
} from '../../../../../lambda/domain/vacancy/job-posting';
import { toVacancyObjects } from '../../../../../lambda/domain/vacancy/presenter';
import { prefersJsonLd } from '../../../../../lambda/platform/http/accept';
import { zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { jobPostingProblems } from '../../../../../testkit/job-posting-rules';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

const ZONES = ['Asia/Baku', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];
const SETTINGS = { jobCountry: 'AZ', salaryCurrency: 'AZN', salaryPeriod: 'MONTH' } as const;
const ORGANIZATION = { company: 'Pasha Bank' };

/** The JobPosting of an import record, as the route writes it. */
function posting(
  record: Record<string, unknown>,
  locale: Locale = 'en',
  zone = 'Asia/Baku',
  organization: { company: string; website?: string; logo?: string } = ORGANIZATION,
) {
  const clock = zoneClock(zone);
  const item = withCities(toVacancyItem(fixtureVacancy(record, clock), 0));
  const [shown] = toVacancyObjects([item], locale, clock);
  const settings: JobPostingSettings = { ...SETTINGS, clock };
  return toJobPosting(item, shown as NonNullable<typeof shown>, organization, locale, settings);
}

/** What a text becomes once its HTML is read back: the entities decoded, each `<br>` a line break. */
const readBack = (html: string) =>
  html
    .replaceAll('<br>', '\n')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** Texts full of what HTML and JSON treat specially. */
const nastyText = fc
  .array(
    fc.constantFrom('a', 'ə', ' ', '<', '>', '&', '"', "'", '\n', '\r\n', '</p>', '<script>', '&amp;', '\\'),
    {
      minLength: 1,
      maxLength: 30,
    },
  )
  .map((parts) => parts.join(''))
  .filter((value) => value.trim() !== '');

const salary = fc.oneof(
  fc.tuple(fc.nat({ max: 10_000 }), fc.nat({ max: 10_000 })).map(([a, b]) => ({
    salary_type: 'range',
    salary_min: Math.min(a, b),
    salary_max: Math.max(a, b),
    salary: null,
  })),
  fc
    .nat({ max: 10_000 })
    .map((amount) => ({ salary_type: 'fixed', salary_min: null, salary_max: null, salary: amount })),
  fc.constant({ salary_type: 'negotiable', salary_min: null, salary_max: null, salary: null }),
);

/** A wall-clock time the zone shows, any day from 2000 to 2040. */
const createdAt = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 19).replace('T', ' '));
const deadline = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

const record = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  // A title is one line (the import refuses control characters in it).
  title: nastyText.map((text) => text.replace(/[\r\n]+/g, ' ')).filter((text) => text.trim() !== ''),
  description: fc.oneof(nastyText, fc.constant('')),
  requirements: fc.oneof(nastyText, fc.constant('')),
  responsibilities: fc.oneof(nastyText, fc.constant('')),
  type: fc.constantFrom(1, 2, 3, 4),
  salary,
  created_at: createdAt,
  deadline,
});

describe('the JobPosting of a vacancy', () => {
  it('has what Google requires, escapes every text, and dates the instants right, in any zone', () => {
    fc.assert(
      fc.property(record, fc.constantFrom(...ZONES), fc.constantFrom(...LOCALES), (drawn, zone, locale) => {
        const { salary: pay, ...rest } = drawn;
        const input = vacancyRecord({ ...rest, ...pay });
        const document = posting(input, locale, zone);
        expect(jobPostingProblems(JSON.parse(JSON.stringify(document)))).toEqual([]);

        // The texts, escaped: no markup but the document's own, and each text read back as it was.
        const markup = String(document.description).replace(/<\/?(?:p|h3)>|<br>/g, '');
        expect(markup).not.toMatch(/[<>]/);
        expect(readBack(String(document.description))).toContain(drawn.description.replaceAll('\r\n', '\n'));
        const untold = [drawn.description, drawn.requirements, drawn.responsibilities].every(
          (text) => text === '',
        );
        expect(document.description).toContain(textToHtml(untold ? drawn.title : drawn.description));
        const headings = locale === 'az' ? ['Tələblər', 'Vəzifələr'] : ['Requirements', 'Responsibilities'];
        expect(String(document.description).includes(`<h3>${headings[0]}</h3>`)).toBe(
          drawn.requirements !== '',
        );
        expect(String(document.description).includes(`<h3>${headings[1]}</h3>`)).toBe(
          drawn.responsibilities !== '',
        );

        // datePosted is created_at (a wall time in the zone), stated with the zone's offset at that instant.
        const clock = zoneClock(zone);
        const posted = new Date(Date.parse(String(document.datePosted)));
        expect(posted.getTime()).toBe(clock.fromLocal(drawn.created_at).getTime());
        // validThrough is the last second of the deadline day there.
        const valid = new Date(Date.parse(String(document.validThrough)));
        expect(clock.format(valid)).toBe(`${drawn.deadline} 23:59:59`);
        expect(String(document.validThrough).slice(0, 19)).toBe(`${drawn.deadline}T23:59:59`);
        expect(document.inLanguage).toBe(locale);
      }),
      { numRuns: 300 },
    );
  });

  it('states the offset in force at each instant: summer and winter in New York, Baku all year', () => {
    const at = (zone: string, created: string) =>
      String(posting(vacancyRecord({ created_at: created }), 'en', zone).datePosted);
    expect(at('America/New_York', '2026-01-15 09:00:00')).toBe('2026-01-15T09:00:00-05:00');
    expect(at('America/New_York', '2026-07-15 09:00:00')).toBe('2026-07-15T09:00:00-04:00');
    expect(at('Asia/Baku', '2026-07-15 09:00:00')).toBe('2026-07-15T09:00:00+04:00');
    expect(at('Asia/Kolkata', '2026-07-15 09:00:00')).toBe('2026-07-15T09:00:00+05:30');
  });

  it('is the contract’s example for a full-time vacancy with a fixed salary', () => {
    const document = posting(
      vacancyRecord({
        id: 1028,
        title: 'QA Automation Engineer',
        url: 'https://careers.pasha-bank.example.az/en/vacancies/1028',
        description: 'Keep releases safe.',
        requirements: 'Playwright & TypeScript',
        responsibilities: 'Write tests.\nReview them.',
        city: 'gabala',
        type: 1,
        salary_type: 'fixed',
        salary_min: null,
        salary_max: null,
        salary: 1200,
        created_at: '2026-09-20 09:15:00',
        deadline: '2030-12-21',
      }),
      'en',
      'Asia/Baku',
      {
        company: 'Pasha Bank',
        website: 'https://pasha-bank.example.az',
        logo: 'https://pasha-bank.example.az/logo.png',
      },
    );
    expect(JSON.parse(JSON.stringify(document))).toEqual({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      identifier: { '@type': 'PropertyValue', name: 'Pasha Bank', value: '1028' },
      title: 'QA Automation Engineer',
      description:
        '<p>Keep releases safe.</p><h3>Requirements</h3><p>Playwright &amp; TypeScript</p><h3>Responsibilities</h3><p>Write tests.<br>Review them.</p>',
      url: 'https://careers.pasha-bank.example.az/en/vacancies/1028',
      datePosted: '2026-09-20T09:15:00+04:00',
      validThrough: '2030-12-21T23:59:59+04:00',
      employmentType: 'FULL_TIME',
      hiringOrganization: {
        '@type': 'Organization',
        name: 'Pasha Bank',
        sameAs: 'https://pasha-bank.example.az',
        logo: 'https://pasha-bank.example.az/logo.png',
      },
      jobLocation: {
        '@type': 'Place',
        address: { '@type': 'PostalAddress', addressLocality: 'Gabala', addressCountry: 'AZ' },
      },
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: 'AZN',
        value: { '@type': 'QuantitativeValue', value: 1200, unitText: 'MONTH' },
      },
      inLanguage: 'en',
      directApply: false,
    });
  });

  it.each([
    [1, { employmentType: 'FULL_TIME' }],
    [2, { employmentType: 'PART_TIME' }],
    [4, { employmentType: 'INTERN' }],
  ])('gives type %i its employmentType, and no remote work', (type, expected) => {
    const document = posting(vacancyRecord({ type }));
    expect(document).toMatchObject(expected);
    expect(document).not.toHaveProperty('jobLocationType');
    expect(document).not.toHaveProperty('applicantLocationRequirements');
  });

  it('makes type 3 (Remote) a TELECOMMUTE job open to the deployment’s country, still located at the employer', () => {
    const document = posting(vacancyRecord({ type: 3, city: 'baku' }), 'az');
    expect(document).not.toHaveProperty('employmentType');
    expect(document).toMatchObject({
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: 'AZ' },
      jobLocation: { address: { addressLocality: 'Bakı', addressCountry: 'AZ' } },
    });
  });

  it('gives a vacancy in several cities one Place per city, the primary first, in the response’s locale', () => {
    const place = (addressLocality: string) => ({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality, addressCountry: 'AZ' },
    });
    const record = vacancyRecord({ city: 'sumgait', additional_cities: ['baku', 'ganja'] });
    const document = posting(record, 'az');
    expect(document.jobLocation).toEqual([place('Sumqayıt'), place('Bakı'), place('Gəncə')]);
    expect(posting(record, 'en').jobLocation).toEqual([place('Sumgait'), place('Baku'), place('Ganja')]);
    expect(jobPostingProblems(document)).toEqual([]);
    // One city: the Place alone, as before.
    expect(posting(vacancyRecord({ city: 'sumgait', additional_cities: [] })).jobLocation).toEqual(
      place('Sumgait'),
    );
  });

  it.each([
    [
      { salary_type: 'range', salary_min: 800, salary_max: 1500, salary: null },
      { minValue: 800, maxValue: 1500 },
    ],
    [{ salary_type: 'fixed', salary_min: null, salary_max: null, salary: 1200 }, { value: 1200 }],
  ])('states a known salary: %j', (pay, amounts) => {
    expect(posting(vacancyRecord(pay)).baseSalary).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'AZN',
      value: { '@type': 'QuantitativeValue', ...amounts, unitText: 'MONTH' },
    });
  });

  it('leaves a negotiable salary out, and the organization’s links when the operator set none', () => {
    const document = posting(
      vacancyRecord({ salary_type: 'negotiable', salary_min: null, salary_max: null, salary: null }),
    );
    expect(document).not.toHaveProperty('baseSalary');
    expect(document.hiringOrganization).toEqual({ '@type': 'Organization', name: 'Pasha Bank' });
  });

  it('leaves an empty section out of the description, and describes a vacancy with no text by its title', () => {
    const document = posting(vacancyRecord({ requirements: '', responsibilities: '' }));
    expect(document.description).toBe('<p>Build the APIs our customers use.</p>');
    const untold = posting(
      vacancyRecord({ title: 'Courier <night>', description: '', requirements: '', responsibilities: '' }),
    );
    expect(untold.description).toBe('<p>Courier &lt;night&gt;</p>');
    expect(jobPostingProblems(untold)).toEqual([]);
  });
});

describe('choosing the JobPosting by Accept', () => {
  it.each([
    ['application/ld+json', true],
    ['Application/LD+JSON', true],
    ['application/ld+json, application/json;q=0.9', true],
    ['application/json;q=0.5, application/ld+json', true],
    ['application/ld+json;q=0.8, */*;q=0.1', true],
    [undefined, false],
    ['', false],
    ['application/json', false],
    ['*/*', false],
    ['application/*', false],
    ['application/ld+json, application/json', false],
    ['application/ld+json;q=0.5, application/json', false],
    ['application/ld+json;q=0', false],
    ['application/ld+json;q=2', false],
    ['text/html', false],
  ])('Accept: %s → JobPosting %s', (accept, expected) => {
    expect(prefersJsonLd(accept)).toBe(expected);
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (accept) => typeof prefersJsonLd(accept) === 'boolean'),
    );
  });
});
