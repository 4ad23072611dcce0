/**
 * The deployment settings that reach the functions (docs/operating.md#settings), each written once: the environment
 * variable that carries it, its default, its check and what it allows. The tools check a value with the same rule
 * at synth (`lib/settings.ts`) as the function applies at cold start to what it receives, and write it into the
 * functions' environment (`lib/function-environment.ts`).
 */

import { isTimeZone } from '../../platform/time/zone-clock';
import { LOCALES, type Locale, SALARY_PERIODS, type SalaryPeriod } from '../schema/vacancy';
import { PER_PAGE_LIMITS, SERVICE_DEFAULTS } from '../service/limits';
import { isCurrencyCode } from '../vacancy/pay-and-place';
import { type Check, httpUrl, matching, oneOf, whole, wholeList } from './checks';
import { SettingError } from './errors';
import { checkRateTiers, DEFAULT_RATE_TIERS, RATE_TIERS_ALLOWED } from './rate-tiers';

/** A setting: its default, its check, and what it allows, in words, for the one-line error. */
export interface SettingDefinition<T> {
  readonly default: T;
  readonly check: Check<T>;
  /** What is allowed: "az or en", "a whole number from 1 to 100", … */
  readonly allowed: string;
}

/** A setting that a function receives, through its environment variable. */
export interface FunctionSettingDefinition<T> extends SettingDefinition<T> {
  readonly variable: string;
}

/** The most retries of a webhook event, and the longest delay before one (a day, in seconds). */
export const WEBHOOK_RETRIES_MAX = 20;
export const WEBHOOK_DELAY_MAX = 86_400;

/** The settings the functions receive. */
export const FUNCTION_SETTINGS = {
  defaultLocale: {
    variable: 'DEFAULT_LOCALE',
    default: SERVICE_DEFAULTS.locale as Locale,
    check: oneOf(LOCALES),
    allowed: LOCALES.join(' or '),
  },
  serviceTimeZone: {
    variable: 'SERVICE_TIMEZONE',
    default: SERVICE_DEFAULTS.timeZone as string,
    check: (value) => (typeof value === 'string' && isTimeZone(value) ? value : undefined),
    allowed: 'an IANA time zone name, such as Asia/Baku',
  },
  defaultPerPage: {
    variable: 'DEFAULT_PER_PAGE',
    default: SERVICE_DEFAULTS.perPage as number,
    check: whole(PER_PAGE_LIMITS.min, PER_PAGE_LIMITS.max),
    allowed: `a whole number from ${PER_PAGE_LIMITS.min} to ${PER_PAGE_LIMITS.max}`,
  },
  publicBaseUrl: {
    variable: 'PUBLIC_BASE_URL',
    default: '' as string,
    check: (value) => (value === '' ? '' : httpUrl(value)),
    allowed: 'empty, or an absolute http(s) URL without query or fragment, such as https://api.example.az',
  },
  snapshotMaxClose: {
    variable: 'SNAPSHOT_MAX_CLOSE',
    default: SERVICE_DEFAULTS.snapshotMaxClose as number,
    check: whole(0, 100),
    allowed: 'a whole number of percent from 0 to 100',
  },
  jobCountry: {
    variable: 'JOB_COUNTRY',
    default: SERVICE_DEFAULTS.jobCountry as string,
    check: matching(/^[A-Z]{2}$/),
    allowed: 'an ISO 3166-1 alpha-2 country code in capitals, such as AZ',
  },
  salaryCurrency: {
    variable: 'SALARY_CURRENCY',
    default: SERVICE_DEFAULTS.salaryCurrency as string,
    check: (value) => (isCurrencyCode(value) ? value : undefined),
    allowed: 'an ISO 4217 currency code in capitals, such as AZN',
  },
  salaryPeriod: {
    variable: 'SALARY_PERIOD',
    default: SERVICE_DEFAULTS.salaryPeriod as SalaryPeriod,
    check: oneOf(SALARY_PERIODS),
    allowed: SALARY_PERIODS.join(', '),
  },
  webhookRetrySchedule: {
    variable: 'WEBHOOK_RETRY_SCHEDULE',
    default: SERVICE_DEFAULTS.webhookRetrySchedule as readonly number[],
    check: wholeList(1, WEBHOOK_DELAY_MAX, WEBHOOK_RETRIES_MAX),
    allowed: `1 to ${WEBHOOK_RETRIES_MAX} delays in whole seconds from 1 to ${WEBHOOK_DELAY_MAX}, comma-separated, such as 5,300,1800`,
  },
  rateTiers: {
    variable: 'RATE_TIERS',
    default: DEFAULT_RATE_TIERS,
    check: checkRateTiers,
    allowed: RATE_TIERS_ALLOWED,
  },
} as const satisfies Record<string, FunctionSettingDefinition<unknown>>;

/** The name of a setting the functions receive. */
export type FunctionSettingName = keyof typeof FUNCTION_SETTINGS;

/** The values of the settings the functions receive. */
export type FunctionSettings = {
  readonly [K in FunctionSettingName]: NonNullable<ReturnType<(typeof FUNCTION_SETTINGS)[K]['check']>>;
};

/** The error of a value a setting does not allow: the setting, the value, what is allowed. */
export const notAllowed = (setting: string, value: unknown, allowed: string) =>
  new SettingError(`${setting} = ${JSON.stringify(value)} is not allowed: ${allowed}.`);

/** A value checked against its definition; `SettingError` when it is not allowed, the default when absent. */
export function checkSetting<T>(definition: SettingDefinition<T>, name: string, value: unknown): T {
  if (value === undefined || value === null) return definition.default;
  const checked = definition.check(value);
  if (checked === undefined) throw notAllowed(name, value, definition.allowed);
  return checked;
}
