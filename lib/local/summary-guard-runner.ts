/**
 * The summaries' guards in the local server (docs/design.md#a-kill-timeline): the runtime's policy
 * (`lambda/domain/store/summary-guard.ts`), the same the deployed expiry function runs when a one-time schedule fires, on
 * timers of this process. A writer here may be another process (a CLI import against the server's engine) that
 * cannot reach those timers, so the server arms them itself: at start — what a killed run left, the server's own
 * among them — and after each write to the vendors table it did not make (a lease taken, renewed or let go), it reads
 * the summaries and arms a guard for each lease still running, and recovers at once a summary whose lease could
 * already be taken over. Reads of the local engine cost nothing; nothing runs while nothing is written.
 */

import { needsRecount } from '../../lambda/domain/schema/summary';
import { type TableNames, VENDOR_INDEXES } from '../../lambda/domain/schema/tables';
import { ITEM_KIND } from '../../lambda/domain/schema/vendors';
import { FUNCTION_LIMITS } from '../../lambda/domain/service/limits';
import { LATE_WRITE_MS } from '../../lambda/domain/settings/recovery-waits';
import { serverClock } from '../../lambda/domain/store/clock';
import {
  guardNeeded,
  type RecoveryOutcome,
  recoverSummary,
  type SummaryGuardTimer,
} from '../../lambda/domain/store/summary-guard';
import { SummaryStore } from '../../lambda/domain/store/summary-store';
import { createDynamoDBClient } from '../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../lambda/platform/dynamodb/document-client';
import { queryAll } from '../../lambda/platform/dynamodb/query-all';
import { startCoalescingRunner } from './coalescing-runner';
import type { EngineWrite } from './embedded-dynamodb';

/** The user agent of the guards' own requests: their writes (a recount's) start no sweep. */
export const SUMMARY_GUARD_USER_AGENT = 'vva-summary-guard';

export interface SummaryGuardRunnerOptions {
  readonly endpoint: string;
  readonly tables: TableNames;
  readonly onError: (error: unknown) => void;
  /** A guard's firing, done (the tests' and the log's). */
  readonly onRecovered?: (vendorId: string, outcome: RecoveryOutcome) => void;
}

export interface SummaryGuardRunner {
  /** The sweep at start, done (a failure handed to `onError`). */
  readonly started: Promise<void>;
  /** A write the engine received: one to the vendors table, not the guards' own, sweeps. */
  readonly onWrite: (write: EngineWrite) => void;
  /** The timer, for the server's own writers. */
  readonly timer: SummaryGuardTimer;
  /** What is owed still: a sweep, guards armed, recoveries under way (nought once idle). */
  readonly pending: () => number;
  /** Resolves once nothing is owed. */
  readonly idle: () => Promise<void>;
  stop(): Promise<void>;
}

export function startSummaryGuardRunner(options: SummaryGuardRunnerOptions): SummaryGuardRunner {
  const client = createDynamoDBClient({
    endpoint: options.endpoint,
    customUserAgent: SUMMARY_GUARD_USER_AGENT,
    ...FUNCTION_LIMITS.expiry.dynamodb,
  });
  const documentClient = createDocumentClient(client);
  const now = serverClock(client);
  const store = new SummaryStore(documentClient, options.tables.vendors);
  // Writes coalesce: one sweep at a time, and one more after it if writes came meanwhile; the guards are its timers.
  const runner = startCoalescingRunner({ pass: () => sweep(), now, onError: options.onError });

  const recover = (vendorId: string) => async () => {
    const outcome = await recoverSummary(vendorId, {
      client: documentClient,
      tables: options.tables,
      timer,
      now,
    });
    options.onRecovered?.(vendorId, outcome);
  };

  const timer: SummaryGuardTimer = {
    async arm(vendorId, at) {
      runner.at(`${vendorId}@${at}`, at, recover(vendorId));
    },
    async disarm(vendorId, at) {
      runner.cancel(`${vendorId}@${at}`);
    },
  };

  /** Every vendor's summary read; a guard armed for each lease running, a recovery for each that may be taken over. */
  async function sweep(): Promise<void> {
    const vendors = await queryAll(documentClient, {
      TableName: options.tables.vendors,
      IndexName: VENDOR_INDEXES.byKind,
      KeyConditionExpression: 'kind = :kind',
      ProjectionExpression: 'vendorId',
      ExpressionAttributeValues: { ':kind': ITEM_KIND.vendor },
    });
    const summaries = await store.readMany(vendors.map((vendor) => vendor.vendorId as string));
    const at = now();
    for (const [vendorId, summary] of summaries) {
      const guard = guardNeeded(summary, at);
      // The guards of leases let go since are moot (a writer here dies only with the process, its timers with it;
      // every lease taken or let go is a write that sweeps again): disarmed rather than left to fire and find nothing.
      runner.cancel((key) => key.startsWith(`${vendorId}@`) && key !== `${vendorId}@${guard}`);
      if (guard !== undefined) await timer.arm(vendorId, guard);
      else if ((summary.leases.size > 0 || summary.broken) && needsRecount(summary, at, LATE_WRITE_MS))
        runner.run(recover(vendorId));
    }
  }

  const started = runner.wake();

  return {
    started,
    timer,
    onWrite(write) {
      if (write.userAgent.includes(SUMMARY_GUARD_USER_AGENT)) return;
      if (write.tables.includes(options.tables.vendors)) void runner.wake();
    },
    pending: runner.pending,
    idle: runner.idle,
    async stop() {
      await runner.stop();
      client.destroy();
    },
  };
}
