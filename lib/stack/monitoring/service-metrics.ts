import {
  type aws_apigateway as apigateway,
  aws_cloudwatch as cloudwatch,
  Duration,
  aws_dynamodb as dynamodb,
  aws_logs as logs,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { type FunctionName, SERVICE_NAME } from '../../../lambda/domain/service/limits';
import {
  FUNCTION_DIMENSION,
  FUNCTION_METRICS,
  METRICS_NAMESPACE,
  SERVICE_DIMENSION,
} from '../../../lambda/domain/service/metrics';
import type { GATEWAY_RESPONSES } from '../../../lambda/platform/http/gateway-responses';
import type { DataTables } from '../data-tables';
import type { ServiceFunctions } from '../functions';
import type { AccessLogField } from '../rest-api';

/** The period of every metric of the alarms and the dashboard. */
export const PERIOD = Duration.minutes(5);

/** What the metrics are read from. */
export interface ServiceMetricsProps {
  readonly api: apigateway.RestApi;
  readonly functions: ServiceFunctions;
  readonly data: DataTables;
  readonly accessLogs: logs.ILogGroup;
  /** `detailed`: the functions emit their metrics (EMF); otherwise the few the alarms need come from log filters. */
  readonly detailed: boolean;
}

/** A statistic CloudWatch computes over a period. */
type Statistic = 'Sum' | 'Average' | 'Maximum' | 'SampleCount' | `p${number}`;

/**
 * A percentage of requests, from a count (named `countId` in the expression: ids must differ between the series
 * of one graph) and the requests of the same period.
 */
function rateOfRequests(
  label: string,
  countId: string,
  count: cloudwatch.IMetric,
  requests: cloudwatch.IMetric,
) {
  return new cloudwatch.MathExpression({
    label,
    expression: `IF(requests > 0, 100 * ${countId} / requests, 0)`,
    usingMetrics: { [countId]: count, requests },
    period: PERIOD,
  });
}

/**
 * Every metric the alarms and the dashboard show, made in one place: API Gateway's, Lambda's and DynamoDB's own,
 * the functions' EMF metrics (`lambda/domain/service/metrics.ts`, with exactly the dimensions they are emitted
 * with), and two metrics derived from logs by metric filters.
 */
export class ServiceMetrics extends Construct {
  readonly #props: ServiceMetricsProps;
  /**
   * Key checks that failed (not refusals): requests API Gateway answered with AUTHORIZER_FAILURE or
   * AUTHORIZER_CONFIGURATION_ERROR — the authorizer could not check the key, threw, timed out or could not run.
   */
  public readonly keyChecksFailed: cloudwatch.Metric;
  /** API Gateway's INVALID_API_KEY answers (the 500): a vendor's usage key is in no plan of the stage (detailed). */
  public readonly invalidUsageKeys: cloudwatch.Metric | undefined;
  /**
   * Items of another vendor a listing left out of its page (0 in a healthy service): the listing's EMF metric when
   * detailed, else counted from its log line that reports them — the vacancies function's and the MCP function's.
   */
  public readonly foreignItems: cloudwatch.IMetric;

  constructor(scope: Construct, id: string, props: ServiceMetricsProps) {
    super(scope, id);
    this.#props = props;
    // Counted from the access log, by the gateway response each request got: whatever made a key check fail, the
    // vendor got the 503, and API Gateway says so there. Never from log levels, which anything can write at.
    const errorField: AccessLogField = 'error';
    const answered = (...types: (keyof typeof GATEWAY_RESPONSES)[]) =>
      logs.FilterPattern.any(
        ...types.map((type) => logs.FilterPattern.stringValue(`$.${errorField}`, '=', type)),
      );
    const countOf = (
      metricName: string,
      pattern: logs.IFilterPattern,
      logGroup: logs.ILogGroup = props.accessLogs,
      metricValue = '1',
    ) =>
      new logs.MetricFilter(this, metricName, {
        logGroup,
        filterPattern: pattern,
        metricNamespace: METRICS_NAMESPACE,
        metricName,
        metricValue,
        defaultValue: 0,
      }).metric({ period: PERIOD, statistic: 'Sum' });
    this.keyChecksFailed = countOf(
      'KeyChecksFailed',
      answered('AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'),
    );
    this.invalidUsageKeys = props.detailed
      ? countOf('InvalidUsageKeys', answered('INVALID_API_KEY'))
      : undefined;
    const foreignItemsLogged = logs.FilterPattern.numberValue('$.foreignItems', '>', 0);
    this.foreignItems = props.detailed
      ? this.emitted('foreignItems', 'Sum', 'Items of another vendor')
      : countOf('ForeignItemsLogged', foreignItemsLogged, props.functions.listing.logGroup, '$.foreignItems');
    if (!props.detailed) {
      // The MCP server's tools answer with the listing's code, and log the same line: one more filter into the same
      // metric (one metric, one price: the alarm reads both functions).
      new logs.MetricFilter(this, 'ForeignItemsLoggedMcp', {
        logGroup: props.functions.mcp.logGroup,
        filterPattern: foreignItemsLogged,
        metricNamespace: METRICS_NAMESPACE,
        metricName: 'ForeignItemsLogged',
        metricValue: '$.foreignItems',
        defaultValue: 0,
      });
    }
  }

  /** Requests the API answered. */
  requests(statistic: Statistic = 'Sum') {
    return this.#props.api.metricCount({ period: PERIOD, statistic, label: 'Requests' });
  }

  /** 4XX answers (429 included), as a percentage of requests. */
  clientErrorRate() {
    return this.shareOfRequests(
      '4XX, % of requests',
      'clientErrors',
      this.#props.api.metricClientError(this.sum()),
    );
  }

  /** 5XX answers, as a percentage of requests. */
  serverErrorRate() {
    return this.shareOfRequests(
      '5XX, % of requests',
      'serverErrors',
      this.#props.api.metricServerError(this.sum()),
    );
  }

  /**
   * 5XX answers as API Gateway counts them: its `5XXError` averaged over a period is the share of requests answered
   * 5XX (0 to 1) — one metric for an alarm, where a rate of two counts would be two.
   */
  serverErrorShare() {
    return this.#props.api.metricServerError({ period: PERIOD, statistic: 'Average' });
  }

  /** A count as a percentage of requests (the 429s come from a Contributor Insights rule). */
  shareOfRequests(label: string, countId: string, count: cloudwatch.IMetric) {
    return rateOfRequests(label, countId, count, this.requests());
  }

  /**
   * API Gateway's latency, request to response, or of the integration (the listing) alone. Unlabelled, so that an
   * alarm on it is a plain percentile alarm; a graph labels it.
   */
  latency(statistic: Statistic, of: 'request' | 'integration' = 'request') {
    const options = { period: PERIOD, statistic };
    return of === 'request'
      ? this.#props.api.metricLatency(options)
      : this.#props.api.metricIntegrationLatency(options);
  }

  /** A function's duration, errors, throttles or concurrent executions. */
  lambda(
    name: FunctionName,
    metric: 'Duration' | 'Errors' | 'Throttles' | 'ConcurrentExecutions',
    statistic: Statistic,
  ) {
    return this.#props.functions[name].function.metric(metric, {
      period: PERIOD,
      statistic,
      label: `${name} ${metric === 'Duration' ? statistic : metric}`,
    });
  }

  /** A metric the functions emit (EMF), with the dimensions they emit it with. */
  emitted(metric: Exclude<keyof typeof FUNCTION_METRICS, 'coldStart'>, statistic: Statistic, label: string) {
    return new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: FUNCTION_METRICS[metric],
      dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME },
      period: PERIOD,
      statistic,
      label,
    });
  }

  /** Cold starts of a function (Powertools' `ColdStart`, with the function's short name). */
  coldStarts(name: FunctionName) {
    return new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: FUNCTION_METRICS.coldStart,
      dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME, [FUNCTION_DIMENSION]: name },
      period: PERIOD,
      statistic: 'Sum',
      label: `${name} cold starts`,
    });
  }

  /** Read units the tables consumed. */
  consumedReads() {
    const { vacancies, vendors } = this.#props.data;
    return [
      vacancies.metricConsumedReadCapacityUnits({ ...this.sum(), label: 'Vacancies' }),
      vendors.metricConsumedReadCapacityUnits({ ...this.sum(), label: 'Vendors' }),
    ];
  }

  /** Reads of the API that DynamoDB throttled: the listing's Query and BatchGetItem, the authorizer's GetItem. */
  throttledReads() {
    const { vacancies, vendors } = this.#props.data;
    return new cloudwatch.MathExpression({
      label: 'Throttled DynamoDB reads',
      expression: 'vacancies + vendors',
      usingMetrics: {
        // The listing's Query (the active index): a vendor's partition is where reads concentrate. Its BatchGetItem
        // spreads over the table by id; throttled, it answers 503, which ServerErrorRate sees.
        vacancies: vacancies.metricThrottledRequestsForOperations({
          operations: [dynamodb.Operation.QUERY],
          period: PERIOD,
        }),
        vendors: vendors.metricThrottledRequestsForOperations({
          operations: [dynamodb.Operation.GET_ITEM],
          period: PERIOD,
        }),
      },
      period: PERIOD,
    });
  }

  private sum() {
    return { period: PERIOD, statistic: 'Sum' } as const;
  }
}
