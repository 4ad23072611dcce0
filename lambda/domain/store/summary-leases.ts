/**
 * The writers' side of the summary protocol (docs/design.md#the-summary): a run of writers holds one lease per
 * vendor it writes, taken before its first write of that vendor's vacancies and let go after its last delta. While
 * any lease is there, readers do not trust the summary. The deltas of the counts are gathered in memory and added
 * now and then — never one update per record, which would throttle on one item — each update renewing the lease, and
 * only while the lease is still there: a writer whose lease ran out and was taken over by a recount marks the
 * summary broken instead, since its deltas can no longer be placed, and writes no more of that vendor's vacancies.
 *
 * The calls themselves are `SummaryStore`'s; the rules of trust are `domain/schema/summary.ts`.
 */
import { outcomeUnknown } from '../../platform/aws/failure';
import { addCounts, type Counts } from '../schema/summary';
import { WAITS } from '../settings/recovery-waits';
import { SummaryLeaseLostError } from './errors';
import { guardTime, type SummaryGuardTimer } from './summary-guard';
import type { SummaryStore } from './summary-store';

/** A lease, unless renewed, lasts 30 seconds: a writer killed mid-way holds the summary no longer. */
export const LEASE_MS = WAITS.summaryLeaseMs;
const FLUSH_MS = 5_000;
/** Attributes one summary update names, at most (an update expression must stay under 4 KB). */
const ATTRIBUTES_PER_UPDATE = 100;

/** How the leases of a run work. */
export interface SummaryLeasesOptions {
  readonly store: SummaryStore;
  /** The run's clock (ms). */
  readonly now: () => number;
  /** The run's name among the leases of a summary: unique to the run. */
  readonly writer: string;
  /** How long a lease lasts unless renewed. */
  readonly leaseMs?: number;
  /** How often the gathered deltas are added. */
  readonly flushMs?: number;
  /**
   * The timer of the leases' guards (`summary-guard.ts`): each lease arms one before it is taken, for when it could be
   * taken over were the run dead, and disarms it when let go cleanly. None: a dead run's lease waits for a recount.
   */
  readonly guard?: SummaryGuardTimer;
}

/** A run's hold on one vendor's summary, and what it has changed of the counts since it last added them. */
interface VendorLease {
  readonly vendorId: string;
  /** The lease's name in the summary item. */
  readonly name: string;
  taken?: Promise<void>;
  /** The lease's next update number (`SummaryStore.updateUnderLease`). */
  sequence: number;
  /** The latest stamp the run sent for the vendor's vacancies, landed or not (ms). */
  latestStamp: number | undefined;
  pending: Counts;
  lastFlush: number;
  /** When the lease runs out unless renewed (ms, by the run's clock). */
  expires: number;
  /** When its guard fires (ms), once armed. */
  guardAt?: number;
  flushing?: Promise<void>;
  lost: boolean;
  /** A write's outcome stayed unknown: the run does not let go of the lease (`unsettled`). */
  unsettled: boolean;
  /**
   * An update of the summary under this lease failed with no answer: it may have been applied, or may still land, so
   * the lease's update numbers can no longer be trusted to tell a repeat from a new update. The run writes no more
   * of the vendor's vacancies and makes no more updates; the lease runs out and a recount takes it over.
   */
  halted: boolean;
}

/** The summary leases of one run of writers. */
export class SummaryLeases {
  readonly #store: SummaryStore;
  readonly #now: () => number;
  readonly #writer: string;
  readonly #leaseMs: number;
  readonly #flushMs: number;
  readonly #guard: SummaryGuardTimer | undefined;
  readonly #leases = new Map<string, VendorLease>();
  /** Write capacity units of the summary updates. */
  writeUnits = 0;
  /** Updates of summaries: taking a lease, adding deltas, letting go (a few per vendor, whatever the records). */
  updates = 0;

  constructor(options: SummaryLeasesOptions) {
    this.#store = options.store;
    this.#now = options.now;
    this.#writer = options.writer;
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#flushMs = options.flushMs ?? FLUSH_MS;
    this.#guard = options.guard;
  }

