/**
 * The service's metrics: CloudWatch embedded metric format (EMF) lines that Powertools Metrics writes to the
 * functions' logs, from which CloudWatch makes the metrics (docs/operating.md#metrics). One namespace, and no
 * dimension but the service (and, on `ColdStart`, the function): each dimension value is a custom metric billed
 * every month, so a vendor is never one. The per-vendor view comes from Contributor Insights rules on the logs
 * instead (`log-fields.ts`).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { createMetrics, type FunctionMetrics as Metrics } from '../../platform/observability/metrics';
import { type FunctionName, SERVICE_NAME } from './limits';

/** The CloudWatch namespace of every metric of the service, the log-derived ones included. */
export const METRICS_NAMESPACE = 'VendorVacancyApi';

/** The metrics the functions emit, each a count. */
export const FUNCTION_METRICS = {
  /** Per served listing: the DynamoDB read units it consumed (docs/design.md#how-a-listing-reads). */
  readUnits: 'ReadUnits',
  /** Per served listing: its DynamoDB calls (a Query, then BatchGetItems). */
  dynamodbCalls: 'DynamoDBCalls',
  /** Per served listing: the vacancies on the page. */
  itemsReturned: 'ItemsReturned',
  /**
   * Per served listing: items the index named for the vendor that belong to another vendor — left out of the page,
   * and 0 in a healthy service (docs/operating.md#alarms, `IsolationBreach`).
   */
  foreignItems: 'ForeignItems',
  /** Per run of the expiry job: the vacancies it recorded as expired. */
  vacanciesExpired: 'VacanciesExpired',
  /** Per run of the expiry job: the summaries it counted anew (docs/design.md#the-summary). */
  summariesRecounted: 'SummariesRecounted',
  /** Per run of the expiry job: 1 when its time ran out with work left (the next run goes on), else 0. */
  expiryUnfinished: 'ExpiryUnfinished',
  /** Per key the authorizer refuses (a 401): unknown, revoked or of a vendor that does not exist. */
  keysRefused: 'KeysRefused',
  /** Per cold start of a function (Powertools' own metric), with the dimension `function_name`. */
  coldStart: 'ColdStart',
} as const;

/** A metric the functions emit. */
export type FunctionMetric = keyof typeof FUNCTION_METRICS;

/**
 * What each function emits, for the cost model (`lib/cost/fixed-costs.ts`: each is a custom metric, billed monthly,
 * unless the deployment disables the functions' metrics); a test runs the bundles and holds them to it. The inbox
 * emits none: its one log line per file says what it did; nor do the webhooks and the feeds, one log line a run. The
 * MCP function adds the listing's counts to the same metrics (the service's, not a function's: no metric more) and
 * no `ColdStart` of its own, so that it costs nothing while nobody calls it.
 */
export const METRICS_EMITTED = {
  authorizer: ['keysRefused', 'coldStart'],
  listing: ['readUnits', 'dynamodbCalls', 'itemsReturned', 'foreignItems', 'coldStart'],
  mcp: ['readUnits', 'dynamodbCalls', 'itemsReturned', 'foreignItems'],
  expiry: ['vacanciesExpired', 'summariesRecounted', 'expiryUnfinished', 'coldStart'],
  inbox: [],
  webhooks: [],
  feeds: [],
} as const satisfies Record<FunctionName, readonly FunctionMetric[]>;

/** The dimension Powertools gives every metric: the service's name. */
export const SERVICE_DIMENSION = 'service';
/** The dimension Powertools adds to `ColdStart`: here the function's short name, stable across deployments. */
export const FUNCTION_DIMENSION = 'function_name';

/** What a function of the service does with its metrics (`platform/observability/metrics.ts`). */
export type FunctionMetrics = Metrics<FunctionMetric>;

/** A function's metrics: the service's names, and `ColdStart` where the function emits it. */
export function createFunctionMetrics(functionName: FunctionName, logger: Logger): FunctionMetrics {
  return createMetrics(
    {
      namespace: METRICS_NAMESPACE,
      serviceName: SERVICE_NAME,
      functionName,
      names: FUNCTION_METRICS,
      coldStart: (METRICS_EMITTED[functionName] as readonly FunctionMetric[]).includes('coldStart'),
    },
    logger,
  );
}
