/**
 * What a served page (of the listing or a sync), or a vacancy, leaves behind: one structured log line, and its
 * metrics (docs/operating.md#metrics). The line names its request itself (`correlation_id`, API Gateway's request
 * id): a logger's correlation id is the process's, and where several invocations run in one process at once — the
 * local server — another's would take its place, and with it the read units shown for a request.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { AuthorizedVendor } from '../keys/context';
import {
  LISTING_SERVED,
  type ListingServedLog,
  VACANCY_SERVED,
  type VacancyServedLog,
} from '../service/log-fields';
import type { FunctionMetrics } from '../service/metrics';
import type { GoneVacancyResult, VacancyResult } from './one-vacancy';
import type { NotModifiedResult, VacanciesResult } from './request';

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
  vendor: AuthorizedVendor,
  result: VacanciesResult | NotModifiedResult,
  requestId: string,
): void {
  const served =
    'notModified' in result
      ? { page: result.page, perPage: result.perPage, total: result.total, items: 0 }
      : {
          page: result.body.pagination.current_page,
          perPage: result.body.pagination.per_page,
          total: result.body.pagination.total,
          items: result.body.data.length,
        };
  const line: ListingServedLog = {
    vendorId: vendor.vendorId,
    page: served.page,
    perPage: served.perPage,
    total: served.total,
    readUnits: result.readUnits,
    dynamodbCalls: result.calls,
    itemsReturned: served.items,
    ...('notModified' in result && { notModified: true }),
  };
  logger.info(LISTING_SERVED, { ...line, correlation_id: requestId });
  metrics.count('readUnits', result.readUnits);
  metrics.count('dynamodbCalls', result.calls);
  metrics.count('itemsReturned', served.items);
  // Always emitted, 0 as a rule, so that the alarm on it reads a series rather than the absence of one.
  metrics.count('foreignItems', result.foreignItems);
  if (result.foreignItems > 0) {
    logger.error('The active index named items of another vendor; they were left out', {
      vendorId: vendor.vendorId,
      foreignItems: result.foreignItems,
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
  vendor: AuthorizedVendor,
  result: VacancyResult | GoneVacancyResult,
  requestId: string,
): void {
  const gone = 'gone' in result;
  const line: VacancyServedLog = {
    vendorId: vendor.vendorId,
    vacancyId: result.id,
    readUnits: result.readUnits,
    dynamodbCalls: result.calls,
    ...(gone && { gone: true }),
  };
  logger.info(VACANCY_SERVED, { ...line, correlation_id: requestId });
  metrics.count('readUnits', result.readUnits);
  metrics.count('dynamodbCalls', result.calls);
  metrics.count('itemsReturned', gone ? 0 : 1);
}
