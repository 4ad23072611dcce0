/**
 * The rate tiers' rules (lambda/domain/settings/rate-tiers.ts), each derived from the one table of the kinds of key: the
 * default tiers, a key's tier and usage key, the browser tier a deployment always has, the lookup, the
 * `RateLimit-Policy` header and the `Cache-Control` of each kind of key.
 */
import { describe, expect, it } from '@jest/globals';
import {
  BROWSER_TIER,
  cacheControl,
  checkRateTiers,
  DEFAULT_RATE_TIER,
  DEFAULT_RATE_TIERS,
  findTier,
  isVendorTier,
  keyTier,
  rateLimitPolicy,
  readRateLimitPolicy,
  withBrowserTier,
} from '../../../../../lambda/domain/settings/rate-tiers';

const VENDOR = { rateTier: 'partner', usageKey: 'u-secret', browserUsageKey: 'u-browser' };

describe('the rate tiers', () => {
  it('has the default tiers of the table: standard for vendors, browser for publishable keys', () => {
    expect(DEFAULT_RATE_TIERS).toEqual({
      standard: { rate: 10, burst: 20 },
      browser: { rate: 20, burst: 40 },
    });
    expect(DEFAULT_RATE_TIER).toBe('standard');
    expect(BROWSER_TIER).toBe('browser');
    expect(isVendorTier('standard')).toBe(true);
    expect(isVendorTier('browser')).toBe(false);
    expect(isVendorTier('agent')).toBe(false);
  });

  it("counts a secret key against the vendor's tier and a publishable one against the browser tier", () => {
    expect(keyTier('secret', VENDOR)).toEqual({ tier: 'partner', usageKey: 'u-secret' });
    expect(keyTier('publishable', VENDOR)).toEqual({ tier: 'browser', usageKey: 'u-browser' });
    expect(keyTier('publishable', { rateTier: 'partner' })).toEqual({ tier: 'browser', usageKey: undefined });
  });

  it('gives a deployment the browser and agent tiers, never faster than the stage, unless it names its own', () => {
    const stage = { rate: 15, burst: 100 };
    expect(withBrowserTier({ standard: { rate: 5, burst: 5 } }, stage)).toEqual({
      standard: { rate: 5, burst: 5 },
      browser: { rate: 15, burst: 40 },
      agent: { rate: 5, burst: 10 },
    });
    expect(withBrowserTier({ standard: { rate: 5, burst: 5 } }, { rate: 2, burst: 3 }).agent).toEqual({
      rate: 2,
      burst: 3,
    });
    const own = {
      standard: { rate: 5, burst: 5 },
      browser: { rate: 1, burst: 2 },
      agent: { rate: 1, burst: 1 },
    };
    expect(withBrowserTier(own, stage)).toEqual(own);
  });

  it('checks tiers: named a-z, 0-9 and "-", whole rates within the usage plans\' limits', () => {
    expect(checkRateTiers({ gold: { rate: 100, burst: 200 } })).toEqual({ gold: { rate: 100, burst: 200 } });
    expect(checkRateTiers({})).toBeUndefined();
    expect(checkRateTiers({ Gold: { rate: 1, burst: 1 } })).toBeUndefined();
    expect(checkRateTiers({ gold: { rate: 10_001, burst: 1 } })).toBeUndefined();
    expect(checkRateTiers({ gold: { rate: 1, burst: 5_001 } })).toBeUndefined();
  });

  it("finds a deployment's own tiers only, and states one in RateLimit-Policy", () => {
    expect(findTier(DEFAULT_RATE_TIERS, 'standard')).toEqual({ rate: 10, burst: 20 });
    expect(findTier(DEFAULT_RATE_TIERS, 'toString')).toBeUndefined();
    expect(findTier(undefined, 'standard')).toBeUndefined();
    const header = rateLimitPolicy('standard', { rate: 10, burst: 20 });
    expect(header).toBe('"standard";q=10;w=1');
    expect(readRateLimitPolicy(header)).toEqual({ name: 'standard', rate: 10 });
    expect(readRateLimitPolicy('"standard";q=10;w=60')).toBeUndefined();
  });

  it('lets a page keep an answer a minute, and has a server revalidate', () => {
    expect(cacheControl('publishable')).toBe('private, max-age=60');
    expect(cacheControl('secret')).toBe('private, no-cache');
    expect(cacheControl(undefined)).toBe('private, no-cache');
  });
});
