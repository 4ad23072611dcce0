/**
 * A function's metrics: CloudWatch embedded metric format (EMF) lines that Powertools Metrics writes to the
 * function's logs, from which CloudWatch makes the metrics. Counts only, one namespace, and no dimension but the
 * service (and, on `ColdStart`, the function): each dimension value is a custom metric billed every month. Which
 * metrics a service has, and which function emits which, is the service's to say (its table of names).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { MiddlewareObj } from '@middy/core';

/**
 * Defined by the stack's bundler from the monitoring profile (docs/operating.md#monitoring-profiles): `false` when
 * the functions publish no metric, so that their bundles leave Powertools Metrics out — code a cold start would
 * compile and a request never run (docs/design.md#cold-start). Undefined outside a bundle.
 */
declare const VVA_METRICS: boolean | undefined;

/** What a function does with its metrics: counts, published when its invocation ends. */
export interface FunctionMetrics<M extends string = string> {
  /** Adds `value` to one of the invocation's counts. */
  count(metric: M, value: number): void;
  /** The Middy middleware that publishes the invocation's counts, and on a cold start `ColdStart`: `.use()` it. */
  readonly middleware: MiddlewareObj[];
}

/** What a function's metrics are: where they go, their names, and whether a cold start is counted. */
export interface MetricsOptions<M extends string> {
  readonly namespace: string;
  readonly serviceName: string;
  readonly functionName: string;
  /** Each count's CloudWatch name. */
  readonly names: Readonly<Record<M, string>>;
  /** Whether the function publishes Powertools' `ColdStart`. */
  readonly coldStart: boolean;
}

/** The metrics of a build without them: counts go nowhere, nothing is published. */
const NO_METRICS: FunctionMetrics<never> = { count: () => undefined, middleware: [] };

/**
 * A function's metrics, through Powertools Metrics — which still prints nothing while `POWERTOOLS_METRICS_DISABLED`
 * is set. Its diagnostics go to the function's logger at level ERROR only: Powertools warns whenever an invocation
 * published no metric, which every refused request does by design.
 */
export function createMetrics<M extends string>(
  options: MetricsOptions<M>,
  logger: Logger,
): FunctionMetrics<M> {
  // Spelled out for esbuild, which folds it to `true` or `false` and drops the code it makes unreachable.
  if (typeof VVA_METRICS === 'boolean' && !VVA_METRICS) return NO_METRICS;
  const metrics = new Metrics({
    namespace: options.namespace,
    serviceName: options.serviceName,
    functionName: options.functionName,
    logger: logger.createChild({ logLevel: 'ERROR' }),
  });
  return {
    count: (metric, value) => metrics.addMetric(options.names[metric], MetricUnit.Count, value),
    middleware: [logMetrics(metrics, { captureColdStartMetric: options.coldStart })],
  };
}
