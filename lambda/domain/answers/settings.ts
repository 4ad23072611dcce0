/**
 * The settings the answers and their doors take (docs/operating.md#settings), made from what a function read of its
 * environment — one home for the vacancies function and the MCP function, which answer alike.
 */
import { type ZoneClock, zoneClock } from '../../platform/time/zone-clock';
import type { Locale } from '../schema/vacancy';
import type { RateTier } from '../settings/rate-tiers';
import { DEFAULT_SETTINGS, type FunctionSettings, type SettingsOf } from '../settings/settings';
import type { JobPostingSettings } from '../vacancy/job-posting';
import type { PayDefaults } from '../vacancy/pay-and-place';

/** Per-deployment behaviour of the answers (docs/operating.md#settings). */
export interface AnswerSettings {
  readonly defaultLocale: Locale;
  /** The deployment's rate tiers: each 200 states the vendor's in `RateLimit-Policy`. */
  readonly rateTiers?: Readonly<Record<string, RateTier>>;
  /** The service time zone's clock: `created_at` and "today" for deadlines. */
  readonly clock: ZoneClock;
  readonly defaultPerPage: number;
  /** Base of links (a custom domain, say); the request's own URL when absent. */
  readonly publicBaseUrl?: string | undefined;
  /** What a JobPosting states of every job, and the pay a record leaves out (docs/api.md#jobposting). */
  readonly jobPosting?: Omit<JobPostingSettings, 'clock'>;
}

/** The operator's settings the answers read: the vacancies and the MCP functions' (`domain/settings/settings.ts`). */
export type AnswerSettingName = SettingsOf<'listing'>;

/** The answers' settings from a function's checked settings. */
export function answerSettings(settings: Pick<FunctionSettings, AnswerSettingName>): AnswerSettings {
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

/** What a JobPosting states of every job, and a vacancy's pay when its record states none: the settings' or the defaults. */
export const jobPostingOf = (settings: AnswerSettings): Omit<JobPostingSettings, 'clock'> =>
  settings.jobPosting ?? {
    jobCountry: DEFAULT_SETTINGS.jobCountry,
    salaryCurrency: DEFAULT_SETTINGS.salaryCurrency,
    salaryPeriod: DEFAULT_SETTINGS.salaryPeriod,
  };

/** The pay a vacancy states when its record gives none. */
export const payDefaultsOf = (settings: AnswerSettings): PayDefaults => jobPostingOf(settings);
