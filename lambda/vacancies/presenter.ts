import { localDateTime } from '../shared/time';
import { localize } from './dictionary';
import type { ListedVacancy, Locale, VacancyResource } from './types';

/**
 * The vacancy object of the response (spec §2.1): the 15 fields in the specification's order, unset salary
 * fields as `null`, the four coded fields in the chosen locale, `created_at` in the service time zone.
 */
export function toVacancyResource(vacancy: ListedVacancy, locale: Locale, timeZone: string): VacancyResource {
  return {
    id: vacancy.id,
    title: vacancy.title,
    url: vacancy.url,
    description: vacancy.description,
    requirements: vacancy.requirements,
    responsibilities: vacancy.responsibilities,
    category: localize('category', vacancy.category, locale),
    city: localize('city', vacancy.city, locale),
    type: localize('type', vacancy.type, locale),
    salary_min: vacancy.salary_min ?? null,
    salary_max: vacancy.salary_max ?? null,
    salary: vacancy.salary ?? null,
    salary_type: localize('salary_type', vacancy.salary_type, locale),
    deadline: vacancy.deadline,
    created_at: localDateTime(new Date(vacancy.created_at), timeZone),
  };
}
