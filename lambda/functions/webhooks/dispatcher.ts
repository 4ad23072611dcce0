/**
 * The dispatch of webhook events (docs/design.md#webhooks), the orchestration over the endpoint record
 * (`endpoint.ts`) and its persistence (`endpoint-store.ts`): woken for a vendor whose vacancies changed (or for an
 * endpoint whose retry is due), it takes each endpoint's lease, builds the next event from the endpoint's position
 * in the vendor's change index — the settled changes after it, at most 100 — keeps it on the endpoint, sends it,
 * and moves the position only when it was delivered. One event at a time per endpoint, in order; a failed one is
 * sent again, the same id and body, after the retry schedule's delay; a wake-up that finds the endpoint busy flags
 * it, and the holder reads again before it lets go.
 *
 * A dispatch may die holding an endpoint (killed, timed out, its machine gone). So whoever takes a lease first leaves
 * a wake-up, on a timer that outlives it, for when the lease runs out (`guard`), and cancels it when it lets go;
 * and a wake-up that finds the endpoint held leaves one for when that hold runs out — so the wake-ups chain for as
 * long as a live holder renews, and the first one after a death resumes the endpoint (docs/design.md#a-kill-timeline).
 */
import { randomUUID } from 'node:crypto';
import type { ChangeFeedReader } from '../../domain/change-feed/reader';
import { settledUntil, settlesAt } from '../../domain/change-feed/settle';
import {
  changeKey,
  END_OF_CHANGES,
  justAfter,
  LAST_ID,
  readChangeKey,
} from '../../domain/schema/change-index';
import { WAITS } from '../../domain/settings/recovery-waits';
import {
  type DisabledReason,
  type LastAttempt,
  MAX_CHANGES_PER_EVENT,
  type PendingEvent,
  signingSecrets,
  type WebhookEndpoint,
} from '../../domain/webhook-registry/endpoint';
import type { EndpointStore } from '../../domain/webhook-registry/endpoint-store';
import { DispatchLeaseLostError } from '../../domain/webhook-registry/errors';
import type { AttemptResult } from './delivery';
import { changesEventBody, newEventId, resyncEventBody } from './event';
import { signedHeaders } from './signature';

/**
 * How long a dispatch holds an endpoint without renewing its lease: past one delivery's 10 seconds, with room (30 s;
 * shorter only on an engine of one's own, `domain/settings/recovery-waits.ts`).
 */
export const LEASE_MS = WAITS.webhookLeaseMs;
/**
 * How long after a lease's end a guard wakes the endpoint: clocks that judge it may be a second apart
 * (`domain/store/clock.ts`), and a one-time schedule fires on a whole second.
 */
export const GUARD_GRACE_MS = 2_000;
/**
 * The most a `Retry-After` may push a retry back: the longest delay a schedule may have (a day); one asking more
 * counts as a day (docs/api.md#webhooks).
 */
export const RETRY_AFTER_MAX_MS = 86_400_000;
/** Each delay of the schedule varies by up to this share, either way, so that failed endpoints do not retry in step. */
const JITTER = 0.2;

