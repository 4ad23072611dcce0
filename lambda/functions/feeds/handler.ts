/**
 * Lambda entry point of the feeds' builds (`run.ts`, `build.ts`): configuration, clients, logger, made once per
 * container; the handler is `factory.ts`'s. Woken by the vacancies table's stream (it schedules the builds of the
 * vendors that changed) and by those one-time schedules (it builds one vendor's feeds into S3).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { FeedStore } from '../../domain/feed-registry/feed-store';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { FEED_VARIABLES, functionConfiguration } from '../../domain/settings/environment';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { zoneClock } from '../../platform/time/zone-clock';
import { createFeedsHandler } from './factory';
import { s3FeedFiles } from './s3-feed-files';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('feeds');
const limits = FUNCTION_LIMITS.feeds;
const client = createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...limits.dynamodb });
const documentClient = createDocumentClient(client);

export const handler = createFeedsHandler({
  client,
  documentClient,
  tables: config.tables,
  feeds: new FeedStore(documentClient, config.tables.vendors),
  files: s3FeedFiles(new S3Client({}), process.env[FEED_VARIABLES.bucket] ?? ''),
  settings: {
    ...config.settings,
    clock: zoneClock(config.settings.serviceTimeZone),
    feedBase: process.env[FEED_VARIABLES.base] ?? '',
  },
  scheduler: new SchedulerClient({}),
  scheduleGroup: process.env[FEED_VARIABLES.scheduleGroup] ?? 'default',
  schedulerRole: process.env[FEED_VARIABLES.roleArn] ?? '',
  logger: new Logger({ serviceName: SERVICE_NAME }),
  reserveMs: limits.reserveMs,
});
