/**
 * Lambda entry point of the feeds' builds (`run.ts`, `build.ts`): configuration, clients, logger, made once per
 * container. Woken by the vacancies table's stream (it schedules the builds of the vendors that changed,
 * `schedules.ts`) and by those one-time schedules (it builds one vendor's feeds into S3, `s3-feed-files.ts`).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { FeedStore } from '../../domain/feed-registry/feed-store';
import { type Vendor, vendorItemKey } from '../../domain/schema/vendors';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { FEED_VARIABLES, functionConfiguration } from '../../domain/settings/environment';
import { INDEX_SETTLE_MS } from '../../domain/settings/recovery-waits';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { zoneClock } from '../../platform/time/zone-clock';
import { buildVendorFeeds } from './build';
import { type FeedsEvent, type FeedVendor, runFeeds } from './run';
import { s3FeedFiles } from './s3-feed-files';
import { scheduleFeedBuild } from './schedules';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('feeds');
const limits = FUNCTION_LIMITS.feeds;
const client = createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...limits.dynamodb });
const documentClient = createDocumentClient(client);
const feeds = new FeedStore(documentClient, config.tables.vendors);
const files = s3FeedFiles(new S3Client({}), process.env[FEED_VARIABLES.bucket] ?? '');
const scheduler = new SchedulerClient({});
const logger = new Logger({ serviceName: SERVICE_NAME });
const settings = {
  ...config.settings,
  clock: zoneClock(config.settings.serviceTimeZone),
  feedBase: process.env[FEED_VARIABLES.base] ?? '',
};

/** The vendor item, strongly read: what a build states (its company, website) and whether it is suspended. */
async function vendorOf(vendorId: string): Promise<FeedVendor | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: config.tables.vendors,
      Key: vendorItemKey(vendorId),
      ConsistentRead: true,
      ProjectionExpression: 'vendorId, company, #status, website',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
  );
  return Item as Pick<Vendor, 'vendorId' | 'company' | 'status' | 'website'> | undefined;
}

async function feedsRun(event: FeedsEvent, context: Context) {
  const { report, response } = await runFeeds(event, {
    feedsOf: (vendorId) => feeds.ofVendor(vendorId),
    vendorOf,
    scheduleBuild: async (vendorId) => {
      const slot = await scheduleFeedBuild(
        {
          client: scheduler,
          group: process.env[FEED_VARIABLES.scheduleGroup] ?? 'default',
          roleArn: process.env[FEED_VARIABLES.roleArn] ?? '',
          functionArn: context.invokedFunctionArn,
        },
        vendorId,
        Date.now(),
        INDEX_SETTLE_MS,
      );
      logger.info('Feed build scheduled', {
        vendorId,
        schedule: slot.name,
        at: new Date(slot.at).toISOString(),
      });
      return slot;
    },
    build: (vendor, vendorFeeds) =>
      buildVendorFeeds(
        {
          index: { client, tableName: config.tables.vacancies },
          items: {
            client,
            tableName: config.tables.vacancies,
            retry: { maxStalls: 8, baseDelayMs: 50, maxDelayMs: 2_000 },
          },
          files,
          recordBuild: (feedId, builtAt, vacancies) => feeds.recordBuild(feedId, builtAt, vacancies),
        },
        settings,
        vendor,
        vendorFeeds,
        new Date(),
        deadlineSignal(context, limits.reserveMs),
      ),
  });
  logger.info('Feeds run', {
    ...report,
    ...(report.kind === 'build' &&
      report.outcome === 'built' && {
        report: { ...report.report, feeds: report.report.feeds.length },
      }),
  });
  return response;
}

export const handler = middy(feedsRun).use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }));
