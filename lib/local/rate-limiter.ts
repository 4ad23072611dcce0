/**
 * The local server's stand-in for API Gateway's throttling (`npm start -- --rate-limits`): a token bucket per
 * usage key, with the rate and burst of the vendor's tier, under the stage's own bucket — the same settings as
 * the deployed usage plans and stage.
 */
import { findTier, type RateTier } from '../../lambda/domain/settings/rate-tiers';

/** A token bucket: holds up to `burst` tokens, refilled at `rate` a second; a request takes one. */
export class TokenBucket {
  #tokens: number;
  #updatedAt: number;

  constructor(
    private readonly tier: RateTier,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#tokens = tier.burst;
    this.#updatedAt = now();
  }

  /** Takes a token if there is one. */
  take(): boolean {
    const now = this.now();
    this.#tokens = Math.min(
      this.tier.burst,
      this.#tokens + ((now - this.#updatedAt) / 1000) * this.tier.rate,
    );
    this.#updatedAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** What the limiter decides for a request: through, throttled (429), or a key in no plan (API Gateway's 403). */
export type Admission = 'admitted' | 'throttled' | 'invalid-key';

/** Per-key buckets of the tiers, and the stage's bucket over all of them. */
export class RateLimiter {
  readonly #keys = new Map<string, TokenBucket>();
  readonly #stage: TokenBucket;

  constructor(
    private readonly tiers: Readonly<Record<string, RateTier>>,
    stage: RateTier,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#stage = new TokenBucket(stage, now);
  }

  /** Admits a request of a usage key whose plan is `tier`. */
  admit(usageKey: string, tier: string): Admission {
    const rates = findTier(this.tiers, tier);
    if (!rates) return 'invalid-key';
    let bucket = this.#keys.get(usageKey);
    if (!bucket) {
      bucket = new TokenBucket(rates, this.now);
      this.#keys.set(usageKey, bucket);
    }
    return bucket.take() && this.#stage.take() ? 'admitted' : 'throttled';
  }
}
