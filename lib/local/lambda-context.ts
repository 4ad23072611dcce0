import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** A Lambda context as the runtime passes it to a handler: enough for Middy and the Powertools logger. */
export function lambdaContext(functionName: string, requestId: string = randomUUID()): Context {
  const noop = () => undefined;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 10_000,
    done: noop,
    fail: noop,
    succeed: noop,
  };
}
