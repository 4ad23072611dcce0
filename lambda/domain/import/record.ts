/**
 * The rules of an import record (docs/operating.md#imports): every field checked, every broken rule
 * reported in plain words. Shared by the ops CLI and the inbox function (`lambda/functions/inbox/`), so that both import by the same rules.
 */

import { type ZoneClock, zoneClock } from '../../platform/time/zone-clock';
import { SITEMAP_LOCATION_CHARACTERS, sitemapLocation, sitemapLocationFits } from '../feed-formats/sitemap';
import { characterCount } from '../schema/characters';
import { ITEM } from '../schema/tables';
import {
  defaultWorkplace,
  LOCALES,
  MAX_ADDITIONAL_CITIES,
  PAY_AND_PLACE_FIELDS,
  RECORD_FIELDS,
  REMOTE_TYPE,
  SALARY_TYPES,
  type SalaryType,
  SERVED_SALARY_PERIODS,
  TEXT_FIELDS,
  type TextField,
  VACANCY_STATUSES,
  VACANCY_TYPES,
  type Vacancy,
  type VacancyStatus,
  WORKPLACES,
} from '../schema/vacancy';
import { toVacancyItem, withCities } from '../schema/vacancy-item';
import { isVendorId, VENDOR_ID_RULE } from '../schema/vendors';
import { MAX_URL_CHARACTERS, normalizeUrl } from '../schema/web-url';
import { isDictionaryCode } from '../vacancy/dictionary';
import { INCLUDE_NAMES, isCurrencyCode } from '../vacancy/pay-and-place';
import { toVacancyObjects } from '../vacancy/presenter';

/**
 * A number of a record written as something other than an integer literal, whose value is nonetheless an integer
 * — `1.0`, `1e3`, `0.9999999999999999999` (which JSON.parse rounds to 1), `9007199254740990.6` — kept apart so
 * that no rule mistakes it for the integer it would be rounded to.
 */
export class NotAnIntegerLiteral {
  constructor(readonly literal: string) {}
}

const INTEGER_LITERAL = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * JSON.parse for import records and seed files, with numbers taken as written: an integer value whose literal is
 * not an integer literal becomes a `NotAnIntegerLiteral` (the reviver sees each number's source text).
 */
export function parseRecordJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' &&
    Number.isInteger(value) &&
    context?.source !== undefined &&
    !INTEGER_LITERAL.test(context.source)
      ? new NotAnIntegerLiteral(context.source)
      : value,
  );
}

/** The outcome of validating one import record. */
export type RecordValidation = { ok: true; vacancy: Vacancy } | { ok: false; reasons: string[] };

/**
 * Size limits of the text fields: characters (Unicode code points), and for the long texts also bytes of
 * UTF-8 — characters alone would let three-byte text push a page past the response limit.
 */
export const TEXT_LIMITS: Readonly<Record<TextField, { characters: number; bytes?: number }>> = {
  title: { characters: 200 },
  url: { characters: MAX_URL_CHARACTERS },
  description: { characters: 8_000, bytes: 16_000 },
  requirements: { characters: 8_000, bytes: 16_000 },
  responsibilities: { characters: 8_000, bytes: 16_000 },
};

/**
 * The most a vacancy may add to a listing response as Lambda returns it (the body is JSON inside the JSON of
 * the response, so a `"` or `\` in a text costs four bytes there). The text limits above keep every ordinary
 * vacancy well below it; only text full of characters that need escaping can reach it. At 100 vacancies a page,
 * this keeps a page under 6,000,000 bytes, inside Lambda's 6 MB (6,291,456-byte) response limit with room for
 * the envelope and headers.
 */
export const MAX_VACANCY_RESPONSE_BYTES = 60_000;

// Control characters (other than tab, line feed and carriage return in the long texts): no vacancy text needs
// them, and JSON sends most as six bytes.
const CONTROL_IN_TEXT = /(?![\t\n\r])\p{Cc}/u;
const CONTROL_IN_LINE = /\p{Cc}/u;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
// ISO 8601 with an explicit offset (or Z); fractions of a second are accepted and dropped.
const OFFSET_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;
const KNOWN_FIELDS: ReadonlySet<string> = new Set(RECORD_FIELDS);

/** Whether `YYYY-MM-DD` names a day of the calendar (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isInteger(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * `created_at` as an instant; a reason when it is neither accepted shape, not a real date and time, before
 * 1970, or written without an offset where the service time zone is unknown.
 */
