/**
 * The deployment's settings as the tools read them (docs/operating.md#settings): from a CDK app's context or
 * `cdk.json`, each checked against the one table of settings (`lambda/domain/settings/settings.ts`) — its default,
 * its check, what it allows — and then the rules between settings. Only the time zone is made canonical first
 * (`asia/baku` → `Asia/Baku`), with `Intl`, which the functions do without.
 */
import { readFileSync } from 'node:fs';
import { text } from '../lambda/domain/settings/checks';
import { SettingError } from '../lambda/domain/settings/errors';
import {
  isVendorTier,
  NOT_A_VENDOR_TIER,
  type RateTier,
  withBrowserTier,
} from '../lambda/domain/settings/rate-tiers';
import {
  checkSetting,
  notAllowed,
  SETTINGS,
  type ServiceSettings,
  type SettingDefinition,
} from '../lambda/domain/settings/settings';
import { canonicalTimeZone } from './time-zone';

export {
  DEFAULT_SETTINGS,
  MONITORING_PROFILES,
  type MonitoringProfile,
  SETTINGS,
  type ServiceSettings,
  type SettingName,
} from '../lambda/domain/settings/settings';

/**
 * How the tools read a setting: the table's rule, the time zone in any case (`asia/tokyo` is deployed as
 * `Asia/Tokyo`).
 */
function readSetting(name: string, definition: SettingDefinition<unknown>, value: unknown): unknown {
  if (name !== 'serviceTimeZone') return checkSetting(definition, name, value);
  const zone = text(value);
  return checkSetting(
    {
      ...definition,
      check: (given) => (zone === undefined ? undefined : definition.check(canonicalTimeZone(zone) ?? given)),
      allowed: `${definition.allowed} (in any case)`,
    },
    name,
    value,
  );
}

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
  // A vendor's own tiers: the browser and agent tiers, which every deployment has, are never one.
  const tiers = Object.keys(settings.rateTiers).filter(isVendorTier);
  if (!isVendorTier(settings.defaultRateTier)) {
    throw notAllowed(
      'defaultRateTier',
      settings.defaultRateTier,
      `a tier of secret keys: ${NOT_A_VENDOR_TIER}`,
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
    settings[name] = readSetting(name, definition, lookup(name));
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
