import { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { FunctionName } from '../../lambda/config/defaults';
import { createFunctionMetrics } from '../../lambda/observability/metrics';

export { lambdaContext } from '../../lib/local/lambda-context';

/** A logger that writes nothing: test output stays readable. */
export function silentLogger(): Logger {
  return new Logger({ serviceName: 'test', logLevel: 'SILENT' });
}

/**
 * A function's metrics, as its entry point makes them. They print nothing while `POWERTOOLS_METRICS_DISABLED`
 * is set, as the test environment and the benchmark set it; a test that reads them unsets it first.
 */
export function testMetrics(functionName: FunctionName): Metrics {
  return createFunctionMetrics(functionName, silentLogger());
}