/** What the dispatch is built from. */
export interface DispatcherDependencies {
  readonly endpoints: EndpointStore;
  /** The vendor's change index and summary, read as a sync reads them. */
  readonly changes: Pick<ChangeFeedReader, 'readChanges' | 'readSummary'>;
  /** One attempt of a delivery (`delivery.ts`; a test's in its place). */
  readonly deliver: (url: string, headers: Record<string, string>, body: string) => Promise<AttemptResult>;
  /** Wakes the dispatch of an endpoint again at `at` (ms): a timer of the process, or a one-time schedule on AWS. */
  readonly wakeAt: (endpoint: Pick<WebhookEndpoint, 'endpointId' | 'vendorId'>, at: number) => Promise<void>;
  /**
   * Wakes an endpoint at `at` (ms) by a timer that outlives this dispatch — should it die — (a one-time schedule on
   * AWS; the process's timer locally, where a dead process is recovered when the server starts): the guard of a
   * lease. `wakeAt` when not given.
   */
  readonly guard?: (endpoint: Pick<WebhookEndpoint, 'endpointId' | 'vendorId'>, at: number) => Promise<void>;
  /** Cancels a guard asked for at `at`: the lease was let go cleanly (it is harmless if it fires all the same). */
  readonly unguard?: (
    endpoint: Pick<WebhookEndpoint, 'endpointId' | 'vendorId'>,
    at: number,
  ) => Promise<void>;
  /** How long a lease lasts unless renewed (ms; `LEASE_MS` when not given). */
  readonly leaseMs?: number;
  /** An endpoint was disabled: its retries ran out, or it answered 410 (logged for the alarm). */
  readonly onDisabled: (endpoint: WebhookEndpoint, reason: DisabledReason) => void;
  /** Each attempt of a delivery and what came of it: a log line (the function's; the local server's own). */
  readonly onAttempt?: (attempt: DeliveryAttempt) => void;
  /** Seconds before each retry (setting `webhookRetrySchedule`). */
  readonly retrySchedule: readonly number[];
  /** The API's base URL, for an event's `sync_url`. */
  readonly apiBaseUrl: string;
  readonly now?: () => number;
  readonly random?: () => number;
  /**
   * Whether to stop before the next event (a function's time is nearly spent): the endpoint is then woken again at
   * once, by its timer, and the next dispatch goes on from its position.
   */
  readonly shouldStop?: () => boolean;
}

/**
 * One attempt of a delivery, as the logs say it (docs/operating.md#webhooks): which endpoint and event, its number,
 * when, what came of it (the status, or `timeout`, `connection failed`, `refused: …`), and then when it is tried
 * next, or why the endpoint was disabled. Never the body, never a secret or a signature.
 */
export interface DeliveryAttempt {
  readonly endpointId: string;
  readonly vendorId: string;
  /** The event's `webhook-id`: the same on every attempt of it. */
  readonly eventId: string;
  /** 1 for the first attempt of the event. */
  readonly attempt: number;
  /** When it was made (ms). */
  readonly at: number;
  readonly outcome: string;
  readonly delivered: boolean;
  /** When a failed event is tried again (ms). */
  readonly nextAttemptAt?: number;
  /** Why the endpoint was disabled by this attempt. */
  readonly disabled?: DisabledReason;
}

/** An attempt as a log line's fields, times in ISO 8601: the function's line and the local server's JSON line. */
export function deliveryAttemptFields(attempt: DeliveryAttempt) {
  return {
    endpointId: attempt.endpointId,
    vendorId: attempt.vendorId,
    eventId: attempt.eventId,
    attempt: attempt.attempt,
    at: new Date(attempt.at).toISOString(),
    outcome: attempt.outcome,
    delivered: attempt.delivered,
    ...(attempt.nextAttemptAt !== undefined && {
      nextAttemptAt: new Date(attempt.nextAttemptAt).toISOString(),
    }),
    ...(attempt.disabled && { disabled: attempt.disabled }),
  };
}

/** What one wake-up did, for the log and the tests. */
export interface DispatchReport {
  readonly delivered: number;
  readonly failed: number;
  readonly disabled: number;
}

/** The dispatch: of every endpoint of a vendor, of one endpoint, or of every endpoint there is. */
export interface Dispatcher {
  dispatchVendor(vendorId: string): Promise<DispatchReport>;
  dispatchEndpoint(endpointId: string): Promise<DispatchReport>;
  dispatchAll(): Promise<DispatchReport>;
}

/** The reports of several dispatches as one: what a run did, for its log line. */
export const sumReports = (reports: readonly DispatchReport[]): DispatchReport => ({
  delivered: reports.reduce((total, r) => total + r.delivered, 0),
  failed: reports.reduce((total, r) => total + r.failed, 0),
  disabled: reports.reduce((total, r) => total + r.disabled, 0),
});

