/**
 * Waiting between retries of batch calls: full-jitter exponential backoff (AWS Architecture Blog, "Exponential
 * Backoff and Jitter"), bounded by a policy, and a wait that a request's deadline can cut short.
 */
import { setTimeout as wait } from 'node:timers/promises';

/**
 * Retries of the keys a batch call left unprocessed. `maxStalls` bounds the rounds in a row that processed
 * nothing: a round that made progress (DynamoDB stopped at its response size limit, say) is not a failure,
 * and is followed at once; a round that made none waits with full-jitter backoff.
 */
export interface RetryPolicy {
  readonly maxStalls: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** The wait before retry `stall` (1, 2, …) of a policy. */
export function backoffDelay(stall: number, policy: RetryPolicy): number {
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** stall);
}

/** Resolves after `milliseconds`, or rejects (AbortError) as soon as `signal` aborts. */
export const sleep = (milliseconds: number, signal?: AbortSignal) =>
  wait(milliseconds, undefined, signal ? { signal } : undefined);
