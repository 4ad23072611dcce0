/**
 * Webhooks in the local server (docs/design.md#webhooks): the runtime's dispatch (`lambda/functions/webhooks/dispatcher.ts`),
 * the same code the deployed function runs, woken the way DynamoDB Streams wake it on AWS — by the writes the
 * embedded engine receives, not by a timer — with retries, settling changes and the guards of leases on timers of
 * this process. At start it wakes every endpoint: one that a killed server left with work (an event pending, changes
 * after its position, a lease held by the dead) is resumed, as the guard would have on AWS. Only when the server
 * uses an engine of its own (`--dynamodb-endpoint`), which it cannot watch, does it poll.
 */

import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { createChangeFeedReader } from '../../lambda/domain/change-feed/reader';
import type { TableNames } from '../../lambda/domain/schema/tables';
import { FUNCTION_LIMITS } from '../../lambda/domain/service/limits';
import { serverClock } from '../../lambda/domain/store/clock';
import { SummaryReader } from '../../lambda/domain/store/summary-reader';
import type { DisabledReason, WebhookEndpoint } from '../../lambda/domain/webhook-registry/endpoint';
import { EndpointStore } from '../../lambda/domain/webhook-registry/endpoint-store';
import type { Resolver } from '../../lambda/domain/webhook-registry/public-address';
import { attemptDelivery } from '../../lambda/functions/webhooks/delivery';
import { createDispatcher, type DeliveryAttempt } from '../../lambda/functions/webhooks/dispatcher';
import { capacityUnits } from '../../lambda/platform/dynamodb/capacity';
import { createDynamoDBClient } from '../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../lambda/platform/dynamodb/document-client';
import { startCoalescingRunner } from './coalescing-runner';
import type { EngineWrite } from './embedded-dynamodb';

/** The user agent of the dispatch's own requests: its writes (leases, positions) wake nothing. */
export const WEBHOOK_USER_AGENT = 'vva-webhook-dispatch';

/** How often the dispatch looks for changes when it cannot watch the engine's writes. */
export const POLL_MS = 5_000;

export interface WebhookRunnerOptions {
  readonly endpoint: string;
  readonly tables: TableNames;
  readonly apiBaseUrl: string;
  readonly retrySchedule: readonly number[];
  /** Poll (an engine of the user's own) rather than be woken by `wake`. */
  readonly poll: boolean;
  readonly onDisabled: (endpoint: WebhookEndpoint, reason: DisabledReason) => void;
  readonly onError: (error: unknown) => void;
  /** Each attempt of a delivery (the server's log line). */
  readonly onAttempt?: (attempt: DeliveryAttempt) => void;
  /** A resolver of the tests' (delivery checks the addresses a host resolves to). */
  readonly resolve?: Resolver;
}

export interface WebhookRunner {
  /** A write the engine received: a write of the vacancies or vendors table wakes the dispatch. */
  readonly onWrite: (write: EngineWrite) => void;
  /** Requests the dispatch has made of DynamoDB (the idle test counts them). */
  readonly requests: () => number;
  /** The read and write units they consumed, as DynamoDB reported them (the benchmark's figures). */
  readonly consumed: () => { readonly readUnits: number; readonly writeUnits: number };
  /** What is owed still: wake-ups and guards armed, and dispatches under way. Nought once the dispatch is idle. */
  readonly pending: () => number;
  /** Resolves once nothing is owed (`pending` is nought). */
  readonly idle: () => Promise<void>;
  stop(): Promise<void>;
}

export function startWebhookRunner(options: WebhookRunnerOptions): WebhookRunner {
  let requests = 0;
  const client = createDynamoDBClient({
    endpoint: options.endpoint,
    customUserAgent: WEBHOOK_USER_AGENT,
    // The webhooks function's limits, as the deployed dispatch has them.
    ...FUNCTION_LIMITS.webhooks.dynamodb,
  });
  let readUnits = 0;
  let writeUnits = 0;
  // Every request counted, and what it consumed as DynamoDB reports it (asked for on each): the benchmark's figures.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      requests += 1;
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const units = capacityUnits(
        (result.output as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity,
      );
      if (/^(Get|Query|BatchGet)/.test(context.commandName ?? '')) readUnits += units;
      else writeUnits += units;
      return result;
    },
    { step: 'initialize', name: 'countWebhookRequests' },
  );
  // Leases, positions and recorded times are DynamoDB's time, as on AWS; the timers count by the same clock.
  const now = serverClock(client);
  const dispatch = (endpointId: string) => () => dispatcher.dispatchEndpoint(endpointId);
  // Writes coalesce: one pass over every endpoint at a time, and one more after it if writes came meanwhile.
  const runner = startCoalescingRunner({
    pass: () => dispatcher.dispatchAll(),
    ...(options.poll && { pollMs: POLL_MS }),
    now,
    onError: options.onError,
  });

  const dispatcher = createDispatcher({
    endpoints: new EndpointStore(createDocumentClient(client), options.tables.vendors),
    changes: createChangeFeedReader(client, {
      tableName: options.tables.vacancies,
      summaries: new SummaryReader(client, options.tables.vendors),
    }),
    ...(options.onAttempt && { onAttempt: options.onAttempt }),
    deliver: (url, headers, body) =>
      attemptDelivery(url, headers, body, {
        allowLoopbackHttp: true,
        ...(options.resolve && { resolve: options.resolve }),
      }),
    async wakeAt(endpoint, at) {
      // This process outlives every run: a wake-up, due soon or late, is its timer — one an endpoint, the earliest
      // asked, as in a run on AWS (lambda/functions/webhooks/wake-up.ts).
      runner.at(endpoint.endpointId, at, dispatch(endpoint.endpointId));
    },
    async guard(endpoint, at) {
      // The guards of leases, by endpoint and time: each cancelled on its own when its lease is let go.
      runner.at(`${endpoint.endpointId}@${at}`, at, dispatch(endpoint.endpointId));
    },
    async unguard(endpoint) {
      // Let go cleanly. A guard wakes an endpoint should the dispatch that holds it die; one of this process dies only
      // with the process, its timers with it. So every guard of the endpoint armed here is moot now — that of a
      // dispatch that met this one, armed for this one's lease, too — and is disarmed rather than left to fire and
      // find nothing. (A lease of a dispatch that died in an earlier run was taken over first: this one held it.)
      runner.cancel((key) => key.startsWith(`${endpoint.endpointId}@`));
    },
    onDisabled: options.onDisabled,
    retrySchedule: options.retrySchedule,
    apiBaseUrl: options.apiBaseUrl,
    now,
  });

  // What a killed server left: every endpoint woken once (a few requests each, at start only).
  void runner.wake();
  const watched = new Set([options.tables.vacancies, options.tables.vendors]);

  return {
    onWrite(write) {
      if (write.userAgent.includes(WEBHOOK_USER_AGENT)) return;
      if (write.tables.some((table) => watched.has(table))) void runner.wake();
    },
    requests: () => requests,
    consumed: () => ({ readUnits, writeUnits }),
    pending: runner.pending,
    idle: runner.idle,
    async stop() {
      await runner.stop();
      client.destroy();
    },
  };
}
