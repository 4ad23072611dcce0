/**
 * A logger and metrics that print nothing, for code that runs the functions' handlers without wanting their output:
 * the tests and the benchmark (the context they pass is lib/local/lambda-runtime.ts's, the local server's too).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { FunctionName } from '../lambda/domain/service/limits';
import { createFunctionMetrics, type FunctionMetrics } from '../lambda/domain/service/metrics';

/** A logger that writes nothing. */
export function silentLogger(): Logger {
  return new Logger({ serviceName: 'quiet', logLevel: 'SILENT' });
}

/**
 * A function's metrics, as its entry point makes them. They print nothing while `POWERTOOLS_METRICS_DISABLED` is
 * set, as the test environment and the benchmark set it; a test that reads them unsets it first.
 */
export function quietMetrics(functionName: FunctionName): FunctionMetrics {
  return createFunctionMetrics(functionName, silentLogger());
}
