/**
 * A flood, as a runaway client sends one — requests back to back on a few connections at a time, until enough of
 * them are refused — so that a test of a rate limit waits for the refusals themselves, however slowly a loaded
 * machine answers, and bounds what was admitted by the time the flood took; and a local API with rate limits on to
 * send it to.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import type { LocalApiOptions } from '../lib/local/local-api';
import { type LocalApiProcess, startLocalApiProcess } from './local-api-process';

/** What a flood was answered, and how long it took. */
export interface Flood {
  readonly answers: readonly Response[];
  readonly seconds: number;
  /** The answers of a status. */
  readonly withStatus: (status: number) => Response[];
}

export interface FloodOptions {
  /** Requests in flight at a time (10). */
  readonly connections?: number;
  /** The flood ends once this many answers were 429 (5)… */
  readonly refusals?: number;
  /** …or once this many requests were answered (400). */
  readonly most?: number;
}

/** Sends `request` back to back on `connections` at a time until `refusals` 429s (or `most` answers). */
export async function flood(request: () => Promise<Response>, options: FloodOptions = {}): Promise<Flood> {
  const { connections = 10, refusals = 5, most = 400 } = options;
  const started = performance.now();
  const answers: Response[] = [];
  let sent = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < most && refused < refusals) {
        sent += 1;
        const answer = await request();
        if (answer.status === 429) refused += 1;
        answers.push(answer);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { answers, seconds, withStatus: (status) => answers.filter((answer) => answer.status === status) };
}

/**
 * A token bucket's bound on a flood: at least `least` admitted (a full bucket: the burst), no more than the burst and
 * the rate over the time the flood took, the rest refused — each API Gateway's 429 in the envelope, `Retry-After: 1`.
 */
export async function expectThrottled(
  { answers, seconds, withStatus }: Flood,
  tier: { readonly rate: number; readonly burst: number },
  { least = tier.burst, admittedStatus = 200 }: { least?: number; admittedStatus?: number } = {},
): Promise<void> {
  const admitted = withStatus(admittedStatus).length;
  expect(admitted).toBeGreaterThanOrEqual(least);
  expect(admitted).toBeLessThanOrEqual(tier.burst + Math.ceil(tier.rate * seconds));
  const throttled = withStatus(429);
  expect(throttled.length).toBeGreaterThanOrEqual(1);
  expect(throttled.length).toBe(answers.length - admitted);
  for (const response of throttled.slice(0, 3)) {
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({
      status: 'error',
      message: 'Too Many Requests.',
      request_id: response.headers.get('x-request-id'),
    });
  }
}

/**
 * A describe block's local API with rate limits on (`--rate-limits`): started on free ports with this seed and
 * these settings before its tests, stopped after them; `url()` is its base URL once started.
 */
export function rateLimitedApi(
  seedFile: string,
  settings: LocalApiOptions['settings'],
): { url: () => string } {
  let api: LocalApiProcess | undefined;
  beforeAll(async () => {
    api = await startLocalApiProcess({ port: 0, dynamodbPort: 0, seedFile, settings, rateLimits: true });
  });
  afterAll(async () => api?.stop());
  return { url: () => api?.url ?? '' };
}
