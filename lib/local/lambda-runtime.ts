/**
 * What Lambda hands a handler, outside Lambda: a context whose remaining time counts down — for the local server,
 * the tests and the benchmark. (A logger and metrics that print nothing, which only the tests and the benchmark
 * want, are testkit/quiet-runtime.ts.)
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

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