function parseCreatedAt(value: unknown, clock: ZoneClock | undefined): Date | string {
  const shape = 'created_at must be a real date and time, "YYYY-MM-DD HH:MM:SS" or ISO 8601 with an offset';
  if (typeof value !== 'string') return shape;
  let instant: Date;
  const local = LOCAL_DATE_TIME.exec(value);
  if (local) {
    if (!isCalendarDate(local[1] ?? '')) return shape;
    if (!clock) {
      return 'created_at has no offset, and the service time zone of the target is unknown: give --time-zone';
    }
    instant = clock.fromLocal(value);
  } else {
    const withOffset = OFFSET_DATE_TIME.exec(value);
    if (!withOffset || !isCalendarDate(withOffset[1] ?? '')) return shape;
    instant = new Date(value);
    if (Number.isNaN(instant.getTime())) return shape;
    instant = new Date(Math.floor(instant.getTime() / 1000) * 1000);
  }
  return instant.getTime() < 0 ? 'created_at must not be before 1970-01-01T00:00:00Z' : instant;
}

/**
 * Reasons the additional cities break their rules (docs/operating.md#many-places-in-an-import): absent, or an array of
 * at most `MAX_ADDITIONAL_CITIES` city codes of the dictionary, none twice and none the primary `city`. A reason names
 * an entry by its place, never by a value that is not a code (it could be any text).
 */
function additionalCitiesReasons(additional: unknown, city: unknown): string[] {
  if (additional === undefined) return [];
  const name = 'additional_cities';
  if (!Array.isArray(additional)) return [`${name} must be an array of city codes of the dictionary`];
  // Too many: said once, not entry by entry (the array could be of any length).
  if (additional.length > MAX_ADDITIONAL_CITIES)
    return [`${name} must have at most ${MAX_ADDITIONAL_CITIES} cities`];
  const reasons: string[] = [];
  const seen = new Set<string>();
  additional.forEach((code: unknown, i) => {
    if (typeof code !== 'string' || !isDictionaryCode('city', code)) {
      reasons.push(`${name}[${i}] must be a city code of the dictionary`);
    } else if (code === city) {
      reasons.push(`${name}[${i}] is the primary city (${code}): list it in city only`);
    } else if (seen.has(code)) {
      reasons.push(`${name}[${i}] repeats ${code}: name each city once`);
    }
    if (typeof code === 'string') seen.add(code);
  });
  return reasons;
}

/** Reasons a text field breaks its rules. */
function textReasons(name: TextField, value: unknown): string[] {
  if (typeof value !== 'string') return [`${name} must be a string`];
  const reasons: string[] = [];
  const { characters: maxCharacters, bytes: maxBytes } = TEXT_LIMITS[name];
  if (!value.isWellFormed()) reasons.push(`${name} must be valid Unicode text`);
  if ((name === 'title' ? CONTROL_IN_LINE : CONTROL_IN_TEXT).test(value)) {
    reasons.push(`${name} must not contain control characters`);
  }
  if (characterCount(value) > maxCharacters)
    reasons.push(`${name} must be at most ${maxCharacters} characters`);
  if (maxBytes !== undefined && Buffer.byteLength(value, 'utf8') > maxBytes) {
    reasons.push(`${name} must be at most ${maxBytes} bytes of UTF-8`);
  }
  return reasons;
}

// `created_at` is always 19 characters in a response, whatever the zone: any clock measures the same.
const UTC_CLOCK = zoneClock('UTC');

/**
 * What the longest answer states of a vacancy's pay where its record gave none: any currency takes three letters, and
 * `month` is the longest period.
 */
const LONGEST_PAY_DEFAULTS = { salaryCurrency: 'AZN', salaryPeriod: 'MONTH' } as const;

/**
 * Bytes the vacancy adds to a listing response as Lambda returns it, in its longest form: its longest locale, with
 * everything `include` can add (docs/api.md#pay-and-place).
 */
export function vacancyResponseBytes(vacancy: Vacancy): number {
  // When it changed does not show in the vacancy object: any time will do.
  const item = withCities(toVacancyItem(vacancy, 0));
  const inclusion = { include: INCLUDE_NAMES, defaults: LONGEST_PAY_DEFAULTS };
  return Math.max(
    ...LOCALES.map((locale) => {
      const [object] = toVacancyObjects([item], locale, UTC_CLOCK, inclusion);
      // Once as the body's JSON, once more as a string inside the JSON of Lambda's response, plus a comma.
      return Buffer.byteLength(JSON.stringify(JSON.stringify(object)), 'utf8') - 1;
    }),
  );
}

