import { readFileSync } from 'node:fs';
import {
  DEFAULT_RATE_TIER,
  DEFAULT_RATE_TIERS,
  type RateTier,
  SERVICE_DEFAULTS,
} from '../lambda/config/defaults';
import { LIMITS } from '../lambda/vacancies/query';
import { canonicalTimeZone } from './time-zone';

/**
 * Deployment settings, read from `cdk.json` context and overridable with `cdk deploy -c key=value`. The
 * documentation (docs/operating.md#settings) describes each, with its default.
 */
export interface ServiceSettings {
  /** CloudFormation stack name. */
  readonly stackName: string;
  /** API Gateway stage, the first path segment of the API URL. */
  readonly stageName: string;
  /** `true` for dev stacks: tables and logs are deleted with the stack, tables unprotected. */
  readonly destroyOnRemoval: boolean;
  /** How long API Gateway caches the authorizer's answer per key; revocation takes up to this long. 0 = off. */
  readonly authorizerCacheSeconds: number;
  /** Stage throttling: steady requests per second, and burst. */
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
  /** X-Ray tracing of the stage and the functions. */
  readonly tracing: boolean;
  /** Retention of the function and access logs, in days (a value CloudWatch Logs accepts). */
  readonly logRetentionDays: number;
  /** Locale when neither `lang` nor `Accept-Language` decides. */
  readonly defaultLocale: 'az' | 'en';
  /** IANA time zone of `created_at` and of "today" for deadlines. */
  readonly serviceTimeZone: string;
  /** `per_page` when the request gives none. */
  readonly defaultPerPage: number;
  /** Base of pagination URLs (a custom domain); empty: the request's own URL. */
  readonly publicBaseUrl: string;
  /** E-mail address subscribed to the alarm topic; empty: no subscription. */
  readonly alarmEmail: string;
  /** The rate tiers, by name: each a usage plan of the stage; a vendor is on one of them. */
  readonly rateTiers: Readonly<Record<string, RateTier>>;
  /** The tier of a vendor until an operator moves it. */
  readonly defaultRateTier: string;
  /** Requests per 5 minutes from one IP address before AWS WAF blocks it; 0: no web ACL (the default). */
  readonly wafRateLimit: number;
}

/** Defaults of every setting; the service's own defaults come from `lambda/config/defaults.ts`. */
export const DEFAULT_SETTINGS: ServiceSettings = {
  stackName: 'VendorVacancyApi',
  stageName: 'prod',
  destroyOnRemoval: false,
  authorizerCacheSeconds: 300,
  throttlingRateLimit: 50,
  throttlingBurstLimit: 100,
  tracing: true,
  logRetentionDays: 30,
  defaultLocale: SERVICE_DEFAULTS.locale,
  serviceTimeZone: SERVICE_DEFAULTS.timeZone,
  defaultPerPage: SERVICE_DEFAULTS.perPage,
  publicBaseUrl: '',
  alarmEmail: '',
  rateTiers: DEFAULT_RATE_TIERS,
  defaultRateTier: DEFAULT_RATE_TIER,
  wafRateLimit: 0,
};

type Checks<T> = { [K in keyof T]: (value: unknown) => T[K] | undefined };

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown) =>
  value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
const whole = (min: number, max: number) => (value: unknown) => {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return Number.isInteger(number) && (number as number) >= min && (number as number) <= max
    ? (number as number)
    : undefined;
};

