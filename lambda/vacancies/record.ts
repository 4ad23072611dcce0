import { ACTIVE_INDEX_ATTRIBUTES as INDEX } from '../../lib/tables';
import { utcInstant, zonedDateTimeToInstant } from '../shared/time';
import { isVendorId, VENDOR_ID_RULE } from '../shared/vendor-id';
import { isDictionaryCode } from './dictionary';
import type { SalaryType, StoredVacancy, VacancyRecord, VacancyStatus, VacancyType } from './types';

/** The outcome of validating one import record. */
export type RecordValidation = { ok: true; record: VacancyRecord } | { ok: false; reasons: string[] };

/** A vacancy item as written to the table: the stored vacancy, plus the active-index attributes when active. */
export type VacancyItem = StoredVacancy &
  Partial<Record<(typeof INDEX)[keyof typeof INDEX], string | number>>;

const STATUSES: readonly VacancyStatus[] = ['active', 'inactive', 'draft', 'closed'];
const SALARY_TYPES: readonly SalaryType[] = ['range', 'fixed', 'negotiable'];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
// ISO 8601 with an explicit offset (or Z); fractions of a second are accepted and dropped.
const OFFSET_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;
const TEXT_FIELDS = ['title', 'url', 'description', 'requirements', 'responsibilities'] as const;
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'vendor_id',
  'status',
  ...TEXT_FIELDS,
  'category',
  'city',
  'type',
  'salary_type',
  'salary_min',
  'salary_max',
  'salary',
  'experience_min',
  'experience_max',
  'deadline',
  'created_at',
]);

/** Whether `YYYY-MM-DD` names a day of the calendar (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isInteger(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

/** `created_at` as an instant, or undefined when it is neither accepted shape or not a real date and time. */
function parseCreatedAt(value: string, timeZone: string): Date | undefined {
  const local = LOCAL_DATE_TIME.exec(value);
  if (local) return isCalendarDate(local[1] ?? '') ? zonedDateTimeToInstant(value, timeZone) : undefined;
  const withOffset = OFFSET_DATE_TIME.exec(value);
  if (!withOffset || !isCalendarDate(withOffset[1] ?? '')) return undefined;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? undefined : new Date(Math.floor(instant.getTime() / 1000) * 1000);
}

/**
 * Checks one import record against every rule of CONTRACT §4 and reports each broken rule in plain words.
 * Absent salary fields and an absent `experience_max` mean null. Unknown fields are rejected, so that a
 * misspelt field is caught rather than silently dropped.
 */
export function validateVacancyRecord(input: unknown, timeZone: string): RecordValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, reasons: ['a record must be a JSON object'] };
  }
  const value = input as Record<string, unknown>;
  const reasons: string[] = [];
  const nullable = (name: string): unknown => (value[name] === undefined ? null : value[name]);

  for (const name of Object.keys(value)) if (!KNOWN_FIELDS.has(name)) reasons.push(`unknown field "${name}"`);

  if (!isInteger(value.id, 1)) reasons.push('id must be an integer greater than 0');
  if (!isVendorId(value.vendor_id)) reasons.push(`vendor_id is not valid: ${VENDOR_ID_RULE}`);
  if (!STATUSES.includes(value.status as VacancyStatus))
    reasons.push(`status must be one of ${STATUSES.join(', ')}`);

  for (const name of TEXT_FIELDS)
    if (typeof value[name] !== 'string') reasons.push(`${name} must be a string`);
  if (typeof value.title === 'string' && value.title.trim() === '') reasons.push('title must not be empty');
  if (typeof value.url === 'string' && !isHttpUrl(value.url))
    reasons.push('url must be an absolute http(s) URL');

  for (const kind of ['category', 'city'] as const) {
    const code = value[kind];
    if (typeof code !== 'string' || !isDictionaryCode(kind, code)) {
      reasons.push(`${kind} must be a ${kind} code of the dictionary`);
    }
  }
  if (!isInteger(value.type, 1, 4)) reasons.push('type must be an integer from 1 to 4');

  const salaryType = value.salary_type as SalaryType;
  const [salaryMin, salaryMax, salary] = [nullable('salary_min'), nullable('salary_max'), nullable('salary')];
  for (const [name, amount] of [
    ['salary_min', salaryMin],
    ['salary_max', salaryMax],
    ['salary', salary],
  ] as const) {
    if (amount !== null && !isInteger(amount, 0))
      reasons.push(`${name} must be an integer of at least 0, or null`);
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
    reasons.push('experience_min must be an integer from 0 to 100');
  if (experienceMax !== null && !isInteger(experienceMax, 0, 100)) {
    reasons.push('experience_max must be an integer from 0 to 100, or null');
  } else if (
    isInteger(experienceMax, 0, 100) &&
    isInteger(value.experience_min, 0, 100) &&
    experienceMax < value.experience_min
  ) {
    reasons.push('experience_max must not be less than experience_min');
  }

  if (typeof value.deadline !== 'string' || !isCalendarDate(value.deadline)) {
    reasons.push('deadline must be a real date written YYYY-MM-DD');
  }
  const createdAt =
    typeof value.created_at === 'string' ? parseCreatedAt(value.created_at, timeZone) : undefined;
  if (!createdAt) {
    reasons.push('created_at must be a real date and time, "YYYY-MM-DD HH:MM:SS" or ISO 8601 with an offset');
  }

  if (reasons.length > 0 || !createdAt) return { ok: false, reasons };
  return {
    ok: true,
    record: {
      ...(value as unknown as Omit<VacancyRecord, 'created_at'>),
      salary_min: salaryMin as number | null,
      salary_max: salaryMax as number | null,
      salary: salary as number | null,
      experience_max: experienceMax as number | null,
      created_at: createdAt,
    },
  };
}

