/**
 * The rate tiers (docs/api.md#rate-limits), every rule of them in one home, derived from one table of the kinds of
 * key (`KEY_KIND_TIERS`): which tier a key counts against and under which of its vendor's usage keys, the tiers a
 * deployment has by default, how a tier is checked and named, how it is stated to a client (`RateLimit-Policy`)
 * and how long a client may keep an answer. The settings (`settings.ts`), the authorizer,
 * the listing's headers, the stack's usage plans (lib/stack/rate-tiers.ts), the local server's limiter
 * (lib/local/rate-limiter.ts) and the ops CLI all read them here.
 */
import type { KeyKind, Vendor } from '../schema/vendors';
import { type Check, jsonObject, whole } from './checks';

/** A rate tier: a steady rate and a burst, in requests per second. */
export interface RateTier {
  readonly rate: number;
  readonly burst: number;
}

/** What a kind of key gets: one row of `KEY_KIND_TIERS`. */
export interface KeyKindTier {
  /**
   * The tier its requests count against, the same for every vendor; absent: the vendor's own (`Vendor.rateTier`, an
   * operator's choice), which is `defaultTier` unless an operator moves it.
   */
  readonly tier?: string;
  /** The name and rates of the tier in a deployment whose settings (`rateTiers`) do not say otherwise. */
  readonly defaultTier: string;
  readonly defaultRates: RateTier;
  /** The vendor's usage key it counts under: the API Gateway key the authorizer hands over. */
  readonly usageKey: 'usageKey' | 'browserUsageKey';
  /** The `Cache-Control` of its 200s (and 304s). */
  readonly cacheControl: string;
}

/**
 * The kinds of key and their tiers. A publishable key (a web page's, docs/api.md#from-a-web-page) counts against
 * the browser tier under a usage key of its own, so that a flood from pages never throttles the vendor's sync
 * jobs, nor the reverse; its page may keep an answer a minute. A secret key (a server's, a sync job's) counts
 * against the vendor's own tier, and its client revalidates every time (the ETag makes that a 304).
 */
export const KEY_KIND_TIERS = {
  secret: {
    defaultTier: 'standard',
    defaultRates: { rate: 10, burst: 20 },
    usageKey: 'usageKey',
    cacheControl: 'private, no-cache',
  },
  publishable: {
    tier: 'browser',
    defaultTier: 'browser',
    defaultRates: { rate: 20, burst: 40 },
    usageKey: 'browserUsageKey',
    cacheControl: 'private, max-age=60',
  },
} as const satisfies Record<KeyKind, KeyKindTier>;

/**
 * The tier of every vendor's publishable keys: always among a deployment's tiers (`withBrowserTier`), never a
 * vendor's own tier (`isVendorTier`).
 */
export const BROWSER_TIER = KEY_KIND_TIERS.publishable.tier;

/**
 * The tier of every public agent endpoint (`POST /mcp/{token}`, docs/api.md#agents-mcp): 5 requests a second, burst
 * 10, a bucket per endpoint — its own API key in its own usage plan — so that a flood on a public URL never takes the
 * budget of the vendor's keys, nor of another endpoint.
 */
export const AGENT_TIER = 'agent';
export const AGENT_RATES: RateTier = { rate: 5, burst: 10 };

/** The tier a vendor is on unless an operator moves it (setting `defaultRateTier`). */
export const DEFAULT_RATE_TIER = KEY_KIND_TIERS.secret.defaultTier;

/** The rate tiers a deployment has unless its settings say otherwise (setting `rateTiers`). */
export const DEFAULT_RATE_TIERS: Readonly<Record<string, RateTier>> = Object.fromEntries(
  Object.values(KEY_KIND_TIERS).map(({ defaultTier, defaultRates }) => [defaultTier, defaultRates]),
);

/** A rate tier's name: lower case letters, digits and `-`, starting with a letter. */
export const TIER_NAME = /^[a-z][a-z0-9-]{0,31}$/;
/** The largest steady rate and burst a usage plan (and a stage) takes, in requests per second. */
export const RATE_LIMIT_MAX = 10_000;
export const BURST_LIMIT_MAX = 5_000;

