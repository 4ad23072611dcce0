/**
 * The vacancy object (docs/api.md#the-vacancy-object): a stored vacancy as every answer shows it — the listing, a
 * sync, one vacancy — its fields in one order, its codes as labels in the chosen locale. The import measures the
 * answer a record would make with it too.
 */
import type { ZoneClock } from '../../platform/time/zone-clock';
import { type Locale, VACANCY_FIELDS, VACANCY_OBJECT, type VacancyObject } from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';
import { localize } from './dictionary';
import { type IncludedFields, type IncludeName, includedFields, type PayDefaults } from './pay-and-place';

/** A vacancy object as an answer shows it: its 15 fields, then what `include` asked for (docs/api.md#pay-and-place). */
export type ShownVacancy = VacancyObject & IncludedFields;

/** What a request asked to include (docs/api.md#pay-and-place), and the deployment's defaults it is stated with. */
export interface Inclusion {
  readonly include: readonly IncludeName[];
  readonly defaults: PayDefaults;
}

/**
 * The vacancy objects of a page (docs/api.md#the-vacancy-object): each field of `VACANCY_OBJECT` in its order, dictionary codes in
 * the chosen locale, unset salaries as `null`, `created_at` on the service time zone's wall clock — then, when
 * `inclusion` asks for them, the fields of pay and place.
 */
export function toVacancyObjects(
  vacancies: readonly ListedVacancy[],
  locale: Locale,
  clock: ZoneClock,
  inclusion?: Inclusion,
): ShownVacancy[] {
  const createdAt = clock.formatAll(vacancies.map((vacancy) => new Date(vacancy.created_at)));
  return vacancies.map((vacancy, index) => {
    const object: Record<string, unknown> = {};
    for (const field of VACANCY_FIELDS) {
      const value = vacancy[field];
      switch (VACANCY_OBJECT[field]) {
        case 'label':
          object[field] = localize(field as Parameters<typeof localize>[0], value as string | number, locale);
          break;
        case 'amount':
          object[field] = value ?? null;
          break;
        case 'dateTime':
          object[field] = createdAt[index];
          break;
        default:
          object[field] = value;
      }
    }
    if (inclusion)
      Object.assign(object, includedFields(vacancy, inclusion.include, inclusion.defaults, locale));
    return object as unknown as ShownVacancy;
  });
}