/** Fixed-width base-36 digits: lexical order equals numeric order, in few bytes. */
function sortableBase36(value: number, width: number): string {
  return value.toString(36).padStart(width, '0');
}

/**
 * The active index's sort key: creation second (7 base-36 digits, good until the year 4400) then id (11,
 * enough for any safe integer). Read descending, it orders newest first with the larger id first on ties.
 */
export function activeOrderKey(createdAt: Date, id: number): string {
  return sortableBase36(Math.floor(createdAt.getTime() / 1000), 7) + sortableBase36(id, 11);
}

/**
 * The table item of a validated record. The active-index attributes are written only for an active
 * vacancy; any other status leaves the item out of the index (a put replaces the whole item).
 */
export function toVacancyItem(record: VacancyRecord): VacancyItem {
  const item: VacancyItem = {
    vendorId: record.vendor_id,
    id: record.id,
    status: record.status,
    title: record.title,
    url: record.url,
    description: record.description,
    requirements: record.requirements,
    responsibilities: record.responsibilities,
    category: record.category,
    city: record.city,
    type: record.type as VacancyType,
    salary_type: record.salary_type,
    ...(record.salary_min !== null && { salary_min: record.salary_min }),
    ...(record.salary_max !== null && { salary_max: record.salary_max }),
    ...(record.salary !== null && { salary: record.salary }),
    experience_min: record.experience_min,
    ...(record.experience_max !== null && { experience_max: record.experience_max }),
    deadline: record.deadline,
    created_at: utcInstant(record.created_at),
  };
  if (record.status !== 'active') return item;
  return {
    ...item,
    [INDEX.vendorId]: record.vendor_id,
    [INDEX.order]: activeOrderKey(record.created_at, record.id),
    [INDEX.type]: record.type,
    [INDEX.experienceMin]: record.experience_min,
    ...(record.experience_max !== null && { [INDEX.experienceMax]: record.experience_max }),
    [INDEX.deadline]: record.deadline,
  };
}

/** The record a stored item was made from: the inverse of `toVacancyItem` (for status changes). */
export function toVacancyRecord(item: StoredVacancy): VacancyRecord {
  return {
    id: item.id,
    vendor_id: item.vendorId,
    status: item.status,
    title: item.title,
    url: item.url,
    description: item.description,
    requirements: item.requirements,
    responsibilities: item.responsibilities,
    category: item.category,
    city: item.city,
    type: item.type,
    salary_type: item.salary_type,
    salary_min: item.salary_min ?? null,
    salary_max: item.salary_max ?? null,
    salary: item.salary ?? null,
    experience_min: item.experience_min,
    experience_max: item.experience_max ?? null,
    deadline: item.deadline,
    created_at: new Date(item.created_at),
  };
}
