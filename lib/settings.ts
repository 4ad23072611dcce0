import { readFileSync } from 'node:fs';
import { flag, matching, oneOf, text, whole } from '../lambda/domain/settings/checks';
import { SettingError } from '../lambda/domain/settings/errors';
import {
  checkSetting,
  FUNCTION_SETTINGS,
  notAllowed,
  type SettingDefinition,
} from '../lambda/domain/settings/function-settings';
import {
  BROWSER_TIER,
  BURST_LIMIT_MAX,
  DEFAULT_RATE_TIER,
  isVendorTier,
  RATE_LIMIT_MAX,
  type RateTier,
  TIER_NAME,
  withBrowserTier,
} from '../lambda/domain/settings/rate-tiers';
import { canonicalTimeZone } from './time-zone';

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

/**
 * Every deployment setting (docs/operating.md#settings), written once: its default, its check and what it allows.
 * The functions' own settings come from `lambda/domain/settings/function-settings.ts`, with the very checks the functions
 * apply at cold start; only the time zone is made canonical first (`asia/baku` → `Asia/Baku`), with `Intl`, which
 * the functions do without.
 */
export const SETTINGS = {
  stackName: {
    default: 'VendorVacancyApi',
    check: matching(/^[A-Za-z][A-Za-z0-9-]{0,127}$/),
    allowed: 'a CloudFormation stack name: a letter, then up to 127 letters, digits and "-"',
  },
  stageName: {
    default: 'prod',
    check: matching(/^[A-Za-z0-9_]{1,128}$/),
    allowed: 'an API Gateway stage name: 1 to 128 letters, digits and "_"',
  },
  destroyOnRemoval: { default: false, check: flag, allowed: 'true or false' },
  authorizerCacheSeconds: {
    default: 300,
    check: whole(0, 3600),
    allowed: 'a whole number of seconds from 0 (no cache) to 3600',
  },
  throttlingRateLimit: {
    default: 50,
    check: whole(1, RATE_LIMIT_MAX),
    allowed: `a whole number of requests per second from 1 to ${RATE_LIMIT_MAX}`,
  },
  throttlingBurstLimit: {
    default: 100,
    check: whole(1, BURST_LIMIT_MAX),
    allowed: `a whole number of requests from 1 to ${BURST_LIMIT_MAX}`,
  },
  tracing: { default: true, check: flag, allowed: 'true or false' },
  monitoring: {
    default: 'default' as MonitoringProfile,
    check: oneOf(MONITORING_PROFILES),
    allowed:
      "default (alarms on the metrics AWS gives for free) or detailed (the functions' metrics, a dashboard and top-vendor rules too)",
  },
  logRetentionDays: {
    default: 30,
    check: (value) => {
      const days = whole(1, 3653)(value);
      return days !== undefined && LOG_RETENTION_DAYS.includes(days) ? days : undefined;
    },
    allowed: `a retention CloudWatch Logs accepts: ${LOG_RETENTION_DAYS.join(', ')}`,
  },
  alarmEmail: {
    default: '',
    check: matching(/^(?:[^@\s]+@[^@\s]+\.[^@\s]+)?$/),
    allowed: 'empty, or an e-mail address',
  },
  defaultRateTier: {
    default: DEFAULT_RATE_TIER,
    check: matching(TIER_NAME),
    allowed: 'the name of one of the rateTiers',
  },
  wafRateLimit: {
    default: 0,
    check: (value) => {
      const limit = whole(0, 2_000_000_000)(value);
      return limit === 0 || (limit !== undefined && limit >= WAF_RATE_LIMIT_MIN) ? limit : undefined;
    },
    allowed: `0 (off), or a whole number of requests per 5 minutes from ${WAF_RATE_LIMIT_MIN} (AWS WAF's least) to 2000000000`,
  },
  domainName: {
    default: '',
    check: matching(
      /^(?:(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9])?$/,
    ),
    allowed: 'empty, or a DNS name in lower case, such as api.example.az',
  },
  certificateArn: {
    default: '',
    check: matching(/^(?:arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36})?$/),
    allowed:
      "empty, or the ARN of an ACM certificate (arn:aws:acm:<region>:<account>:certificate/<id>) in the stack's region",
  },
  hostedZoneId: {
    default: '',
    check: matching(/^(?:Z[A-Z0-9]{1,31})?$/),
    allowed: 'empty, or a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ',
  },
  basePath: {
    default: '',
    check: matching(/^(?:[A-Za-z0-9._-]{1,128})?$/),
    allowed: 'empty, or one path segment of letters, digits, ".", "_" and "-", such as v1',
  },
  disableExecuteApiEndpoint: { default: false, check: flag, allowed: 'true or false' },
  ...FUNCTION_SETTINGS,
  serviceTimeZone: {
    ...FUNCTION_SETTINGS.serviceTimeZone,
    check: (value) => {
      const zone = text(value);
      return zone === undefined
        ? undefined
        : FUNCTION_SETTINGS.serviceTimeZone.check(canonicalTimeZone(zone));
    },
    allowed: `${FUNCTION_SETTINGS.serviceTimeZone.allowed} (in any case)`,
  },
} as const satisfies Record<string, SettingDefinition<unknown>>;

/** The name of a setting. */
export type SettingName = keyof typeof SETTINGS;

/** Every deployment setting's value. */
export type ServiceSettings = { readonly [K in SettingName]: ReturnType<(typeof SETTINGS)[K]['check']> & {} };

