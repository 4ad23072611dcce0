/**
 * The webhooks function's handler (docs/design.md#webhooks), made from what it works with: a dispatch of the
 * endpoints a run is woken for (`dispatcher.ts`, `run.ts`), whose wake-ups are waited for in the run or made one-time
 * schedules (`wake-up.ts`, `schedules.ts`); one log line a run. A run that disabled an endpoint fails, after everything
 * it had to do is done and stored: the alarm `WebhookEndpointDisabled` reads the function's `Errors`.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { createChangeFeedReader } from '../../domain/change-feed/reader';
import type { TableNames } from '../../domain/schema/tables';
import { WEBHOOK_WAKE_UPS } from '../../domain/service/limits';
import { serverClock } from '../../domain/store/clock';
import { SummaryReader } from '../../domain/store/summary-reader';
import { EndpointStore } from '../../domain/webhook-registry/endpoint-store';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { attemptDelivery } from './delivery';
import { createDispatcher, deliveryAttemptFields } from './dispatcher';
import { EndpointDisabledError } from './errors';
import { runWebhooks, type WebhooksEvent } from './run';
import { cancelWake, scheduleWake } from './schedules';
import { askWakeUp, type InRunWakes, stopsBeforeNextEvent } from './wake-up';

/** What the webhooks function works with, made once per container by its entry point. */
export interface WebhooksDependencies {
  readonly client: DynamoDBClient;
  readonly tables: TableNames;
  readonly settings: { readonly webhookRetrySchedule: readonly number[]; readonly publicBaseUrl: string };
  readonly scheduler: SchedulerClient;
  /** The schedule group of the wake-ups, and the role EventBridge Scheduler takes to invoke the function. */
  readonly scheduleGroup: string;
  readonly schedulerRole: string;
  readonly logger: Logger;
  /** Kept back from the run's remaining time. */
  readonly reserveMs: number;
}

/** The webhooks function's handler: see the module's comment. */
export function createWebhooksHandler(dependencies: WebhooksDependencies) {
  const { client, tables, settings, scheduler, scheduleGroup, schedulerRole, logger, reserveMs } =
    dependencies;
  /** Leases, positions and recorded times are DynamoDB's time, as bounded from its answers (docs/design.md#webhooks). */
  const now = serverClock(client);

  const dispatch = async (event: WebhooksEvent, context: Context) => {
    const timeLeft = () => context.getRemainingTimeInMillis() - reserveMs;
    const wakes: InRunWakes = new Map();
    const schedule = (endpointId: string, at: number) =>
      scheduleWake(
        {
          client: scheduler,
          group: scheduleGroup,
          roleArn: schedulerRole,
          functionArn: context.invokedFunctionArn,
        },
        { endpointId },
        at,
      );
    const dispatcher = createDispatcher({
      endpoints: new EndpointStore(createDocumentClient(client), tables.vendors),
      changes: createChangeFeedReader(client, {
        tableName: tables.vacancies,
        summaries: new SummaryReader(client, tables.vendors),
      }),
      deliver: (url, headers, body) => attemptDelivery(url, headers, body, { allowLoopbackHttp: false }),
      async wakeAt(endpoint, at) {
        if (askWakeUp(wakes, endpoint.endpointId, at, now(), WEBHOOK_WAKE_UPS) === 'schedule')
          await schedule(endpoint.endpointId, at);
      },
      // A lease's guard must outlive the run: always a schedule, deleted when the lease is let go.
      guard: (endpoint, at) => schedule(endpoint.endpointId, at),
      unguard: (endpoint, at) => cancelWake({ client: scheduler, group: scheduleGroup }, endpoint, at),
      onDisabled: (endpoint, reason) =>
        logger.warn('Webhook endpoint disabled', {
          endpointId: endpoint.endpointId,
          vendorId: endpoint.vendorId,
          reason,
        }),
      // One line an attempt, as the local server prints it (the URL and the body are the endpoint's, not logged).
      onAttempt: (attempt) => logger.info('Webhook attempt', { ...deliveryAttemptFields(attempt) }),
      retrySchedule: settings.webhookRetrySchedule,
      apiBaseUrl: settings.publicBaseUrl,
      shouldStop: () => stopsBeforeNextEvent(timeLeft(), WEBHOOK_WAKE_UPS),
      now,
    });
    const { report, response } = await runWebhooks(event, {
      dispatcher,
      wakes,
      timeLeft,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      schedule,
      now,
    });
    logger.info('Webhook dispatch', { ...report });
    // The alarm WebhookEndpointDisabled reads the function's Errors (free): a run that disabled an endpoint fails,
    // after everything it had to do is done and stored (docs/operating.md#alarms).
    if (report.disabled > 0)
      throw new EndpointDisabledError(`${report.disabled} webhook endpoint(s) disabled`);
    return response;
  };

  return middy(dispatch).use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }));
}
