/**
 * Lambda entry point of the webhook dispatch (`dispatcher.ts`, `run.ts`): configuration, clients, logger, made once
 * per container. Woken by the vacancies table's stream, by its own one-time schedules, and by the CLI.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { createChangeFeedReader } from '../../domain/change-feed/reader';
import { FUNCTION_LIMITS, SERVICE_NAME, WEBHOOK_WAKE_UPS } from '../../domain/service/limits';
import { functionConfiguration, WEBHOOK_SCHEDULE_VARIABLES } from '../../domain/settings/environment';
import { serverClock } from '../../domain/store/clock';
import { SummaryReader } from '../../domain/store/summary-reader';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { attemptDelivery } from './delivery';
import { createDispatcher, deliveryAttemptFields } from './dispatcher';
import { EndpointStore } from './endpoint-store';
import { EndpointDisabledError } from './errors';
import { runWebhooks, type WebhooksEvent } from './run';
import { cancelWake, scheduleWake } from './schedules';
import { askWakeUp, type InRunWakes, stopsBeforeNextEvent } from './wake-up';

mapStackTracesOnDemand();

const config = functionConfiguration('webhooks');
const limits = FUNCTION_LIMITS.webhooks;
const client = createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...limits.dynamodb });
const scheduler = new SchedulerClient({});
const logger = new Logger({ serviceName: SERVICE_NAME });
const scheduleGroup = process.env[WEBHOOK_SCHEDULE_VARIABLES.group] ?? 'default';
const schedulerRole = process.env[WEBHOOK_SCHEDULE_VARIABLES.roleArn] ?? '';
/** Leases, positions and recorded times are DynamoDB's time, as bounded from its answers (docs/design.md#webhooks). */
const now = serverClock(client);

async function dispatch(event: WebhooksEvent, context: Context) {
  const timeLeft = () => context.getRemainingTimeInMillis() - limits.reserveMs;
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
    endpoints: new EndpointStore(createDocumentClient(client), config.tables.vendors),
    changes: createChangeFeedReader(client, {
      tableName: config.tables.vacancies,
      summaries: new SummaryReader(client, config.tables.vendors),
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
    retrySchedule: config.settings.webhookRetrySchedule,
    apiBaseUrl: config.settings.publicBaseUrl,
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
  if (report.disabled > 0) throw new EndpointDisabledError(`${report.disabled} webhook endpoint(s) disabled`);
  return response;
}

export const handler = middy(dispatch).use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }));