/** The defaults of every setting. */
export const DEFAULT_SETTINGS = Object.fromEntries(
  Object.entries(SETTINGS).map(([name, definition]) => [name, definition.default]),
) as unknown as ServiceSettings;

/** The settings that mean something only with a custom domain. */
const DOMAIN_SETTINGS = ['certificateArn', 'hostedZoneId', 'basePath', 'disableExecuteApiEndpoint'] as const;

/**
 * Rules between settings: the default tier is a tier, no tier is faster than the stage it is a plan of, and a custom
 * domain has its certificate (and the settings that refine it have a domain to refine).
 */
function checkTogether(settings: ServiceSettings): void {
  if (settings.domainName && !settings.certificateArn) {
    throw new SettingError(
      `domainName = "${settings.domainName}" needs certificateArn: the ARN of an ACM certificate for that name, in the stack's region.`,
    );
  }
  for (const name of DOMAIN_SETTINGS) {
    if (settings[name] && !settings.domainName) {
      throw new SettingError(`${name} is for a custom domain: give domainName too, or leave ${name} out.`);
    }
  }
  const tiers = Object.keys(settings.rateTiers);
  if (!isVendorTier(settings.defaultRateTier)) {
    throw notAllowed(
      'defaultRateTier',
      settings.defaultRateTier,
      `a tier of secret keys: "${BROWSER_TIER}" is the tier of publishable keys`,
    );
  }
  if (!tiers.includes(settings.defaultRateTier)) {
    throw notAllowed(
      'defaultRateTier',
      settings.defaultRateTier,
      `one of the rateTiers: ${tiers.join(', ')}`,
    );
  }
  const { throttlingRateLimit: rate, throttlingBurstLimit: burst } = settings;
  for (const [name, tier] of Object.entries(settings.rateTiers)) {
    if (tier.rate > rate || tier.burst > burst) {
      throw notAllowed(
        'rateTiers',
        settings.rateTiers,
        `no tier faster than the stage (throttlingRateLimit ${rate}/s, throttlingBurstLimit ${burst}); tier "${name}" is ${tier.rate}/s, burst ${tier.burst}`,
      );
    }
  }
}

/** Letters to change to turn `a` into `b` (Levenshtein distance). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** A context key is a would-be setting when it is a plain camelCase word; CDK's own keys have `:`, `/` or `@`. */
const LOOKS_LIKE_A_SETTING = /^[a-z][A-Za-z0-9]*$/;

/** A key that looks like a setting but is none: an error naming the nearest setting. */
export function checkSettingNames(keys: Iterable<string>): void {
  const names = Object.keys(SETTINGS);
  for (const key of keys) {
    if (!LOOKS_LIKE_A_SETTING.test(key) || Object.hasOwn(SETTINGS, key)) continue;
    const nearest = names.reduce((best, name) =>
      distance(key.toLowerCase(), name.toLowerCase()) < distance(key.toLowerCase(), best.toLowerCase())
        ? name
        : best,
    );
    throw new SettingError(`${key} is not a setting: did you mean ${nearest}?`);
  }
}

/**
 * The base of the URLs the API builds (pagination links): `publicBaseUrl` when it is set (a domain managed outside
 * the stack, behind CloudFront say), else the stack's custom domain with its base path, else none — the address the
 * request came to.
 */
export function linksBaseUrl(settings: ServiceSettings): string {
  if (settings.publicBaseUrl || !settings.domainName) return settings.publicBaseUrl;
  return `https://${settings.domainName}${settings.basePath ? `/${settings.basePath}` : ''}`;
}

/** Where settings come from: a CDK app's context (`node.tryGetContext`), or `cdk.json` read directly. */
export type SettingLookup = (key: string) => unknown;

/**
 * Reads the settings, applying the defaults. A value a setting does not allow is a `SettingError`: one line with
 * the setting, the value and what is allowed. The CDK app passes its context; the local server and the ops CLI pass
 * `cdk.json`'s (`settingsOfCdkJson`), so all run with the same settings.
 */
export function readSettings(lookup: SettingLookup): ServiceSettings {
  const settings: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(SETTINGS) as [string, SettingDefinition<unknown>][]) {
    settings[name] = checkSetting(definition, name, lookup(name));
  }
  // Publishable keys always have their tier: the default one (never faster than the stage), unless the
  // deployment's tiers name it.
  settings.rateTiers = withBrowserTier(settings.rateTiers as Readonly<Record<string, RateTier>>, {
    rate: settings.throttlingRateLimit as number,
    burst: settings.throttlingBurstLimit as number,
  });
  checkTogether(settings as ServiceSettings);
  return settings as ServiceSettings;
}

/** The repository's `cdk.json`. */
export const CDK_JSON = new URL('../cdk.json', import.meta.url).pathname;

/**
 * The settings of `cdk.json`'s context, with `overrides` on top (the local server's `-c name=value`), for tools
 * outside a CDK app: the local server and the ops CLI. A would-be setting that is none is refused, as at synth.
 */
export function settingsOfCdkJson(
  overrides: Readonly<Record<string, string>> = {},
  path = CDK_JSON,
): ServiceSettings {
  const context = {
    ...(JSON.parse(readFileSync(path, 'utf8')) as { context?: Record<string, unknown> }).context,
    ...overrides,
  };
  checkSettingNames(Object.keys(context));
  return readSettings((key) => (Object.hasOwn(context, key) ? context[key] : undefined));
}