// `-c key=value` arrives as a string, `cdk.json` values as JSON: each check accepts both.
const CHECKS: Checks<ServiceSettings> = {
  stackName: (value) => text(value)?.match(/^[A-Za-z][A-Za-z0-9-]{0,127}$/)?.[0],
  stageName: (value) => text(value)?.match(/^[A-Za-z0-9_]{1,128}$/)?.[0],
  destroyOnRemoval: flag,
  authorizerCacheSeconds: whole(0, 3600),
  throttlingRateLimit: whole(1, 10_000),
  throttlingBurstLimit: whole(1, 5_000),
  tracing: flag,
  logRetentionDays: (value) => {
    const days = whole(1, 3653)(value);
    const accepted = [
      1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
    ];
    return days !== undefined && accepted.includes(days) ? days : undefined;
  },
  defaultLocale: (value) => (value === 'az' || value === 'en' ? value : undefined),
  serviceTimeZone: (value) => {
    const zone = text(value);
    return zone ? canonicalTimeZone(zone) : undefined;
  },
  defaultPerPage: whole(LIMITS.perPage.min, LIMITS.perPage.max),
  publicBaseUrl: (value) => text(value)?.match(/^(?:https?:\/\/[^?#\s]+)?$/)?.[0],
  alarmEmail: (value) => text(value)?.match(/^(?:[^@\s]+@[^@\s]+\.[^@\s]+)?$/)?.[0],
  rateTiers: (value) => rateTiers(typeof value === 'string' ? parseJson(value) : value),
  // Checked against the tiers once both are read (`checkTogether`).
  defaultRateTier: (value) => text(value)?.match(TIER_NAME)?.[0],
  // AWS WAF's rate-based rules take 10 requests per window at the least.
  wafRateLimit: (value) => {
    const limit = whole(0, 2_000_000_000)(value);
    return limit === 0 || (limit !== undefined && limit >= 10) ? limit : undefined;
  },
};

const TIER_NAME = /^[a-z][a-z0-9-]{0,31}$/;

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Rate tiers: at least one, named `a-z0-9-`, each a whole rate ≥ 1 and a burst ≥ 1 (requests per second). */
function rateTiers(value: unknown): Record<string, RateTier> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return undefined;
  const tiers: Record<string, RateTier> = {};
  for (const [name, tier] of entries) {
    const { rate, burst } = (typeof tier === 'object' && tier !== null ? tier : {}) as Record<
      string,
      unknown
    >;
    const checkedRate = whole(1, 10_000)(rate);
    const checkedBurst = whole(1, 5_000)(burst);
    if (!TIER_NAME.test(name) || checkedRate === undefined || checkedBurst === undefined) return undefined;
    tiers[name] = { rate: checkedRate, burst: checkedBurst };
  }
  return tiers;
}

/** Rules between settings: the default tier is a tier, and no tier is faster than the stage it is a plan of. */
function checkTogether(settings: ServiceSettings): void {
  if (!Object.hasOwn(settings.rateTiers, settings.defaultRateTier)) {
    throw new Error(
      `Context "defaultRateTier" names no tier of rateTiers: ${JSON.stringify(settings.defaultRateTier)}.`,
    );
  }
  for (const [name, tier] of Object.entries(settings.rateTiers)) {
    if (tier.rate > settings.throttlingRateLimit || tier.burst > settings.throttlingBurstLimit) {
      throw new Error(
        `Context "rateTiers": tier "${name}" (${tier.rate}/s, burst ${tier.burst}) exceeds the stage's limit (${settings.throttlingRateLimit}/s, burst ${settings.throttlingBurstLimit}).`,
      );
    }
  }
}

/** Where settings come from: a CDK app's context (`node.tryGetContext`), or `cdk.json` read directly. */
export type SettingLookup = (key: string) => unknown;

/**
 * Reads the settings, applying the defaults; an invalid value stops the synth (or the local server) with the
 * setting's name. The CDK app passes its context; the local server passes `cdk.json`'s (`settingsOfCdkJson`),
 * so both run the same tiers and limits.
 */
export function readSettings(lookup: SettingLookup): ServiceSettings {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof ServiceSettings)[]) {
    const raw: unknown = lookup(key);
    if (raw === undefined || raw === null) {
      settings[key] = DEFAULT_SETTINGS[key];
      continue;
    }
    const value = CHECKS[key](raw);
    if (value === undefined)
      throw new Error(`Context "${key}" has an invalid value: ${JSON.stringify(raw)}.`);
    settings[key] = value;
  }
  checkTogether(settings as unknown as ServiceSettings);
  return settings as unknown as ServiceSettings;
}

/** The settings of `cdk.json`'s context (for tools outside a CDK app: the local server, the ops CLI). */
export function settingsOfCdkJson(path = new URL('../cdk.json', import.meta.url).pathname): ServiceSettings {
  const context =
    (JSON.parse(readFileSync(path, 'utf8')) as { context?: Record<string, unknown> }).context ?? {};
  return readSettings((key) => context[key]);
}
