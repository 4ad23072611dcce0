/**
 * The time budget of one request (docs/design.md#time-budget): every DynamoDB call of the request runs
 * under a signal that aborts it when the function's remaining time, less a reserve to answer in, is spent.
 * Throttled, failing and slow all end the same way then: an error that means "retry later" (503), answered
 * before Lambda's own timeout could turn it into a 502.
 */

/** What of the Lambda context a deadline needs. */
export interface RemainingTime {
  getRemainingTimeInMillis(): number;
}

/** A signal that aborts when the request's budget (remaining time less `reserveMs`) is spent. */
export function deadlineSignal(context: RemainingTime, reserveMs: number): AbortSignal {
  return AbortSignal.timeout(Math.max(0, context.getRemainingTimeInMillis() - reserveMs));
}

/** The SDK's per-call option that puts a call under a deadline (none when there is no signal). */
export const underDeadline = (signal: AbortSignal | undefined) =>
  signal ? { abortSignal: signal } : undefined;