export function createDispatcher(deps: DispatcherDependencies): Dispatcher {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  const guard = deps.guard ?? deps.wakeAt;

  /** The next event of an endpoint with none pending, or undefined when no settled change follows its position. */
  async function nextEvent(endpoint: WebhookEndpoint, at: number): Promise<PendingEvent | undefined> {
    const { summary } = await deps.changes.readSummary(endpoint.vendorId);
    const until = settledUntil(at, summary);
    const position = readChangeKey(endpoint.position);
    // Changes it should still have been sent were purged: the receiver must sync from the start.
    if (summary?.purgedBefore !== undefined && position.updatedAt < summary.purgedBefore) {
      const through = changeKey(Math.max(until, summary.purgedBefore), LAST_ID);
      return { id: newEventId(), body: resyncEventBody(at), through, attempts: 0, dueAt: at };
    }
    const settledEnd = changeKey(until, LAST_ID);
    // Nothing settled after the position when it is at or past the settled end (a resync moves it there).
    const caughtUp = Buffer.compare(endpoint.position, settledEnd) >= 0;
    const read = caughtUp
      ? { entries: [] }
      : await deps.changes.readChanges({
          vendorId: endpoint.vendorId,
          from: justAfter(endpoint.position),
          to: settledEnd,
          limit: MAX_CHANGES_PER_EVENT,
        });
    const last = read.entries.at(-1);
    if (last) {
      const changes = read.entries.map((entry) => ({
        id: entry.id,
        status: entry.status,
        updatedAt: readChangeKey(entry.change).updatedAt,
      }));
      return {
        id: newEventId(),
        body: changesEventBody(changes, deps.apiBaseUrl, at),
        through: last.change,
        attempts: 0,
        dueAt: at,
      };
    }
    // Nothing settled; a change still settling is sent once it has.
    const unsettled = await deps.changes.readChanges({
      vendorId: endpoint.vendorId,
      from: justAfter(caughtUp ? endpoint.position : settledEnd),
      to: END_OF_CHANGES,
      limit: 1,
    });
    const [first] = unsettled.entries;
    if (first)
      await deps.wakeAt(endpoint, Math.max(at + 1_000, settlesAt(readChangeKey(first.change).updatedAt)));
    return undefined;
  }

  /**
   * The delay before the attempt after `attempts` failed ones, jittered, and no shorter than `Retry-After`: counted
   * from when the failed attempt ended (its answer, or its abandonment), so a slow answer does not eat it.
   */
  function retryDelay(attempts: number, result: AttemptResult): number {
    const base = (deps.retrySchedule[attempts - 1] ?? 0) * 1000;
    const jittered = base * (1 + (random() * 2 - 1) * JITTER);
    const asked = result.ok ? 0 : Math.min(result.retryAfterMs ?? 0, RETRY_AFTER_MAX_MS);
    return Math.max(jittered, asked);
  }

  /** Sends what an endpoint has to send, one event after another, while its lease is held. */
  async function work(start: WebhookEndpoint, holder: string): Promise<DispatchReport> {
    let endpoint = start;
    let delivered = 0;
    for (;;) {
      const at = now();
      if (deps.shouldStop?.()) {
        await deps.wakeAt(endpoint, at);
        return { delivered, failed: 0, disabled: 0 };
      }
      let pending = endpoint.pending;
      if (!pending) {
        pending = await nextEvent(endpoint, at);
        if (!pending) return { delivered, failed: 0, disabled: 0 };
        await deps.endpoints.savePending(endpoint.endpointId, holder, pending, at + leaseMs);
      }
      if (pending.dueAt > at) {
        await deps.wakeAt(endpoint, pending.dueAt);
        return { delivered, failed: 0, disabled: 0 };
      }
      const headers = signedHeaders(
        pending.id,
        Math.floor(at / 1000),
        pending.body,
        signingSecrets(endpoint, at),
      );
      const result = await deps.deliver(endpoint.url, headers, pending.body);
      const last: LastAttempt = { at, outcome: result.ok ? String(result.status) : result.outcome };
      const attempt = {
        endpointId: endpoint.endpointId,
        vendorId: endpoint.vendorId,
        eventId: pending.id,
        attempt: pending.attempts + 1,
        at,
        outcome: last.outcome,
        delivered: result.ok,
      };
      if (result.ok) {
        deps.onAttempt?.(attempt);
        await deps.endpoints.delivered(endpoint.endpointId, holder, pending.through, last, now() + leaseMs);
        endpoint = {
          ...endpoint,
          position: pending.through,
          pending: undefined,
          lastAttempt: last,
        } as WebhookEndpoint;
        delivered += 1;
        continue;
      }
      const attempts = pending.attempts + 1;
      if (result.status === 410 || attempts > deps.retrySchedule.length) {
        const reason: DisabledReason = result.status === 410 ? 'gone (410)' : 'retries exhausted';
        await deps.endpoints.disable(endpoint.endpointId, holder, reason, last);
        deps.onAttempt?.({ ...attempt, disabled: reason });
        deps.onDisabled(endpoint, reason);
        return { delivered, failed: 1, disabled: 1 };
      }
      const retry: PendingEvent = { ...pending, attempts, dueAt: now() + retryDelay(attempts, result) };
      await deps.endpoints.failed(endpoint.endpointId, holder, retry, last);
      deps.onAttempt?.({ ...attempt, nextAttemptAt: retry.dueAt });
      await deps.wakeAt(endpoint, retry.dueAt);
      return { delivered, failed: 1, disabled: 0 };
    }
  }

  async function dispatchEndpoint(endpointId: string): Promise<DispatchReport> {
    const holder = randomUUID();
    const reports: DispatchReport[] = [];
    // A few tries: a lease that runs out between the take and the flag is taken on the next one.
    for (let tries = 0; tries < 3; tries += 1) {
      const at = now();
      const lease = await deps.endpoints.takeDispatchLease(endpointId, holder, at, at + leaseMs);
      if (!lease.taken) {
        if (lease.reason === 'not enabled') break;
        if (await deps.endpoints.flagRerun(endpointId, at)) {
          // The holder reads again before it lets go — if it lives: should it die, this wakes the endpoint once its
          // hold has run out.
          await guard(lease.endpoint, lease.until + GUARD_GRACE_MS);
          break;
        }
        continue;
      }
      let endpoint: WebhookEndpoint | undefined = lease.endpoint;
      // Should this dispatch die holding the lease, this wakes the endpoint once the lease has run out.
      const guardAt = at + leaseMs + GUARD_GRACE_MS;
      await guard(endpoint, guardAt);
      try {
        for (;;) {
          reports.push(await work(endpoint, holder));
          if (await deps.endpoints.release(endpointId, holder)) break;
          // Flagged while at work: read the endpoint again, still holding it.
          endpoint = await deps.endpoints.get(endpointId);
          if (endpoint?.status !== 'enabled') break;
        }
      } catch (error) {
        // Another dispatch holds it now, and sends what is left (its own guard wakes it should it die).
        if (error instanceof DispatchLeaseLostError) break;
        // Anything else (DynamoDB failing) leaves the lease to run out: the guard wakes the endpoint after it.
        if (endpoint) await deps.wakeAt(endpoint, now() + leaseMs).catch(() => undefined);
        throw error;
      }
      // Let go cleanly: the guard has nothing to do (and finds nothing if it fires all the same).
      await deps.unguard?.(lease.endpoint, guardAt).catch(() => undefined);
      break;
    }
    return sumReports(reports);
  }

  return {
    dispatchEndpoint,
    async dispatchVendor(vendorId) {
      const endpoints = await deps.endpoints.ofVendor(vendorId);
      return sumReports(
        await Promise.all(
          endpoints.filter((e) => e.status === 'enabled').map((e) => dispatchEndpoint(e.endpointId)),
        ),
      );
    },
    async dispatchAll() {
      const endpoints = await deps.endpoints.all();
      return sumReports(
        await Promise.all(
          endpoints.filter((e) => e.status === 'enabled').map((e) => dispatchEndpoint(e.endpointId)),
        ),
      );
    },
  };
}
