export { lambdaContext, quietMetrics as testMetrics, silentLogger } from '../../lib/local/lambda-runtime';
