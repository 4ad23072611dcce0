/**
 * The webhooks' wake-up policy (docs/design.md#webhooks), as pure rules over the clock's time, a wake-up's due time,
 * the run's time left and the margins of `WEBHOOK_WAKE_UPS` (domain/service/limits.ts): the function on AWS (`handler.ts`,
 * `run.ts`) and the local server's timers (`replacesHeld`, `delayUntil`) decide by them, so the rule is tested once
 * without a clock of its own (test/unit/lambda/functions/webhooks/wake-up.test.ts).
 *
 * On AWS a run ends: a wake-up due soon is waited for in it, a later one is a one-time schedule (`schedules.ts`).
 * The local server's process outlives its runs, so there every wake-up is a timer of the process
 * (`lib/local/coalescing-runner.ts`); what it shares with the function is that an endpoint has one wake-up, the
 * earliest asked, and that it waits until it is due.
 */

/** The margins the policy decides by: `WEBHOOK_WAKE_UPS` in a deployment, a test's own in the tests. */
export interface WakeUpPolicy {
  /** A wake-up due this soon (ms) is waited for in the run rather than scheduled. */
  readonly inRunWaitMs: number;
  /** A dispatch stops before its next event when the run has less than this left (ms). */
  readonly stopMarginMs: number;
}

/** The wake-ups asked for during a run that are due soon enough to wait for in it: the due time, by endpoint. */
export type InRunWakes = Map<string, number>;

/** Where a wake-up goes: waited for in the run, or a one-time schedule that outlives it. */
export type WakeUpPlace = 'in-run' | 'schedule';

/** Where a wake-up due at `dueAt` goes, asked at `now` (both ms). */
export function placeWakeUp(now: number, dueAt: number, policy: WakeUpPolicy): WakeUpPlace {
  return dueAt - now <= policy.inRunWaitMs ? 'in-run' : 'schedule';
}

/**
 * Whether a wake-up due at `dueAt` replaces the one `held` for the same endpoint: the earliest wins, since a
 * dispatch sends everything of the endpoint that is due by then.
 */
export function replacesHeld(held: number | undefined, dueAt: number): boolean {
  return held === undefined || dueAt < held;
}

/** Milliseconds from `now` until `dueAt`; none when it is past. */
export function delayUntil(now: number, dueAt: number): number {
  return Math.max(0, dueAt - now);
}

/**
 * A wake-up asked during a run: held in `wakes` (the earliest per endpoint) when it is due soon enough to wait for,
 * else `'schedule'` — the caller makes its one-time schedule.
 */
export function askWakeUp(
  wakes: InRunWakes,
  endpointId: string,
  dueAt: number,
  now: number,
  policy: WakeUpPolicy,
): WakeUpPlace {
  const place = placeWakeUp(now, dueAt, policy);
  if (place === 'in-run' && replacesHeld(wakes.get(endpointId), dueAt)) wakes.set(endpointId, dueAt);
  return place;
}

/**
 * The in-run wake-up to wait for next: the earliest held, when the run's time left reaches it; none when there is
 * none or the run cannot wait that long (what is held is then scheduled).
 */
export function nextInRunWake(
  wakes: ReadonlyMap<string, number>,
  now: number,
  timeLeftMs: number,
): { readonly endpointId: string; readonly dueAt: number } | undefined {
  let next: { endpointId: string; dueAt: number } | undefined;
  for (const [endpointId, dueAt] of wakes) if (!next || dueAt < next.dueAt) next = { endpointId, dueAt };
  return next && next.dueAt - now <= timeLeftMs ? next : undefined;
}

/** Whether a dispatch stops before its next event: the run has less than the margin left. */
export function stopsBeforeNextEvent(timeLeftMs: number, policy: WakeUpPolicy): boolean {
  return timeLeftMs < policy.stopMarginMs;
}
