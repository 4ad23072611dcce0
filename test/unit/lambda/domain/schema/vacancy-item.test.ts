/** A vacancy as an item of the table, and back (`lambda/domain/schema/vacancy-item.ts`). */
import { describe, expect, it } from '@jest/globals';
import { ACTIVE_ATTRIBUTES, dayNumber, orderKey } from '../../../../../lambda/domain/schema/active-index';
import { changeKey } from '../../../../../lambda/domain/schema/change-index';
import { ITEM } from '../../../../../lambda/domain/schema/tables';
import {
  fromVacancyItem,
  sameContent,
  toVacancyItem,
  withCities,
} from '../../../../../lambda/domain/schema/vacancy-item';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

/** When the fixtures changed (ms). */
const CHANGED = Date.UTC(2026, 1, 1);
const item = (overrides: Record<string, unknown>) =>
  toVacancyItem(fixtureVacancy(vacancyRecord(overrides)), CHANGED) as unknown as Record<string, unknown>;

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
      { additional_cities: ['ganja', 'quba'] },
    ]) {
      const vacancy = fixtureVacancy(vacancyRecord(overrides));
      expect(fromVacancyItem(toVacancyItem(vacancy, CHANGED))).toEqual(vacancy);
    }
  });
});

describe('a vacancy in several cities, as an item', () => {
  it("keeps the additional cities in the item's city, after the primary, and no attribute of their own", () => {
    const stored = item({ city: 'sumgait', additional_cities: ['baku', 'ganja'] });
    expect(stored.city).toBe('sumgait,baku,ganja');
    expect(stored).not.toHaveProperty('additional_cities');
    // Without additional cities, the item is what it was before they existed: the code alone.
    expect(item({ city: 'sumgait' }).city).toBe('sumgait');
    expect(item({ city: 'sumgait', additional_cities: [] })).toEqual(item({ city: 'sumgait' }));
  });

  it('reads the cities back: the primary as city, the others in order; an item stored before reads as before', () => {
    const stored = item({ city: 'sumgait', additional_cities: ['baku', 'ganja'] });
    expect(withCities(stored)).toMatchObject({ city: 'sumgait', additional_cities: ['baku', 'ganja'] });
    const before = item({ city: 'quba' });
    expect(withCities(before)).toBe(before);
    const tombstone: { id: number; city?: string } = { id: 1 };
    expect(withCities(tombstone)).toEqual({ id: 1 });
  });

  it('is a change a client can see when the additional cities change, and not when they stay', () => {
    const toItem = (overrides: Record<string, unknown>) =>
      toVacancyItem(fixtureVacancy(vacancyRecord(overrides)), CHANGED);
    const base = toItem({ additional_cities: ['ganja', 'quba'] });
    expect(sameContent(base, toItem({ additional_cities: ['ganja', 'quba'] }))).toBe(true);
    for (const changed of [[], ['quba', 'ganja'], ['ganja'], ['ganja', 'quba', 'shaki']]) {
      expect(sameContent(base, toItem({ additional_cities: changed }))).toBe(false);
    }
  });
});