// Field names, numbers, dates, labels and JSON punctuation of one vacancy object, what `include` adds but the
// locations, escaped twice: well under 2 KB.
const FIXED_PART_BYTES = 2_048;
// A city of `locations` (`{"city":"…","label":"…"}`, escaped twice): well under 128 bytes.
const LOCATION_BYTES = 128;

/**
 * Whether a vacancy could exceed the response budget at all: no character of a text takes more than four bytes
 * of a response (a `"` or `\`, escaped twice; a code point outside the BMP is two UTF-16 units and four bytes),
 * so most vacancies are cleared by their length alone, without rendering them.
 */
function mayExceedResponseBudget(vacancy: Vacancy): boolean {
  const units = TEXT_FIELDS.reduce((sum, field) => sum + vacancy[field].length, 0);
  const locations = (1 + (vacancy.additional_cities?.length ?? 0)) * LOCATION_BYTES;
  return 4 * units + FIXED_PART_BYTES + locations > MAX_VACANCY_RESPONSE_BYTES;
}

/**
 * Checks one import record against every rule and reports each broken one. Absent salary fields and an absent
 * `experience_max` mean null. Unknown fields are rejected, so that a misspelt field is caught rather than
 * silently dropped. `clock` reads `created_at` values without an offset; without one, such values are refused.
 * Whether the vendor exists is the import's check, not this one's.
 */
