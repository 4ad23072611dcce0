import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** A Lambda context as the runtime passes it, enough for Middy and the Powertools logger. */
export function lambdaContext(functionName = 'test-function'): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-central-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: 'lambda-request-1',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A logger that writes nothing: test output stays readable. */
export function silentLogger(): Logger {
  return new Logger({ serviceName: 'test', logLevel: 'SILENT' });
}
