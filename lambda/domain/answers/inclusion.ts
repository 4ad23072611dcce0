/**
 * What a request of the vacancies route asked to include (docs/api.md#pay-and-place) with the deployment's defaults
 * it is stated with — the listing's, a sync's and one vacancy's alike — or nothing, when it asked for none.
 */
import { FUNCTION_SETTINGS } from '../settings/settings';
import type { PayDefaults } from '../vacancy/pay-and-place';
import type { Inclusion } from '../vacancy/presenter';
import type { ListingQuery } from './query';
import type { VacanciesSettings } from './request';

/** The deployment's defaults of a vacancy's pay, for settings that give none. */
export const PAY_DEFAULTS: PayDefaults = {
  salaryCurrency: FUNCTION_SETTINGS.salaryCurrency.default,
  salaryPeriod: FUNCTION_SETTINGS.salaryPeriod.default,
};

/** The inclusion of a request's `include`, or undefined when it gave none. */
export function inclusion(
  query: Pick<ListingQuery, 'include'>,
  settings: VacanciesSettings,
): Inclusion | undefined {
  if (!query.include) return undefined;
  return { include: query.include, defaults: settings.jobPosting ?? PAY_DEFAULTS };
}
