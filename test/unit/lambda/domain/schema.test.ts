import { describe, expect, it } from '@jest/globals';
import { ACTIVE_ATTRIBUTES, dayNumber, orderKey } from '../../../../lambda/domain/schema/active-index';
import { changeKey } from '../../../../lambda/domain/schema/change-index';
import { ITEM } from '../../../../lambda/domain/schema/tables';
import { RECORD_FIELDS, VACANCY_FIELDS } from '../../../../lambda/domain/schema/vacancy';
import { fromVacancyItem, toVacancyItem } from '../../../../lambda/domain/schema/vacancy-item';
import { SPEC_VACANCY_FIELDS } from '../../../../testkit/spec';
import { fixtureVacancy, vacancyRecord } from '../../../../testkit/vacancies';

/** When the fixtures changed (ms). */
const CHANGED = Date.UTC(2026, 1, 1);
const item = (overrides: Record<string, unknown>) =>
  toVacancyItem(fixtureVacancy(vacancyRecord(overrides)), CHANGED) as unknown as Record<string, unknown>;

/** Byte-wise comparison, as DynamoDB orders binary sort keys. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1)
    if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

describe('the vacancy schema', () => {
  it('has the 15 fields of the vacancy object in the specification order', () => {
    expect(VACANCY_FIELDS).toEqual(SPEC_VACANCY_FIELDS);
    expect(new Set(RECORD_FIELDS).size).toBe(19);
  });
});

describe('toVacancyItem', () => {
  it('stores created_at as a UTC instant and writes compact index attributes while active', () => {
    expect(item({ id: 42 })).toEqual({
      id: 42,
      status: 'active',
      title: 'Backend developer',
      url: 'https://careers.example.com/jobs/1',
      description: 'Build the APIs our customers use.',
      requirements: 'Three years of TypeScript.',
      responsibilities: 'Design, build and run services.',
      category: 'it',
      city: 'baku',
      type: 1,
      salary_type: 'range',
      salary_min: 2000,
      salary_max: 3500,
      experience_min: 3,
      experience_max: 6,
      deadline: '2099-12-31',
      created_at: '2026-01-10T05:30:00Z',
      [ITEM.vendor]: 'acme',
      [ITEM.updatedAt]: CHANGED,
      [ITEM.change]: changeKey(CHANGED, 42),
      [ITEM.order]: orderKey(new Date('2026-01-10T05:30:00Z'), 42),
      [ITEM.type]: 1,
      [ITEM.experienceMin]: 3,
      [ITEM.experienceMax]: 6,
      [ITEM.deadline]: dayNumber('2099-12-31'),
      [ITEM.expiryShard]: 42 % 16,
    });
  });

  it.each(['inactive', 'draft', 'closed'])(
    'leaves a %s vacancy out of the active and expiry indexes, in the change index',
    (status) => {
      const stored = item({ status });
      for (const attribute of ACTIVE_ATTRIBUTES) expect(stored).not.toHaveProperty(attribute);
      expect(stored).toMatchObject({ [ITEM.vendor]: 'acme', [ITEM.change]: changeKey(CHANGED, 1) });
    },
  );

  it('omits null salary fields and an open-ended experience_max instead of storing NULL', () => {
    const stored = item({
      salary_type: 'fixed',
      salary_min: null,
      salary_max: null,
      salary: 900,
      experience_max: null,
    });
    expect(stored).toMatchObject({ salary: 900 });
    for (const name of ['salary_min', 'salary_max', 'experience_max', ITEM.experienceMax]) {
      expect(stored).not.toHaveProperty(name);
    }
  });

  it('is undone by fromVacancyItem', () => {
    for (const overrides of [
      {},
      { status: 'draft', salary_type: 'negotiable', salary_min: null, salary_max: null },
    ]) {
      const vacancy = fixtureVacancy(vacancyRecord(overrides));
      expect(fromVacancyItem(toVacancyItem(vacancy, CHANGED))).toEqual(vacancy);
    }
  });
});

describe('orderKey', () => {
  it('is 12 bytes that sort newest first, then larger id first, when read in descending order', () => {
    const keys = [
      orderKey(new Date('2026-01-01T00:00:00Z'), 9),
      orderKey(new Date('2026-01-02T00:00:00Z'), 1),
      orderKey(new Date('2026-01-02T00:00:00Z'), 256),
      orderKey(new Date('2026-01-02T00:00:00Z'), 2),
      orderKey(new Date('2025-12-31T23:59:59Z'), Number.MAX_SAFE_INTEGER),
      orderKey(new Date('1970-01-01T00:00:00Z'), 3),
      orderKey(new Date('1970-01-01T00:00:01Z'), 1),
      orderKey(new Date('9999-12-31T23:59:59Z'), 1),
    ];
    const descending = [...keys].sort(compareBytes).reverse();
    expect(descending).toEqual([keys[7], keys[2], keys[3], keys[1], keys[0], keys[4], keys[6], keys[5]]);
    expect(new Set(keys.map((key) => key.length))).toEqual(new Set([12]));
  });

  it('writes the second and the id big-endian', () => {
    expect([...orderKey(new Date(258_000), 2 ** 48 + 3)]).toEqual([0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 3]);
  });
});

describe('dayNumber', () => {
  it('counts days since 1970-01-01, before it too, and keeps their order', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('1969-12-31')).toBe(-1);
    expect(dayNumber('2026-06-16')).toBe(20_620);
    expect(dayNumber('0099-01-01')).toBeLessThan(dayNumber('1900-01-01'));
  });
});