export function validateVacancyRecord(input: unknown, clock: ZoneClock | undefined): RecordValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, reasons: ['a record must be a JSON object'] };
  }
  const value = input as Record<string, unknown>;
  const reasons: string[] = [];
  const nullable = (name: string): unknown => (value[name] === undefined ? null : value[name]);

  for (const name of Object.keys(value)) {
    if (name === ITEM.updatedAt)
      reasons.push(`${name} is recorded by the service when a vacancy changes: leave it out`);
    else if (!KNOWN_FIELDS.has(name)) reasons.push(`unknown field "${name}"`);
  }

  /** The reason of an integer field: its rule, or — for a number not written as an integer — that. */
  const integerRule = (name: string, rule: string) => {
    const written = value[name];
    return written instanceof NotAnIntegerLiteral
      ? `${name} must be written as an integer, not ${written.literal}`
      : rule;
  };

  if (!isInteger(value.id, 1))
    reasons.push(integerRule('id', `id must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`));
  if (!isVendorId(value.vendor_id)) reasons.push(`vendor_id is not valid: ${VENDOR_ID_RULE}`);
  if (!VACANCY_STATUSES.includes(value.status as VacancyStatus))
    reasons.push(`status must be one of ${VACANCY_STATUSES.join(', ')}`);

  for (const name of TEXT_FIELDS) if (name !== 'url') reasons.push(...textReasons(name, value[name]));
  if (typeof value.title === 'string' && value.title.trim() === '') reasons.push('title must not be empty');
  // Stored as browsers read it (`domain/schema/web-url.ts`): a JobPosting and every client get the normalized form.
  const url = normalizeUrl('url', value.url, 'vacancy');
  if (!url.ok) reasons.push(url.reason);
  // Every feed lists it: a sitemap's <loc> (the URL URL-escaped) must be as long as the sitemaps XSD takes.
  else if (!sitemapLocationFits(sitemapLocation(url.url))) {
    const { min, max } = SITEMAP_LOCATION_CHARACTERS;
    reasons.push(
      `url must be ${min} to ${max} characters URL-escaped, as a sitemap lists it (${sitemapLocation(url.url).length})`,
    );
  }

  for (const kind of ['category', 'city'] as const) {
    const code = value[kind];
    if (typeof code !== 'string' || !isDictionaryCode(kind, code)) {
      reasons.push(`${kind} must be a ${kind} code of the dictionary`);
    }
  }
  reasons.push(...additionalCitiesReasons(value.additional_cities, value.city));
  if (!VACANCY_TYPES.includes(value.type as never))
    reasons.push(integerRule('type', `type must be one of ${VACANCY_TYPES.join(', ')}`));

  const salaryType = value.salary_type as SalaryType;
  const [salaryMin, salaryMax, salary] = [nullable('salary_min'), nullable('salary_max'), nullable('salary')];
  for (const [name, amount] of [
    ['salary_min', salaryMin],
    ['salary_max', salaryMax],
    ['salary', salary],
  ] as const) {
    if (amount !== null && !isInteger(amount, 0))
      reasons.push(integerRule(name, `${name} must be an integer of at least 0, or null`));
  }
  if (!SALARY_TYPES.includes(salaryType)) {
    reasons.push(`salary_type must be one of ${SALARY_TYPES.join(', ')}`);
  } else if (salaryType === 'range') {
    if (salaryMin === null || salaryMax === null)
      reasons.push('a range salary needs salary_min and salary_max');
    if (salary !== null) reasons.push('a range salary must have salary null');
    if (isInteger(salaryMin, 0) && isInteger(salaryMax, 0) && salaryMin > salaryMax) {
      reasons.push('salary_min must not be greater than salary_max');
    }
  } else if (salaryType === 'fixed') {
    if (salary === null) reasons.push('a fixed salary needs salary');
    if (salaryMin !== null || salaryMax !== null)
      reasons.push('a fixed salary must have salary_min and salary_max null');
  } else if (salaryMin !== null || salaryMax !== null || salary !== null) {
    reasons.push('a negotiable salary must have salary_min, salary_max and salary null');
  }

  const experienceMax = nullable('experience_max');
  if (!isInteger(value.experience_min, 0, 100))
    reasons.push(integerRule('experience_min', 'experience_min must be an integer from 0 to 100'));
  if (experienceMax !== null && !isInteger(experienceMax, 0, 100)) {
    reasons.push(integerRule('experience_max', 'experience_max must be an integer from 0 to 100, or null'));
  } else if (
    isInteger(experienceMax, 0, 100) &&
    isInteger(value.experience_min, 0, 100) &&
    experienceMax < value.experience_min
  ) {
    reasons.push('experience_max must not be less than experience_min');
  }

  // Pay and place: absent or null, the defaults (docs/api.md#pay-and-place).
  const [currency, period, workplace] = PAY_AND_PLACE_FIELDS.map((name) => nullable(name));
  if (currency !== null && !isCurrencyCode(currency))
    reasons.push('salary_currency must be an ISO 4217 currency code in capitals, such as AZN');
  if (period !== null && !SERVED_SALARY_PERIODS.includes(period as never))
    reasons.push(`salary_period must be one of ${SERVED_SALARY_PERIODS.join(', ')}`);
  if (workplace !== null && !WORKPLACES.includes(workplace as never)) {
    reasons.push(`workplace must be one of ${WORKPLACES.join(', ')}`);
  } else if (
    value.type === REMOTE_TYPE &&
    workplace !== null &&
    workplace !== defaultWorkplace(REMOTE_TYPE)
  ) {
    reasons.push(
      `a type ${REMOTE_TYPE} (Remote) vacancy must have workplace ${defaultWorkplace(REMOTE_TYPE)}`,
    );
  }

  if (typeof value.deadline !== 'string' || !isCalendarDate(value.deadline)) {
    reasons.push('deadline must be a real date written YYYY-MM-DD');
  }
  const createdAt = parseCreatedAt(value.created_at, clock);
  if (typeof createdAt === 'string') reasons.push(createdAt);

  if (reasons.length > 0 || typeof createdAt === 'string' || !url.ok) return { ok: false, reasons };
  const given = { ...value };
  for (const name of PAY_AND_PLACE_FIELDS) if (given[name] === null) delete given[name];
  // No additional city is the same as none given (docs/operating.md#many-places-in-an-import).
  if (Array.isArray(given.additional_cities) && given.additional_cities.length === 0)
    delete given.additional_cities;
  const vacancy: Vacancy = {
    ...(given as unknown as Omit<Vacancy, 'created_at'>),
    url: url.url,
    salary_min: salaryMin as number | null,
    salary_max: salaryMax as number | null,
    salary: salary as number | null,
    experience_max: experienceMax as number | null,
    created_at: createdAt,
  };
  const responseBytes = mayExceedResponseBudget(vacancy) ? vacancyResponseBytes(vacancy) : 0;
  if (responseBytes > MAX_VACANCY_RESPONSE_BYTES) {
    return {
      ok: false,
      reasons: [
        `the vacancy would take ${responseBytes} bytes of a response, more than ${MAX_VACANCY_RESPONSE_BYTES} (quotes, backslashes and line breaks count extra)`,
      ],
    };
  }
  return { ok: true, vacancy };
}
