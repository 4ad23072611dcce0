/** What a served listing reports: one structured log line, and its metrics (docs/operating.md#metrics). */
import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AuthorizedVendor } from '../auth/context';
import { LISTING_SERVED, type ListingServedLog } from '../observability/log-fields';
import { FUNCTION_METRICS } from '../observability/metrics';
import type { ListingResult } from './listing';

/**
 * Logs the listing (with its vendor: the per-vendor view is built from this line, never from metrics) and adds
 * its read units, DynamoDB calls, items and items of another vendor to the invocation's metrics. Items of another
 * vendor named by the index — left out of the page — are an isolation breach: alarmed on, and logged with the
 * vendor for the investigation.
 */
export function reportListing(
  logger: Logger,
  metrics: Metrics,
  vendor: AuthorizedVendor,
  result: ListingResult,
): void {
  const { pagination, data } = result.body;
  const line: ListingServedLog = {
    vendorId: vendor.vendorId,
    page: pagination.current_page,
    perPage: pagination.per_page,
    total: pagination.total,
    readUnits: result.readUnits,
    dynamodbCalls: result.calls,
    itemsReturned: data.length,
  };
  logger.info(LISTING_SERVED, { ...line });
  metrics.addMetric(FUNCTION_METRICS.readUnits, MetricUnit.Count, result.readUnits);
  metrics.addMetric(FUNCTION_METRICS.dynamodbCalls, MetricUnit.Count, result.calls);
  metrics.addMetric(FUNCTION_METRICS.itemsReturned, MetricUnit.Count, data.length);
  // Always emitted, 0 as a rule, so that the alarm on it reads a series rather than the absence of one.
  metrics.addMetric(FUNCTION_METRICS.foreignItems, MetricUnit.Count, result.foreignItems);
  if (result.foreignItems > 0) {
    logger.error('The active index named items of another vendor; they were left out', {
      vendorId: vendor.vendorId,
      foreignItems: result.foreignItems,
    });
  }
}
