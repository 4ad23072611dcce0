/**
 * The change feed's settle rule (docs/design.md#incremental-sync, #when-a-vacancy-changed): a write reaches the
 * indexes within the settle window of its stamp, so a vendor's change index is read as final only that far back from
 * now. The window's length is a recovery wait, written once in `domain/settings/recovery-waits.ts` (`INDEX_SETTLE_MS`); what
 * follows from it — where a sync's snapshot and a webhook event end, when a change has settled, how far back a tool
 * may move a position or a horizon — is here, for the sync, the webhooks' dispatch, the recount and the tools alike.
 */

import { earliestLeaseStart, type Summary } from '../schema/summary';
import { INDEX_SETTLE_MS } from '../settings/recovery-waits';

/**
 * Until when (ms) a vendor's change index can be read as final at `now`: the settle window (`settleMs`) back, on a
 * whole second, for the changes still reaching the index — and while a writer is at work (or one stopped without
 * letting go), not after its lease began, since a write of its may land late. A sync's snapshot and a webhook event
 * end there; what changed after it is the next one's.
 *
 * Never before 0: a lease whose start is not known (a recount's) holds everything back to the start of time, and a
 * change key cannot hold a time before it (`domain/schema/change-index.ts`).
 */
export function settledUntil(now: number, summary: Summary | undefined, settleMs = INDEX_SETTLE_MS): number {
  const settled = Math.ceil((now - settleMs) / 1000) * 1000;
  const leaseStart = earliestLeaseStart(summary);
  const until =
    leaseStart === undefined ? settled : Math.min(settled, Math.floor(leaseStart / 1000) * 1000 - 1000);
  return Math.max(0, until);
}

/** When (ms) a change stamped at `stamp` has surely reached the indexes. */
export function settlesAt(stamp: number, settleMs = INDEX_SETTLE_MS): number {
  return stamp + settleMs;
}

/**
 * The latest stamp (ms) every change before which has surely reached the indexes at `now`, unrounded: how far back
 * a tool may set a purge horizon, or an endpoint's first position, without passing a change still on its way.
 */
export function settledBefore(now: number, settleMs = INDEX_SETTLE_MS): number {
  return now - settleMs;
}
