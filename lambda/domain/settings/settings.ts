/**
 * Every deployment setting (docs/operating.md#settings) in one table: its default, its check, what it allows, and
 * where it applies — the functions that read it, through its environment variable, or none when only the stack
 * uses it. The stack and the tools check a value with the same rule at synth (`lib/settings.ts`, on `cdk.json`
 * and `-c name=value`) as a function applies at cold start to what it receives (`environment.ts`); the environment
 * each function is given, and its configuration, are derived from the table, and so is the docs' table of settings.
 */

import { isTimeZone } from '../../platform/time/zone-clock';
import { LOCALES, type Locale, SALARY_PERIODS, type SalaryPeriod } from '../schema/vacancy';
import { type FunctionName, PER_PAGE_LIMITS } from '../service/limits';
import { isCurrencyCode } from '../vacancy/pay-and-place';
import { type Check, flag, httpUrl, matching, oneOf, whole, wholeList } from './checks';
import { SettingError } from './errors';
import {
  BURST_LIMIT_MAX,
  checkRateTiers,
  DEFAULT_RATE_TIER,
  DEFAULT_RATE_TIERS,
  RATE_LIMIT_MAX,
  RATE_TIERS_ALLOWED,
  TIER_NAME,
} from './rate-tiers';

/** A setting: its default, its check, and what it allows, in words, for the one-line error. */
export interface SettingDefinition<T> {
  readonly default: T;
  readonly check: Check<T>;
  /** What is allowed: "az or en", "a whole number from 1 to 100", … */
  readonly allowed: string;
}

/** A setting of the table: where it applies — the functions that read it, through `variable` — besides its rule. */
export interface Setting<T> extends SettingDefinition<T> {
  /** The functions that receive it; empty for a setting only the stack uses. */
  readonly functions: readonly FunctionName[];
  /** The environment variable that carries it to those functions. */
  readonly variable?: string;
}

/** The retention periods CloudWatch Logs accepts, in days. */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

/**
 * The monitoring profiles (docs/operating.md#monitoring-profiles): `default`, the alarms that protect data, tenants
 * and availability on the metrics AWS publishes for free (a log metric filter only where none exists), and nothing
 * billed by the month besides; `detailed`, the functions' metrics, a dashboard and the top-vendor rules too.
 */
export const MONITORING_PROFILES = ['default', 'detailed'] as const;
export type MonitoringProfile = (typeof MONITORING_PROFILES)[number];

/** AWS WAF's rate-based rules count at least 10 requests per window. */
const WAF_RATE_LIMIT_MIN = 10;

/** The functions that answer from the listing: the vacancies function (deployed as `listing`) and the MCP function. */
const LISTING: readonly FunctionName[] = ['listing', 'mcp'];

/** The most retries of a webhook event, and the longest delay before one (a day, in seconds). */
export const WEBHOOK_RETRIES_MAX = 20;
export const WEBHOOK_DELAY_MAX = 86_400;

