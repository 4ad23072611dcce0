/**
 * Lambda entry point of the expiry job (`job.ts`), run hourly by EventBridge Scheduler in the service time zone:
 * configuration, clients, logger and metrics, made once per container.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { createFunctionMetrics } from '../../domain/service/metrics';
import { functionConfiguration } from '../../domain/settings/environment';
import { type RecoveryOutcome, recoverSummary } from '../../domain/store/summary-guard';
import { isRecoverSummaryEvent, summaryGuardsOf } from '../../domain/store/summary-guard-schedules';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { createDocumentClient } from '../../platform/dynamodb/document-client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { zoneClock } from '../../platform/time/zone-clock';
import { type ExpiryReport, runExpiry } from './job';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('expiry');
const client = createDocumentClient(
  createDynamoDBClient({ endpoint: config.dynamodbEndpoint, ...FUNCTION_LIMITS.expiry.dynamodb }),
);
const clock = zoneClock(config.settings.serviceTimeZone);
const logger = new Logger({ serviceName: SERVICE_NAME });
const metrics = createFunctionMetrics('expiry', logger);
const scheduler = new SchedulerClient({});

/**
 * One run — or, invoked by a summary's guard (`{ "recoverSummary": "<vendor>" }`), the recovery of that vendor's
 * summary only (docs/design.md#a-kill-timeline). Its report is logged and counted; a failure of DynamoDB fails the
 * invocation (the `ExpiryFailing` alarm watches the function's errors), after the job let go of its leases.
 */
async function expire(event: unknown, context: Context): Promise<ExpiryReport | RecoveryOutcome> {
  // The summaries' guards invoke this function (absent locally, where the server keeps them on its own timers).
  const guard = summaryGuardsOf(process.env, scheduler, context.invokedFunctionArn);
  if (isRecoverSummaryEvent(event) && guard) {
    const outcome = await recoverSummary(event.recoverSummary, {
      client,
      tables: config.tables,
      timer: guard,
    });
    logger.info('Summary recovery', { outcome });
    return outcome;
  }
  const report = await runExpiry({
    client,
    tables: config.tables,
    clock,
    signal: deadlineSignal(context, FUNCTION_LIMITS.expiry.reserveMs),
    ...(guard && { guard }),
  });
  logger.info('Expiry run', { ...report, vendors: report.vendors.length });
  metrics.count('vacanciesExpired', report.expired);
  metrics.count('summariesRecounted', report.recounted.length);
  metrics.count('expiryUnfinished', report.finished ? 0 : 1);
  return report;
}

export const handler = middy(expire)
  .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
  .use(metrics.middleware);
