import { describe, expect, it } from '@jest/globals';
import {
  activeOrderKey,
  isCalendarDate,
  toVacancyItem,
  validateVacancyRecord,
} from '../../lambda/vacancies/record';
import { ACTIVE_INDEX_ATTRIBUTES as INDEX } from '../../lib/tables';
import { TIME_ZONE, vacancyRecord } from '../support/vacancies';

const validate = (overrides: Record<string, unknown>) =>
  validateVacancyRecord(vacancyRecord(overrides), TIME_ZONE);
const reasonsOf = (overrides: Record<string, unknown>) => {
  const result = validate(overrides);
  return result.ok ? [] : result.reasons;
};

describe('validateVacancyRecord', () => {
  it('accepts a valid record, reading created_at in the service time zone', () => {
    const result = validate({});
    expect(result.ok).toBe(true);
    expect(result.ok && result.record.created_at.toISOString()).toBe('2026-01-10T05:30:00.000Z');
  });

  it('accepts ISO 8601 with an offset for created_at, and absent nullable fields as null', () => {
    const input = vacancyRecord({ created_at: '2026-01-10T09:30:00+04:00', salary_type: 'negotiable' });
    for (const name of ['salary_min', 'salary_max', 'salary', 'experience_max']) delete input[name];
    const result = validateVacancyRecord(input, TIME_ZONE);
    expect(result).toMatchObject({
      ok: true,
      record: { salary: null, salary_min: null, experience_max: null },
    });
    expect(result.ok && result.record.created_at.toISOString()).toBe('2026-01-10T05:30:00.000Z');
  });

  it.each([
    [{ id: 0 }, 'id must be an integer greater than 0'],
    [{ id: '7' }, 'id must be an integer greater than 0'],
    [{ id: 1.5 }, 'id must be an integer greater than 0'],
    [{ vendor_id: 'Acme' }, 'vendor_id is not valid'],
    [{ vendor_id: '-acme' }, 'vendor_id is not valid'],
    [{ vendor_id: 'a' }, 'vendor_id is not valid'],
    [{ status: 'archived' }, 'status must be one of active, inactive, draft, closed'],
    [{ title: '' }, 'title must not be empty'],
    [{ description: null }, 'description must be a string'],
    [{ url: 'ftp://example.com/x' }, 'url must be an absolute http(s) URL'],
    [{ url: '/jobs/1' }, 'url must be an absolute http(s) URL'],
    [{ category: 'astronomy' }, 'category must be a category code of the dictionary'],
    [{ city: 'Baku' }, 'city must be a city code of the dictionary'],
    [{ type: 5 }, 'type must be an integer from 1 to 4'],
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
    [{ salaryMin: 10 }, 'unknown field "salaryMin"'],
  ])('rejects %p: %s', (overrides, reason) => {
    expect(reasonsOf(overrides)).toEqual([expect.stringContaining(reason)]);
  });

  it('reports every broken rule of a record, not only the first', () => {
    expect(reasonsOf({ id: -1, type: 9, city: 'x' })).toHaveLength(3);
  });

  it('rejects what is not an object', () => {
    expect(validateVacancyRecord([1], TIME_ZONE)).toEqual({
      ok: false,
      reasons: ['a record must be a JSON object'],
    });
    expect(validateVacancyRecord('x', TIME_ZONE).ok).toBe(false);
  });

  it('knows the calendar', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-1-1')).toBe(false);
  });
});

describe('toVacancyItem', () => {
  const item = (overrides: Record<string, unknown>) => {
    const result = validate(overrides);
    if (!result.ok) throw new Error(result.reasons.join());
    return toVacancyItem(result.record) as unknown as Record<string, unknown>;
  };

  it('stores created_at as a UTC instant and writes the index attributes while active', () => {
    expect(item({ id: 42 })).toMatchObject({
      vendorId: 'acme',
      id: 42,
      created_at: '2026-01-10T05:30:00Z',
      [INDEX.vendorId]: 'acme',
      [INDEX.order]: activeOrderKey(new Date('2026-01-10T05:30:00Z'), 42),
      [INDEX.type]: 1,
      [INDEX.experienceMin]: 3,
      [INDEX.experienceMax]: 6,
      [INDEX.deadline]: '2099-12-31',
    });
  });

  it.each(['inactive', 'draft', 'closed'])('leaves a %s vacancy out of the active index', (status) => {
    const stored = item({ status });
    for (const attribute of Object.values(INDEX)) expect(stored).not.toHaveProperty(attribute);
  });

  it('omits null salary fields and an open-ended experience_max instead of storing NULL', () => {
    const stored = item({
      salary_type: 'fixed',
      salary_min: null,
      salary_max: null,
      salary: 900,
      experience_max: null,
    });
    expect(stored).toMatchObject({ salary: 900 });
    for (const name of ['salary_min', 'salary_max', 'experience_max', INDEX.experienceMax]) {
      expect(stored).not.toHaveProperty(name);
    }
  });
});

describe('activeOrderKey', () => {
  it('sorts newest first, then larger id first, when read in descending order', () => {
    const keys = [
      activeOrderKey(new Date('2026-01-01T00:00:00Z'), 9),
      activeOrderKey(new Date('2026-01-02T00:00:00Z'), 1),
      activeOrderKey(new Date('2026-01-02T00:00:00Z'), 10),
      activeOrderKey(new Date('2026-01-02T00:00:00Z'), 2),
      activeOrderKey(new Date('2025-12-31T23:59:59Z'), Number.MAX_SAFE_INTEGER),
    ];
    const descending = [...keys].sort().reverse();
    expect(descending).toEqual([keys[2], keys[3], keys[1], keys[0], keys[4]]);
    expect(new Set(keys.map((key) => key.length))).toEqual(new Set([18]));
  });
});
