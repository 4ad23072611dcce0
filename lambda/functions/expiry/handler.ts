/**
 * Lambda entry point of the expiry job (`job.ts`), run hourly by EventBridge Scheduler in the service time zone:
 * configuration, clients, logger and metrics, made once per container; the handler is `factory.ts`'s.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { createFunctionMetrics } from '../../domain/service/metrics';
import { functionConfiguration } from '../../domain/settings/environment';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { zoneClock } from '../../platform/time/zone-clock';
import { createExpiryHandler } from './factory';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('expiry');
const logger = new Logger({ serviceName: SERVICE_NAME });

export const handler = createExpiryHandler({
  client: createDocumentClient(
    createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...FUNCTION_LIMITS.expiry.dynamodb }),
  ),
  tables: config.tables,
  clock: zoneClock(config.settings.serviceTimeZone),
  logger,
  metrics: createFunctionMetrics('expiry', logger),
  scheduler: new SchedulerClient({}),
  environment: process.env,
  reserveMs: FUNCTION_LIMITS.expiry.reserveMs,
});
