/**
 * Lambda entry point of the TOKEN authorizer: configuration, clients, logger and metrics, made once per
 * container.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { createFunctionMetrics } from '../../domain/service/metrics';
import { functionConfiguration } from '../../domain/settings/environment';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { createAuthorizerHandler } from './factory';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('authorizer');
const client = createDynamoDBClient({
  endpoint: config.dynamodbEndpoint,
  ...FUNCTION_LIMITS.authorizer.dynamodb,
});

const logger = new Logger({ serviceName: SERVICE_NAME });

export const handler = createAuthorizerHandler({
  client,
  vendorsTable: config.tables.vendors,
  logger,
  metrics: createFunctionMetrics('authorizer', logger),
});