  #lease(vendorId: string): VendorLease {
    let lease = this.#leases.get(vendorId);
    if (!lease) {
      lease = {
        vendorId,
        name: `${this.#writer}${this.#leases.size.toString(36)}`,
        sequence: 0,
        latestStamp: undefined,
        pending: new Map(),
        lastFlush: this.#now(),
        expires: 0,
        lost: false,
        unsettled: false,
        halted: false,
      };
      this.#leases.set(vendorId, lease);
    }
    return lease;
  }

  #count(writeUnits: number): void {
    this.writeUnits += writeUnits;
    this.updates += 1;
  }

  /**
   * Takes the vendor's lease, once, before the first write: readers stop trusting the summary first. Its guard is
   * armed before it, so that no lease is ever there without one.
   */
  async #take(lease: VendorLease): Promise<void> {
    lease.taken ??= (async () => {
      const began = this.#now();
      if (this.#guard) {
        lease.guardAt = guardTime(began + this.#leaseMs);
        await this.#guard.arm(lease.vendorId, lease.guardAt);
      }
      this.#count(
        await this.#store.takeWriterLease(lease.vendorId, lease.name, began, began + this.#leaseMs),
      );
      lease.lastFlush = this.#now();
      lease.expires = lease.lastFlush + this.#leaseMs;
    })();
    await lease.taken;
  }

  /**
   * Makes sure the vendor's lease is held, with at least half its time left, before a write: an item write is not
   * conditioned on the lease (DynamoDB Local's engines have no transactions to tie the two), so the lease must
   * outlast every write made under it. The write itself is given up when the lease runs out (`writeSignal`); a
   * recount takes over only after that, and waits the index's settle window before it counts.
   */
  async hold(vendorId: string): Promise<void> {
    const lease = this.#lease(vendorId);
    await this.#take(lease);
    if (!lease.lost && this.#now() >= lease.expires - this.#leaseMs / 2) await this.#flush(lease, false);
    if (lease.lost || lease.halted) throw new SummaryLeaseLostError(vendorId);
  }

  /** A signal that aborts a write after `windowMs`, or sooner if the vendor's lease runs out first. */
  writeSignal(vendorId: string, windowMs: number): AbortSignal {
    const lease = this.#lease(vendorId);
    return AbortSignal.timeout(Math.max(0, Math.min(windowMs, lease.expires - this.#now())));
  }

  /**
   * Notes that a write of the vendor's may land unknown to the run (it failed with no answer, or it was given up and
   * could not be settled): the run does not let go of that vendor's lease, so the summary stays untrusted — and syncs
   * stay behind the lease's start — until a recount takes it over, once the write has landed or never will.
   */
  unsettled(vendorId: string): void {
    this.#lease(vendorId).unsettled = true;
  }

  /** Notes a stamp the run is about to send for one of the vendor's vacancies (before it is sent). */
  stamped(vendorId: string, stamp: number): void {
    const lease = this.#lease(vendorId);
    lease.latestStamp = Math.max(lease.latestStamp ?? stamp, stamp);
  }

  /** Adds a written item's change of the counts to the vendor's pending deltas; adds them all when it is time. */
  async record(vendorId: string, delta: Counts): Promise<void> {
    const lease = this.#lease(vendorId);
    addCounts(lease.pending, delta);
    if (this.#now() - lease.lastFlush >= this.#flushMs) {
      // Marked at once, so that the writes finishing meanwhile do not each start a flush of their own.
      lease.lastFlush = this.#now();
      await this.#flush(lease, false);
    }
  }

  /**
   * Adds the pending deltas to the summary and renews the lease — or, at the end, lets go: bumps the version and
   * records when. Done in updates of at most `ATTRIBUTES_PER_UPDATE` counts, each only while the lease is still
   * there. One flush of a vendor at a time: a flush asked meanwhile follows the one under way.
   */
  async #flush(lease: VendorLease, release: boolean): Promise<void> {
    const previous = lease.flushing ?? Promise.resolve();
    const run = previous.then(async () => {
      if (!lease.taken) return;
      await lease.taken;
      const entries = [...lease.pending];
      lease.pending = new Map();
      const parts: [string, number][][] = [];
      for (let i = 0; i < entries.length; i += ATTRIBUTES_PER_UPDATE) {
        parts.push(entries.slice(i, i + ATTRIBUTES_PER_UPDATE));
      }
      if (parts.length === 0) parts.push([]);
      for (const [index, part] of parts.entries()) {
        await this.#update(lease, part, release && index === parts.length - 1);
      }
      lease.lastFlush = this.#now();
    });
    lease.flushing = run.catch(() => undefined);
    await run;
  }

  async #update(lease: VendorLease, counts: [string, number][], release: boolean): Promise<void> {
    // A write may still land unknown to the run: it does not let go. The lease runs out, and is taken over by a
    // recount only once such a write has landed or never will (`LATE_WRITE_MS`); until then, no sync hands out a
    // snapshot after the lease began.
    if ((release && lease.unsettled) || lease.halted) return;
    if (lease.lost) {
      this.#count(await this.#store.markBroken(lease.vendorId, lease.name));
      return;
    }
    const renewUntil = this.#now() + this.#leaseMs;
    // Before letting go, the latest stamp sent: an empty sync is answered from it once no lease is left.
    if (release && lease.latestStamp !== undefined)
      this.#count(await this.#store.raiseLatestStamp(lease.vendorId, lease.latestStamp));
    try {
      this.#count(
        await this.#store.updateUnderLease(
          lease.vendorId,
          lease.name,
          lease.sequence,
          counts,
          release ? { releasedAt: this.#now() } : { renewUntil },
        ),
      );
      lease.sequence += 1;
      if (!release) lease.expires = renewUntil;
      // Let go cleanly: its guard has nothing to do (and finds nothing if it fires all the same).
      else if (this.#guard && lease.guardAt !== undefined)
        await this.#guard.disarm(lease.vendorId, lease.guardAt).catch(() => undefined);
    } catch (error) {
      if (!(error instanceof SummaryLeaseLostError)) {
        if (outcomeUnknown(error)) {
          lease.halted = true;
          lease.unsettled = true;
        }
        throw error;
      }
      // The lease is gone, or the summary cannot grow: its counts can no longer be kept, and it says so.
      lease.lost = true;
      this.#count(await this.#store.markBroken(lease.vendorId, lease.name));
    }
  }

  /**
   * Adds every pending delta and lets go of every lease. Should DynamoDB fail here, the leases stay, run out, and
   * the summaries wait for a recount — never trusted meanwhile; the first failure is thrown once all were tried.
   */
  async releaseAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const lease of this.#leases.values()) {
      try {
        await this.#flush(lease, true);
      } catch (error) {
        failures.push(error);
      }
    }
    this.#leases.clear();
    if (failures.length > 0) throw failures[0];
  }
}
