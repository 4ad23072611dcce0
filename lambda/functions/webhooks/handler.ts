/**
 * Lambda entry point of the webhook dispatch (`dispatcher.ts`, `run.ts`): configuration, clients, logger, made once
 * per container; the handler is `factory.ts`'s. Woken by the vacancies table's stream, by its own one-time schedules,
 * and by the CLI.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { functionConfiguration, WEBHOOK_SCHEDULE_VARIABLES } from '../../domain/settings/environment';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { createWebhooksHandler } from './factory';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('webhooks');
const limits = FUNCTION_LIMITS.webhooks;

export const handler = createWebhooksHandler({
  client: createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...limits.dynamodb }),
  tables: config.tables,
  settings: config.settings,
  scheduler: new SchedulerClient({}),
  scheduleGroup: process.env[WEBHOOK_SCHEDULE_VARIABLES.group] ?? 'default',
  schedulerRole: process.env[WEBHOOK_SCHEDULE_VARIABLES.roleArn] ?? '',
  logger: new Logger({ serviceName: SERVICE_NAME }),
  reserveMs: limits.reserveMs,
});
