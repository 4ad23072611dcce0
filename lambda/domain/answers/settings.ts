/**
 * The settings the listing's answers take (`VacanciesSettings`, docs/operating.md#settings), made from what a function
 * read of its environment — one home for the vacancies function and the MCP function, which answer alike.
 */
import { zoneClock } from '../../platform/time/zone-clock';
import type { FunctionSettings, SettingsOf } from '../settings/settings';
import type { VacanciesSettings } from './request';

/** The operator's settings the listing reads: the vacancies and the MCP functions' (`domain/settings/settings.ts`). */
export type ListingSettingName = SettingsOf<'listing'>;

/** The listing's settings from a function's checked settings. */
export function vacanciesSettings(settings: Pick<FunctionSettings, ListingSettingName>): VacanciesSettings {
  return {
    defaultLocale: settings.defaultLocale,
    clock: zoneClock(settings.serviceTimeZone),
    defaultPerPage: settings.defaultPerPage,
    publicBaseUrl: settings.publicBaseUrl || undefined,
    rateTiers: settings.rateTiers,
    jobPosting: {
      jobCountry: settings.jobCountry,
      salaryCurrency: settings.salaryCurrency,
      salaryPeriod: settings.salaryPeriod,
    },
  };
}
