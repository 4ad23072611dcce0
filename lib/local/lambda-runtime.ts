/**
 * What Lambda hands a handler, outside Lambda: a context whose remaining time counts down — for the local server,
 * the tests and the benchmark — and, for code that runs handlers without wanting their output (the tests, the
 * benchmark), a logger and metrics that print nothing.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type { FunctionName } from '../../lambda/config/defaults';
import { createFunctionMetrics, type FunctionMetrics } from '../../lambda/observability/metrics';

/**
 * A Lambda context as the runtime passes it to a handler: enough for Middy and the Powertools logger, with the
 * time that remains of the invocation counted down from `timeoutMs` (10 s unless given).
 */
export function lambdaContext(
  functionName: string,
  options: { readonly requestId?: string; readonly timeoutMs?: number; readonly memoryMb?: number } = {},
): Context {
  const noop = () => undefined;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(options.memoryMb ?? 256),
    awsRequestId: options.requestId ?? randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: noop,
    fail: noop,
    succeed: noop,
  };
}

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
