/**
 * The expiry function's handler (docs/design.md#expiry), made from what it works with: one run of the job
 * (`job.ts`) — or, invoked by a summary's guard (`{ "recoverSummary": "<vendor>" }`), the recovery of that vendor's
 * summary only (docs/design.md#a-kill-timeline). Its report is logged and counted; a failure of DynamoDB fails the
 * invocation (the `ExpiryFailing` alarm watches the function's errors), after the job let go of its leases.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { TableNames } from '../../domain/schema/tables';
import type { FunctionMetrics } from '../../domain/service/metrics';
import { type RecoveryOutcome, recoverSummary } from '../../domain/store/summary-guard';
import { isRecoverSummaryEvent, summaryGuardsOf } from '../../domain/store/summary-guard-schedules';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import type { ZoneClock } from '../../platform/time/zone-clock';
import { type ExpiryReport, runExpiry } from './job';

/** What the expiry function works with, made once per container by its entry point. */
export interface ExpiryDependencies {
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly clock: ZoneClock;
  readonly logger: Logger;
  readonly metrics: FunctionMetrics;
  /** Where the summaries' guards are made; their variables tell (absent locally, where the server keeps them). */
  readonly scheduler: SchedulerClient;
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Kept back from the remaining time to let go of the leases in. */
  readonly reserveMs: number;
}

/** The expiry function's handler: see the module's comment. */
export function createExpiryHandler(dependencies: ExpiryDependencies) {
  const { client, tables, clock, logger, metrics, scheduler, environment, reserveMs } = dependencies;
  const expire = async (event: unknown, context: Context): Promise<ExpiryReport | RecoveryOutcome> => {
    // The summaries' guards invoke this function (absent locally, where the server keeps them on its own timers).
    const guard = summaryGuardsOf(environment, scheduler, context.invokedFunctionArn);
    if (isRecoverSummaryEvent(event) && guard) {
      const outcome = await recoverSummary(event.recoverSummary, { client, tables, timer: guard });
      logger.info('Summary recovery', { outcome });
      return outcome;
    }
    const report = await runExpiry({
      client,
      tables,
      clock,
      signal: deadlineSignal(context, reserveMs),
      ...(guard && { guard }),
    });
    logger.info('Expiry run', { ...report, vendors: report.vendors.length });
    metrics.count('vacanciesExpired', report.expired);
    metrics.count('summariesRecounted', report.recounted.length);
    metrics.count('expiryUnfinished', report.finished ? 0 : 1);
    return report;
  };
  return middy(expire)
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(metrics.middleware);
}
