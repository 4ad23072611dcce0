import { Logger } from '@aws-lambda-powertools/logger';

export { lambdaContext } from '../../lib/local/lambda-context';

/** A logger that writes nothing: test output stays readable. */
export function silentLogger(): Logger {
  return new Logger({ serviceName: 'test', logLevel: 'SILENT' });
}
