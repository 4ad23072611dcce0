/**
 * What makes a vendor's summary exact again after its writer died holding a lease, with nobody doing anything
 * (docs/design.md#a-kill-timeline). A writer taking a lease also arms a *guard*: a wake-up, on a timer that outlives
 * it, for when the lease could be taken over were the writer dead — its end plus the lateness window
 * (`leaseTakenOver`) — and disarms it when it lets go cleanly. When a guard fires, `recoverSummary` does what the
 * summary needs: nothing when no lease is left and it is trusted; a guard for the latest lease still running (a live
 * writer renews, so the guards chain until it lets go or dies); otherwise the recount of that one vendor.
 *
 * The timer is the caller's: an EventBridge Scheduler one-time schedule on AWS (`summary-schedules.ts`), a timer of
 * the local server locally (`lib/local/summary-guard-runner.ts`) — the same policy on both.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { leaseTakenOver, needsRecount, type Summary } from '../schema/summary';
import type { TableNames } from '../schema/tables';
import { LATE_WRITE_MS } from '../settings/recovery-waits';
import { serverClock } from './clock';
import { type RecountOptions, recountSummary } from './recount';
import { SummaryStore } from './summary-store';

/**
 * How long after a lease could be taken over its guard fires: the guard's clock and the lease's may be a second
 * apart (`domain/store/clock.ts`), and a one-time schedule fires on a whole second.
 */
export const SUMMARY_GUARD_GRACE_MS = 2_000;

/** The timer of the guards: wakes `recoverSummary` for a vendor at `at` (ms), whatever becomes of the caller. */
export interface SummaryGuardTimer {
  arm(vendorId: string, at: number): Promise<void>;
  /** Cancels what `arm` set for `at` (a lease let go cleanly); harmless if it fires all the same. */
  disarm(vendorId: string, at: number): Promise<void>;
}

/** When the guard of a lease that runs out at `expires` fires. */
export const guardTime = (expires: number) => expires + LATE_WRITE_MS + SUMMARY_GUARD_GRACE_MS;

/** What a guard's firing did. */
export type RecoveryOutcome =
  /** The summary is trusted, no lease is left: nothing to do. */
  | 'current'
  /** A lease still runs (or was taken meanwhile): a guard is armed for it. */
  | 'guarded'
  /** The summary was counted anew. */
  | 'recounted';

/** What `recoverSummary` needs. */
export interface RecoveryOptions extends Pick<RecountOptions, 'sleep' | 'settleMs'> {
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly timer: SummaryGuardTimer;
  readonly now?: () => number;
}

/** The guard a summary's leases still need (the latest of them), or undefined when none runs. */
export function guardNeeded(summary: Summary | undefined, now: number): number | undefined {
  if (!summary) return undefined;
  const running = [...summary.leases.values()].filter(
    (expires) => !leaseTakenOver(expires, now, LATE_WRITE_MS),
  );
  return running.length > 0 ? guardTime(Math.max(...running)) : undefined;
}

/** A guard fired for a vendor: see the module's comment. */
export async function recoverSummary(vendorId: string, options: RecoveryOptions): Promise<RecoveryOutcome> {
  const now = options.now ?? serverClock(options.client);
  const store = new SummaryStore(options.client, options.tables.vendors);
  const { summary } = await store.read(vendorId);
  const guard = guardNeeded(summary, now());
  if (guard !== undefined) {
    await options.timer.arm(vendorId, guard);
    return 'guarded';
  }
  if (!needsRecount(summary, now(), LATE_WRITE_MS) || summary === undefined) return 'current';
  const outcome = await recountSummary(vendorId, {
    client: options.client,
    tables: options.tables,
    now,
    ...(options.sleep && { sleep: options.sleep }),
    ...(options.settleMs !== undefined && { settleMs: options.settleMs }),
  });
  if (outcome === 'recounted') return 'recounted';
  // A writer started meanwhile: its lease's guard is armed by it; one more here costs nothing.
  const again = guardNeeded((await store.read(vendorId)).summary, now());
  if (again !== undefined) await options.timer.arm(vendorId, again);
  return 'guarded';
}