/** Every setting: the stack's own, then those the functions receive. */
export const SETTINGS = {
  stackName: {
    default: 'VendorVacancyApi',
    check: matching(/^[A-Za-z][A-Za-z0-9-]{0,127}$/),
    allowed: 'a CloudFormation stack name: a letter, then up to 127 letters, digits and "-"',
    functions: [],
  },
  stageName: {
    default: 'prod',
    check: matching(/^[A-Za-z0-9_]{1,128}$/),
    allowed: 'an API Gateway stage name: 1 to 128 letters, digits and "_"',
    functions: [],
  },
  destroyOnRemoval: { default: false, check: flag, allowed: 'true or false', functions: [] },
  authorizerCacheSeconds: {
    default: 300,
    check: whole(0, 3600),
    allowed: 'a whole number of seconds from 0 (no cache) to 3600',
    functions: [],
  },
  throttlingRateLimit: {
    default: 50,
    check: whole(1, RATE_LIMIT_MAX),
    allowed: `a whole number of requests per second from 1 to ${RATE_LIMIT_MAX}`,
    functions: [],
  },
  throttlingBurstLimit: {
    default: 100,
    check: whole(1, BURST_LIMIT_MAX),
    allowed: `a whole number of requests from 1 to ${BURST_LIMIT_MAX}`,
    functions: [],
  },
  tracing: { default: true, check: flag, allowed: 'true or false', functions: [] },
  monitoring: {
    default: 'default' as MonitoringProfile,
    check: oneOf(MONITORING_PROFILES),
    allowed:
      "default (alarms on the metrics AWS gives for free) or detailed (the functions' metrics, a dashboard and top-vendor rules too)",
    functions: [],
  },
  logRetentionDays: {
    default: 30,
    check: (value) => {
      const days = whole(1, 3653)(value);
      return days !== undefined && LOG_RETENTION_DAYS.includes(days) ? days : undefined;
    },
    allowed: `a retention CloudWatch Logs accepts: ${LOG_RETENTION_DAYS.join(', ')}`,
    functions: [],
  },
  alarmEmail: {
    default: '',
    check: matching(/^(?:[^@\s]+@[^@\s]+\.[^@\s]+)?$/),
    allowed: 'empty, or an e-mail address',
    functions: [],
  },
  defaultRateTier: {
    default: DEFAULT_RATE_TIER,
    check: matching(TIER_NAME),
    allowed: 'the name of one of the rateTiers',
    functions: [],
  },
  wafRateLimit: {
    default: 0,
    check: (value) => {
      const limit = whole(0, 2_000_000_000)(value);
      return limit === 0 || (limit !== undefined && limit >= WAF_RATE_LIMIT_MIN) ? limit : undefined;
    },
    allowed: `0 (off), or a whole number of requests per 5 minutes from ${WAF_RATE_LIMIT_MIN} (AWS WAF's least) to 2000000000`,
    functions: [],
  },
  domainName: {
    default: '',
    check: matching(
      /^(?:(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9])?$/,
    ),
    allowed: 'empty, or a DNS name in lower case, such as api.example.az',
    functions: [],
  },
  certificateArn: {
    default: '',
    check: matching(/^(?:arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36})?$/),
    allowed:
      "empty, or the ARN of an ACM certificate (arn:aws:acm:<region>:<account>:certificate/<id>) in the stack's region",
    functions: [],
  },
  hostedZoneId: {
    default: '',
    check: matching(/^(?:Z[A-Z0-9]{1,31})?$/),
    allowed: 'empty, or a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ',
    functions: [],
  },
  basePath: {
    default: '',
    check: matching(/^(?:[A-Za-z0-9._-]{1,128})?$/),
    allowed: 'empty, or one path segment of letters, digits, ".", "_" and "-", such as v1',
    functions: [],
  },
  disableExecuteApiEndpoint: { default: false, check: flag, allowed: 'true or false', functions: [] },
  defaultLocale: {
    variable: 'DEFAULT_LOCALE',
    /** Locale when neither `lang` nor `Accept-Language` decides. */
    default: 'az' as Locale,
    check: oneOf(LOCALES),
    allowed: LOCALES.join(' or '),
    functions: LISTING,
  },
  serviceTimeZone: {
    variable: 'SERVICE_TIMEZONE',
    /** IANA zone of `created_at` and of "today" for deadlines. */
    default: 'Asia/Baku' as string,
    check: (value) => (typeof value === 'string' && isTimeZone(value) ? value : undefined),
    allowed: 'an IANA time zone name, such as Asia/Baku',
    functions: [...LISTING, 'expiry', 'inbox', 'feeds'],
  },
  defaultPerPage: {
    variable: 'DEFAULT_PER_PAGE',
    /** `per_page` when the request gives none. */
    default: 15 as number,
    check: whole(PER_PAGE_LIMITS.min, PER_PAGE_LIMITS.max),
    allowed: `a whole number from ${PER_PAGE_LIMITS.min} to ${PER_PAGE_LIMITS.max}`,
    functions: LISTING,
  },
  publicBaseUrl: {
    variable: 'PUBLIC_BASE_URL',
    default: '' as string,
    check: (value) => (value === '' ? '' : httpUrl(value)),
    allowed: 'empty, or an absolute http(s) URL without query or fragment, such as https://api.example.az',
    functions: [...LISTING, 'webhooks'],
  },
  snapshotMaxClose: {
    variable: 'SNAPSHOT_MAX_CLOSE',
    /** The most of a vendor's active vacancies one snapshot may close, in percent (docs/operating.md#snapshots). */
    default: 20 as number,
    check: whole(0, 100),
    allowed: 'a whole number of percent from 0 to 100',
    functions: ['inbox'],
  },
  jobCountry: {
    variable: 'JOB_COUNTRY',
    /** A JobPosting's country (ISO 3166-1 alpha-2; docs/api.md#jobposting). */
    default: 'AZ' as string,
    check: matching(/^[A-Z]{2}$/),
    allowed: 'an ISO 3166-1 alpha-2 country code in capitals, such as AZ',
    functions: [...LISTING, 'inbox', 'feeds'],
  },
  salaryCurrency: {
    variable: 'SALARY_CURRENCY',
    /** A vacancy's salary currency when it states none (ISO 4217). */
    default: 'AZN' as string,
    check: (value) => (isCurrencyCode(value) ? value : undefined),
    allowed: 'an ISO 4217 currency code in capitals, such as AZN',
    functions: [...LISTING, 'feeds'],
  },
  salaryPeriod: {
    variable: 'SALARY_PERIOD',
    /** A vacancy's salary period when it states none. */
    default: 'MONTH' as SalaryPeriod,
    check: oneOf(SALARY_PERIODS),
    allowed: SALARY_PERIODS.join(', '),
    functions: [...LISTING, 'feeds'],
  },
  webhookRetrySchedule: {
    variable: 'WEBHOOK_RETRY_SCHEDULE',
    /**
     * Seconds between the attempts of a webhook event that failed (docs/api.md#webhooks): 8 attempts over about 27
     * hours, each delay with up to ±20 % jitter.
     */
    default: [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as readonly number[],
    check: wholeList(1, WEBHOOK_DELAY_MAX, WEBHOOK_RETRIES_MAX),
    allowed: `1 to ${WEBHOOK_RETRIES_MAX} delays in whole seconds from 1 to ${WEBHOOK_DELAY_MAX}, comma-separated, such as 5,300,1800`,
    functions: ['webhooks'],
  },
  rateTiers: {
    variable: 'RATE_TIERS',
    default: DEFAULT_RATE_TIERS,
    check: checkRateTiers,
    allowed: RATE_TIERS_ALLOWED,
    functions: LISTING,
  },
} as const satisfies Record<string, Setting<unknown>>;

