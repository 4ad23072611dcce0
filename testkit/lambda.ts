export { lambdaContext } from '../lib/local/lambda-runtime';
export { quietMetrics as testMetrics, silentLogger } from './quiet-runtime';
