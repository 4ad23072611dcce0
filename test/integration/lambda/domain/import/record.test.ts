import { describe, expect, it } from '@jest/globals';
import {
  isCalendarDate,
  MAX_VACANCY_RESPONSE_BYTES,
  vacancyResponseBytes,
  validateVacancyRecord,
} from '../../../../../lambda/domain/import/record';
import { zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { CLOCK, fixtureVacancy, LARGEST_TEXTS, vacancyRecord } from '../../../../../testkit/vacancies';

const validate = (overrides: Record<string, unknown>) =>
  validateVacancyRecord(vacancyRecord(overrides), CLOCK);
const reasonsOf = (overrides: Record<string, unknown>) => {
  const result = validate(overrides);
  return result.ok ? [] : result.reasons;
};

describe('validateVacancyRecord', () => {
  it('accepts a valid record, reading created_at in the service time zone', () => {
    const result = validate({});
    expect(result.ok).toBe(true);
    expect(result.ok && result.vacancy.created_at.toISOString()).toBe('2026-01-10T05:30:00.000Z');
  });

  it('accepts ISO 8601 with an offset for created_at, and absent nullable fields as null', () => {
    const input = vacancyRecord({ created_at: '2026-01-10T09:30:00+04:00', salary_type: 'negotiable' });
    for (const name of ['salary_min', 'salary_max', 'salary', 'experience_max']) delete input[name];
    const result = validateVacancyRecord(input, CLOCK);
    expect(result).toMatchObject({
      ok: true,
      vacancy: { salary: null, salary_min: null, experience_max: null },
    });
    expect(result.ok && result.vacancy.created_at.toISOString()).toBe('2026-01-10T05:30:00.000Z');
  });

  it.each([
    [{ id: 0 }, 'id must be an integer from 1 to 9007199254740991'],
    [{ id: '7' }, 'id must be an integer from 1'],
    [{ id: 1.5 }, 'id must be an integer from 1'],
    [{ id: 2 ** 53 }, 'id must be an integer from 1 to 9007199254740991'],
    [{ vendor_id: 'Acme' }, 'vendor_id is not valid'],
    [{ vendor_id: '-acme' }, 'vendor_id is not valid'],
    [{ vendor_id: 'a' }, 'vendor_id is not valid'],
    [{ status: 'archived' }, 'status must be one of active, inactive, draft, closed'],
    [{ title: '' }, 'title must not be empty'],
    [{ description: null }, 'description must be a string'],
    [{ url: 'ftp://example.com/x' }, 'url must be an absolute http(s) URL'],
    [{ url: '/jobs/1' }, 'url must be an absolute http(s) URL'],
    [{ url: 'javascript:alert(1)' }, 'url must be an absolute http(s) URL'],
    [{ url: 42 }, 'url must be an absolute http(s) URL'],
    [{ url: 'https://user:secret@example.com/jobs/1' }, 'url must not contain a user name or password'],
    [{ url: 'https://user@example.com/jobs/1' }, 'url must not contain a user name or password'],
    [{ url: 'https://example.com/jobs/\u0007' }, 'url must not contain control characters'],
    [{ url: 'https://example.com/jobs/\ud800' }, 'url must be valid Unicode text'],
    // 700 characters as given, 4,200 once percent-encoded as stored.
    [
      { url: `https://example.com/${'ə'.repeat(700)}` },
      'url must be at most 2048 characters once normalized',
    ],
    [{ category: 'astronomy' }, 'category must be a category code of the dictionary'],
    [{ category: '__proto__' }, 'category must be a category code of the dictionary'],
    [{ city: 'Baku' }, 'city must be a city code of the dictionary'],
    [{ type: 5 }, 'type must be one of 1, 2, 3, 4'],
    [{ salary_type: 'hourly' }, 'salary_type must be one of range, fixed, negotiable'],
    [{ salary_min: -1 }, 'salary_min must be an integer of at least 0, or null'],
    [{ salary_max: null }, 'a range salary needs salary_min and salary_max'],
    [{ salary: 100 }, 'a range salary must have salary null'],
    [{ salary_min: 4000, salary_max: 3000 }, 'salary_min must not be greater than salary_max'],
    [{ salary_type: 'fixed', salary_min: null, salary_max: null }, 'a fixed salary needs salary'],
    [{ salary_type: 'fixed', salary: 900 }, 'a fixed salary must have salary_min and salary_max null'],
    [{ salary_type: 'negotiable' }, 'a negotiable salary must have salary_min, salary_max and salary null'],
    [{ experience_min: 101 }, 'experience_min must be an integer from 0 to 100'],
    [{ experience_max: 2 }, 'experience_max must not be less than experience_min'],
    [{ experience_max: '5' }, 'experience_max must be an integer from 0 to 100, or null'],
    [{ deadline: '2026-02-30' }, 'deadline must be a real date written YYYY-MM-DD'],
    [{ deadline: '31.12.2026' }, 'deadline must be a real date written YYYY-MM-DD'],
    [{ created_at: '2026-01-10 24:00:00' }, 'created_at must be a real date and time'],
    [{ created_at: '2026-01-10T09:30:00' }, 'created_at must be a real date and time'],
    [{ created_at: '2026-13-10 09:30:00' }, 'created_at must be a real date and time'],
    [{ created_at: '1969-12-31T23:59:59Z' }, 'created_at must not be before 1970-01-01T00:00:00Z'],
    // Baku is UTC+4: local midnight of 1970-01-01 is still 1969 in UTC.
    [{ created_at: '1970-01-01 00:00:00' }, 'created_at must not be before 1970-01-01T00:00:00Z'],
    [{ salaryMin: 10 }, 'unknown field "salaryMin"'],
    [{ title: 'a'.repeat(201) }, 'title must be at most 200 characters'],
    [{ url: `https://example.com/${'a'.repeat(2030)}` }, 'url must be at most 2048 characters'],
    [{ description: 'a'.repeat(8001) }, 'description must be at most 8000 characters'],
    // 5,334 three-byte characters: within 8,000 characters, past 16,000 bytes.
    [{ requirements: '€'.repeat(5334) }, 'requirements must be at most 16000 bytes of UTF-8'],
    [{ responsibilities: 'Tab\tand\u0000' }, 'responsibilities must not contain control characters'],
    [{ title: 'Two\nlines' }, 'title must not contain control characters'],
    [{ description: 'half a pair \ud800' }, 'description must be valid Unicode text'],
  ])('rejects %p: %s', (overrides, reason) => {
    expect(reasonsOf(overrides)).toEqual([expect.stringContaining(reason)]);
  });

  it.each([
    // Stored as `http://x/`: 9 characters, where a sitemap's <loc> takes 12 at least.
    ['http://x', 9],
    // 2,022 characters as stored; each | is %7C in a sitemap: 6,022, where a <loc> takes 2,048 at most.
    [`https://ex.example.az/${'|'.repeat(2000)}`, 6022],
    // 2,047 as stored, one character past 2,048 URL-escaped.
    [`https://example.com/${'a'.repeat(2026)}|`, 2049],
  ])('rejects the url %p, whose sitemap location (%p characters) the sitemaps XSD refuses', (url, length) => {
    expect(reasonsOf({ url })).toEqual([
      `url must be 12 to 2048 characters URL-escaped, as a sitemap lists it (${length})`,
    ]);
  });

  it('accepts a url whose sitemap location is 12 or 2,048 characters', () => {
    expect(validate({ url: 'http://a.az/' }).ok).toBe(true);
    expect(validate({ url: `https://example.com/${'a'.repeat(2028)}` }).ok).toBe(true);
    expect(validate({ url: `https://example.com/${'a'.repeat(2025)}|` }).ok).toBe(true);
  });

  it('accepts the largest texts the limits allow, and tabs and line breaks in long texts', () => {
    expect(validate(LARGEST_TEXTS).ok).toBe(true);
    expect(validate({ description: 'Line one\r\nline two\tend' }).ok).toBe(true);
    expect(validate({ requirements: '€'.repeat(5333) }).ok).toBe(true);
    expect(validate({ created_at: '1970-01-01T00:00:00Z' }).ok).toBe(true);
    expect(validate({ id: Number.MAX_SAFE_INTEGER }).ok).toBe(true);
  });

  it.each([
    [
      'https://example.az/jobs/1?a=</script><script>alert(2)</script>',
      'https://example.az/jobs/1?a=%3C/script%3E%3Cscript%3Ealert(2)%3C/script%3E',
    ],
    [
      'HTTPS://Careers.Example.AZ:443/jobs/../a b?q="x"#<top>',
      'https://careers.example.az/a%20b?q=%22x%22#%3Ctop%3E',
    ],
    ['http://example.az:80', 'http://example.az/'],
    ['https://bücher.example/ə', 'https://xn--bcher-kva.example/%C9%99'],
  ])('stores the url %p in its normalized form %p', (url, stored) => {
    const result = validate({ url });
    expect(result.ok && result.vacancy.url).toBe(stored);
  });

  it('counts characters as Unicode code points, not UTF-16 units', () => {
    // 200 emoji are 400 UTF-16 units but 200 characters.
    expect(validate({ title: '🙂'.repeat(200) }).ok).toBe(true);
    expect(reasonsOf({ title: '🙂'.repeat(201) })).toEqual(['title must be at most 200 characters']);
  });

  it('refuses a vacancy whose texts, within their limits, would still take too much of a response', () => {
    // 8,000 quotes are 8,000 bytes of UTF-8, but four bytes each in a Lambda response.
    const quotes = '"'.repeat(8000);
    const reasons = reasonsOf({ description: quotes, requirements: quotes, responsibilities: quotes });
    expect(reasons).toEqual([
      expect.stringMatching(/^the vacancy would take \d+ bytes of a response, more than 60000/),
    ]);
    expect(validate({ description: quotes }).ok).toBe(true);
  });

  it('keeps the largest allowed vacancy under the response budget', () => {
    const bytes = vacancyResponseBytes(fixtureVacancy(vacancyRecord(LARGEST_TEXTS)));
    expect(bytes).toBeGreaterThan(50_000);
    expect(bytes).toBeLessThanOrEqual(MAX_VACANCY_RESPONSE_BYTES);
  });

  it('refuses created_at without an offset when the service time zone is unknown, and reads one with an offset', () => {
    expect(validateVacancyRecord(vacancyRecord(), undefined)).toEqual({
      ok: false,
      reasons: [expect.stringMatching(/created_at has no offset.*--time-zone/)],
    });
    expect(validateVacancyRecord(vacancyRecord({ created_at: '2026-01-10T09:30:00Z' }), undefined).ok).toBe(
      true,
    );
  });

  it('reads created_at without an offset in the zone it is given', () => {
    const result = validateVacancyRecord(vacancyRecord(), zoneClock('Europe/Berlin'));
    expect(result.ok && result.vacancy.created_at.toISOString()).toBe('2026-01-10T08:30:00.000Z');
  });

  it('reports every broken rule of a record, not only the first', () => {
    expect(reasonsOf({ id: -1, type: 9, city: 'x' })).toHaveLength(3);
  });

  it('takes pay and place as given, and leaves out what is absent or null (the defaults)', () => {
    const given = validate({ salary_currency: 'EUR', salary_period: 'year', workplace: 'hybrid' });
    expect(given).toMatchObject({
      ok: true,
      vacancy: { salary_currency: 'EUR', salary_period: 'year', workplace: 'hybrid' },
    });
    const left = validate({ salary_currency: null, salary_period: null, workplace: null });
    expect(left.ok).toBe(true);
    for (const name of ['salary_currency', 'salary_period', 'workplace']) {
      expect(left.ok && Object.hasOwn(left.vacancy, name)).toBe(false);
      expect(Object.hasOwn((validate({}) as { vacancy: object }).vacancy, name)).toBe(false);
    }
    expect(validate({ type: 3, workplace: 'remote' }).ok).toBe(true);
  });

  it.each([
    [
      { salary_currency: 'azn' },
      'salary_currency must be an ISO 4217 currency code in capitals, such as AZN',
    ],
    [
      { salary_currency: 'ABC' },
      'salary_currency must be an ISO 4217 currency code in capitals, such as AZN',
    ],
    [{ salary_currency: 944 }, 'salary_currency must be an ISO 4217 currency code in capitals, such as AZN'],
    [{ salary_period: 'MONTH' }, 'salary_period must be one of hour, day, week, month, year'],
    [{ salary_period: 'fortnight' }, 'salary_period must be one of hour, day, week, month, year'],
    [{ workplace: 'office' }, 'workplace must be one of onsite, hybrid, remote'],
    [{ type: 3, workplace: 'hybrid' }, 'a type 3 (Remote) vacancy must have workplace remote'],
    [{ type: 3, workplace: 'onsite' }, 'a type 3 (Remote) vacancy must have workplace remote'],
  ])('rejects pay and place %j in one line', (overrides, reason) => {
    expect(reasonsOf(overrides)).toEqual([reason]);
  });

  it('takes additional cities as given, in their order, and leaves out none given or an empty list', () => {
    expect(validate({ city: 'baku', additional_cities: ['sumgait', 'ganja'] })).toMatchObject({
      ok: true,
      vacancy: { city: 'baku', additional_cities: ['sumgait', 'ganja'] },
    });
    for (const overrides of [{}, { additional_cities: [] }]) {
      const result = validate(overrides);
      expect(result.ok && Object.hasOwn(result.vacancy, 'additional_cities')).toBe(false);
    }
    // Every other city of the dictionary, eleven of them: within the limit.
    const others = ['ganja', 'sumgait', 'mingachevir', 'lankaran', 'shaki', 'shirvan', 'nakhchivan'];
    expect(
      validate({ city: 'baku', additional_cities: [...others, 'quba', 'khirdalan', 'gabala', 'shamakhi'] })
        .ok,
    ).toBe(true);
  });

  it.each([
    [{ additional_cities: null }, ['additional_cities must be an array of city codes of the dictionary']],
    [{ additional_cities: 'ganja' }, ['additional_cities must be an array of city codes of the dictionary']],
    [
      { additional_cities: { 0: 'ganja' } },
      ['additional_cities must be an array of city codes of the dictionary'],
    ],
    [
      { additional_cities: ['ganja', 'paris'] },
      ['additional_cities[1] must be a city code of the dictionary'],
    ],
    [{ additional_cities: ['Ganja'] }, ['additional_cities[0] must be a city code of the dictionary']],
    [
      { additional_cities: [7, ''] },
      [
        'additional_cities[0] must be a city code of the dictionary',
        'additional_cities[1] must be a city code of the dictionary',
      ],
    ],
    [
      { additional_cities: ['ganja', 'quba', 'ganja'] },
      ['additional_cities[2] repeats ganja: name each city once'],
    ],
    [
      { city: 'baku', additional_cities: ['ganja', 'baku'] },
      ['additional_cities[1] is the primary city (baku): list it in city only'],
    ],
    [
      { additional_cities: Array.from({ length: 20 }, () => 'ganja') },
      ['additional_cities must have at most 19 cities'],
    ],
    [
      { additional_cities: Array.from({ length: 100_000 }, () => 'x') },
      ['additional_cities must have at most 19 cities'],
    ],
  ])('rejects additional cities %j in one line, naming the field', (overrides, reasons) => {
    expect(reasonsOf(overrides)).toEqual(reasons);
  });

  it('keeps the largest allowed vacancy in every city under the response budget, locations and all', () => {
    const others = ['ganja', 'sumgait', 'mingachevir', 'lankaran', 'shaki', 'shirvan', 'nakhchivan', 'quba'];
    const everywhere = { city: 'baku', additional_cities: [...others, 'khirdalan', 'gabala', 'shamakhi'] };
    const alone = vacancyResponseBytes(fixtureVacancy(vacancyRecord(LARGEST_TEXTS)));
    const bytes = vacancyResponseBytes(fixtureVacancy(vacancyRecord({ ...LARGEST_TEXTS, ...everywhere })));
    // Each city's label and code, escaped twice, in the longer locale.
    expect(bytes).toBeGreaterThan(alone + 11 * 40);
    expect(bytes).toBeLessThanOrEqual(MAX_VACANCY_RESPONSE_BYTES);
  });

  it('rejects what is not an object', () => {
    expect(validateVacancyRecord([1], CLOCK)).toEqual({
      ok: false,
      reasons: ['a record must be a JSON object'],
    });
    expect(validateVacancyRecord('x', CLOCK).ok).toBe(false);
  });

  it('knows the calendar', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-1-1')).toBe(false);
    expect(isCalendarDate('0099-01-01')).toBe(true);
  });
});