/** The name of a setting. */
export type SettingName = keyof typeof SETTINGS;

/** Every setting's value. */
export type ServiceSettings = {
  readonly [K in SettingName]: NonNullable<ReturnType<(typeof SETTINGS)[K]['check']>>;
};

/** The name of a setting the functions receive: one with an environment variable. */
export type FunctionSettingName = {
  [K in SettingName]: (typeof SETTINGS)[K] extends { readonly variable: string } ? K : never;
}[SettingName];

/** The settings the functions receive, by name: the table's rows with an environment variable. */
export const FUNCTION_SETTINGS = Object.fromEntries(
  Object.entries(SETTINGS).filter(([, setting]) => 'variable' in setting),
) as unknown as Pick<typeof SETTINGS, FunctionSettingName>;

/** The values of the settings the functions receive. */
export type FunctionSettings = Pick<ServiceSettings, FunctionSettingName>;

/** The settings function `F` receives: those whose row names it. */
export type SettingsOf<F extends FunctionName> = {
  [K in FunctionSettingName]: F extends (typeof SETTINGS)[K]['functions'][number] ? K : never;
}[FunctionSettingName];

/** The names of the settings a function receives, in the table's order. */
export const settingsOf = <F extends FunctionName>(name: F): SettingsOf<F>[] =>
  (Object.keys(FUNCTION_SETTINGS) as FunctionSettingName[]).filter((setting) =>
    (SETTINGS[setting].functions as readonly FunctionName[]).includes(name),
  ) as SettingsOf<F>[];

/** The defaults of every setting. */
export const DEFAULT_SETTINGS = Object.fromEntries(
  Object.entries(SETTINGS).map(([name, setting]) => [name, setting.default]),
) as unknown as ServiceSettings;

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
