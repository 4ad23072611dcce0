/**
 * Lambda entry point of the inbox (docs/operating.md#the-inbox): S3 invokes it for each object created under
 * `incoming/` — asynchronously: at least once, retried twice on failure, then the event goes to the dead-letter
 * queue. Configuration, clients and logger are made once per container; the handler is `factory.ts`'s.
 */

import { Logger } from '@aws-lambda-powertools/logger';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { functionConfiguration } from '../../domain/settings/environment';
import { summaryGuardsOf } from '../../domain/store/summary-guard-schedules';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { zoneClock } from '../../platform/time/zone-clock';
import { createInboxHandler } from './factory';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('inbox');
const logger = new Logger({ serviceName: SERVICE_NAME });
const guard = summaryGuardsOf(process.env, new SchedulerClient({}));
const optionalGuard = () => (guard ? { guard } : {});

export const handler = createInboxHandler({
  s3: new S3Client({}),
  client: createDocumentClient(
    createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...FUNCTION_LIMITS.inbox.dynamodb }),
  ),
  tables: config.tables,
  clock: zoneClock(config.settings.serviceTimeZone),
  maxClosePercent: config.settings.snapshotMaxClose,
  jobCountry: config.settings.jobCountry,
  reserveMs: FUNCTION_LIMITS.inbox.reserveMs,
  logger,
  // Should the function die holding a summary's lease, its guard recovers the summary (docs/design.md#a-kill-timeline).
  ...optionalGuard(),
});
