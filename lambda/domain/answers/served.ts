/**
 * What a served page (of the listing or a sync), or a vacancy, leaves behind: one structured log line, and its
 * metrics (docs/operating.md#metrics). The line names its request itself (`correlation_id`, API Gateway's request
 * id): a logger's correlation id is the process's, and where several invocations run in one process at once — the
 * local server — another's would take its place, and with it the read units shown for a request.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import {
  LISTING_SERVED,
  type ListingServedLog,
  VACANCY_SERVED,
  type VacancyServedLog,
} from '../service/log-fields';
import type { FunctionMetrics } from '../service/metrics';
import type { AnswerCost } from './listing';
import type { PageFigures } from './pages';

/** What a served page was: its figures, how many vacancies it showed, what its reads cost. */
export interface ServedPage extends Omit<PageFigures, 'lastPage'> {
  /** The vacancies (or a sync's changes) it showed: none for an answer the client already held. */
  readonly items: number;
  /** Set when the client was told its answer still holds (a 304): the figures are those of the answer it holds. */
  readonly notModified?: boolean;
  readonly cost: AnswerCost;
}

/** What a served vacancy was: its id, what its read cost, and whether it was gone (no longer open). */
export interface ServedVacancy {
  readonly id: number;
  readonly cost: Omit<AnswerCost, 'foreignItems'>;
  readonly gone?: boolean;
}

/**
 * Logs the listing (with its vendor: the per-vendor view is built from this line, never from metrics) and adds
 * its read units, DynamoDB calls, items and items of another vendor to the invocation's metrics — a 304 as well,
 * with what the body it stands for said. Items of another
 * vendor named by the index — left out of the page — are an isolation breach: alarmed on, and logged with the
 * vendor for the investigation.
 */
export function recordServedPage(
  logger: Logger,
  metrics: FunctionMetrics,
  vendorId: string,
  served: ServedPage,
  requestId: string,
): void {
  const { cost } = served;
  const line: ListingServedLog = {
    vendorId,
    page: served.page,
    perPage: served.perPage,
    total: served.total,
    readUnits: cost.readUnits,
    dynamodbCalls: cost.calls,
    itemsReturned: served.items,
    ...(served.notModified && { notModified: true }),
  };
  logger.info(LISTING_SERVED, { ...line, correlation_id: requestId });
  metrics.count('readUnits', cost.readUnits);
  metrics.count('dynamodbCalls', cost.calls);
  metrics.count('itemsReturned', served.items);
  // Always emitted, 0 as a rule, so that the alarm on it reads a series rather than the absence of one.
  metrics.count('foreignItems', cost.foreignItems);
  if (cost.foreignItems > 0) {
    logger.error('The active index named items of another vendor; they were left out', {
      vendorId,
      foreignItems: cost.foreignItems,
    });
  }
}

/**
 * Logs the one vacancy served (200, or 304 after its read; or the 410 of one no longer open, marked `gone`) and adds
 * its reads to the invocation's metrics, with the vacancy returned (none for a 410).
 */
export function recordServedVacancy(
  logger: Logger,
  metrics: FunctionMetrics,
  vendorId: string,
  served: ServedVacancy,
  requestId: string,
): void {
  const line: VacancyServedLog = {
    vendorId,
    vacancyId: served.id,
    readUnits: served.cost.readUnits,
    dynamodbCalls: served.cost.calls,
    ...(served.gone && { gone: true }),
  };
  logger.info(VACANCY_SERVED, { ...line, correlation_id: requestId });
  metrics.count('readUnits', served.cost.readUnits);
  metrics.count('dynamodbCalls', served.cost.calls);
  metrics.count('itemsReturned', served.gone ? 0 : 1);
}
