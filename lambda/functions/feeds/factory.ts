/**
 * The feeds function's handler (docs/design.md#feeds), made from what it works with: woken by the vacancies table's
 * stream, it schedules the builds of the vendors that changed (`schedules.ts`); woken by one of those one-time
 * schedules, it builds that vendor's feeds (`build.ts`) into their files (`s3-feed-files.ts` on AWS). One log line a
 * run (`run.ts`).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { FeedFiles } from '../../domain/feed-registry/feed-files';
import type { FeedStore } from '../../domain/feed-registry/feed-store';
import type { TableNames } from '../../domain/schema/tables';
import { type Vendor, vendorItemKey } from '../../domain/schema/vendors';
import { INDEX_SETTLE_MS } from '../../domain/settings/recovery-waits';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { buildVendorFeeds, type FeedBuildSettings, feedBuildTarget } from './build';
import { type FeedsEvent, type FeedVendor, runFeeds } from './run';
import { scheduleFeedBuild } from './schedules';

/** What the feeds function works with, made once per container by its entry point. */
export interface FeedsDependencies {
  readonly client: DynamoDBClient;
  readonly documentClient: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly feeds: FeedStore;
  readonly files: FeedFiles;
  readonly settings: FeedBuildSettings;
  readonly scheduler: SchedulerClient;
  /** The schedule group of the builds, and the role EventBridge Scheduler takes to invoke the function. */
  readonly scheduleGroup: string;
  readonly schedulerRole: string;
  readonly logger: Logger;
  /** Kept back from the run's remaining time. */
  readonly reserveMs: number;
}

/** The feeds function's handler: see the module's comment. */
export function createFeedsHandler(dependencies: FeedsDependencies) {
  const { client, documentClient, tables, feeds, files, settings, scheduler, logger, reserveMs } =
    dependencies;
  const { scheduleGroup, schedulerRole } = dependencies;

  /** The vendor item, strongly read: what a build states (its company, website) and whether it is suspended. */
  const vendorOf = async (vendorId: string): Promise<FeedVendor | undefined> => {
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tables.vendors,
        Key: vendorItemKey(vendorId),
        ConsistentRead: true,
        ProjectionExpression: 'vendorId, company, #status, website',
        ExpressionAttributeNames: { '#status': 'status' },
      }),
    );
    return Item as Pick<Vendor, 'vendorId' | 'company' | 'status' | 'website'> | undefined;
  };

  const feedsRun = async (event: FeedsEvent, context: Context) => {
    const { report, response } = await runFeeds(event, {
      feedsOf: (vendorId) => feeds.ofVendor(vendorId),
      vendorOf,
      scheduleBuild: async (vendorId) => {
        const slot = await scheduleFeedBuild(
          {
            client: scheduler,
            group: scheduleGroup,
            roleArn: schedulerRole,
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
          feedBuildTarget(
            {
              client,
              vacanciesTable: tables.vacancies,
              retry: { maxStalls: 8, baseDelayMs: 50, maxDelayMs: 2_000 },
            },
            files,
            feeds,
          ),
          settings,
          vendor,
          vendorFeeds,
          new Date(),
          deadlineSignal(context, reserveMs),
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
  };

  return middy(feedsRun).use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }));
}