/** Rate tiers: at least one, each named like `TIER_NAME`, with a whole rate and burst of at least 1. */
export const checkRateTiers: Check<Readonly<Record<string, RateTier>>> = (value) => {
  const object = jsonObject(value);
  if (!object || Object.keys(object).length === 0) return undefined;
  const tiers: Record<string, RateTier> = {};
  for (const [name, tier] of Object.entries(object)) {
    const { rate, burst } = jsonObject(tier) ?? {};
    const checkedRate = whole(1, RATE_LIMIT_MAX)(rate);
    const checkedBurst = whole(1, BURST_LIMIT_MAX)(burst);
    if (!TIER_NAME.test(name) || checkedRate === undefined || checkedBurst === undefined) return undefined;
    tiers[name] = { rate: checkedRate, burst: checkedBurst };
  }
  return tiers;
};

/** What `checkRateTiers` allows, in words, for the setting's one-line error. */
export const RATE_TIERS_ALLOWED = `an object of tiers named a-z, 0-9 and "-", each {"rate": 1-${RATE_LIMIT_MAX}, "burst": 1-${BURST_LIMIT_MAX}}`;

/** Whether a tier may be a vendor's own: any but the publishable keys' and the public agent endpoints'. */
export const isVendorTier = (name: string): boolean => name !== BROWSER_TIER && name !== AGENT_TIER;

/** Why `isVendorTier` refuses the browser and agent tiers, in words, for a one-line error. */
export const NOT_A_VENDOR_TIER = `"${BROWSER_TIER}" is the tier of every vendor's publishable keys and "${AGENT_TIER}" that of its public agent endpoints, not a vendor's own tier`;

/**
 * A deployment's tiers with the publishable keys' and the public agent endpoints' always among them: the default
 * browser and agent tiers, never faster than the stage (`stage`, its throttling), unless the tiers name them.
 */
export function withBrowserTier(
  tiers: Readonly<Record<string, RateTier>>,
  stage: RateTier,
): Readonly<Record<string, RateTier>> {
  const capped = ({ rate, burst }: RateTier) => ({
    rate: Math.min(rate, stage.rate),
    burst: Math.min(burst, stage.burst),
  });
  return {
    ...tiers,
    ...(!Object.hasOwn(tiers, BROWSER_TIER) && {
      [BROWSER_TIER]: capped(KEY_KIND_TIERS.publishable.defaultRates),
    }),
    ...(!Object.hasOwn(tiers, AGENT_TIER) && { [AGENT_TIER]: capped(AGENT_RATES) }),
  };
}

/** The tier a key of `keyKind` counts against, and the vendor's usage key it counts under (absent: never given). */
export function keyTier(
  keyKind: KeyKind,
  vendor: Pick<Vendor, 'rateTier' | 'usageKey' | 'browserUsageKey'>,
): { readonly tier: string; readonly usageKey: string | undefined } {
  const row: KeyKindTier = KEY_KIND_TIERS[keyKind];
  return { tier: row.tier ?? vendor.rateTier, usageKey: vendor[row.usageKey] };
}

/** A tier of the deployment's by name; none when it has no such tier (an own property only). */
export function findTier(
  tiers: Readonly<Record<string, RateTier>> | undefined,
  name: string,
): RateTier | undefined {
  return tiers && Object.hasOwn(tiers, name) ? tiers[name] : undefined;
}

/** A tier's policy as the `RateLimit-Policy` header states it (IETF draft "RateLimit header fields for HTTP"). */
export const rateLimitPolicy = (name: string, tier: RateTier) => `"${name}";q=${tier.rate};w=1`;

/** The tier's name and rate a `RateLimit-Policy` header of `rateLimitPolicy`'s form states; none for another form. */
export function readRateLimitPolicy(
  header: string,
): { readonly name: string; readonly rate: number } | undefined {
  const match = /^"([^"]*)";q=(\d+);w=1$/.exec(header);
  return match ? { name: match[1] as string, rate: Number(match[2]) } : undefined;
}

/** The `Cache-Control` of a 200 (or 304) to a key of `keyKind`: a page may keep it a minute, a server revalidates. */
export const cacheControl = (keyKind: KeyKind | undefined): string =>
  KEY_KIND_TIERS[keyKind ?? 'secret'].cacheControl;
