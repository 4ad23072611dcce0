/** Lambda entry point of the TOKEN authorizer: configuration, clients and logger, made once per container. */
import { Logger } from '@aws-lambda-powertools/logger';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../config/defaults';
import { createDocumentClient, createDynamoDBClient } from '../dynamodb/client';
import { createAuthorizerHandler } from './authorizer';
import { authorizerConfigFromEnvironment } from './config';

const config = authorizerConfigFromEnvironment();
const client = createDynamoDBClient({
  endpoint: config.dynamodbEndpoint,
  ...FUNCTION_LIMITS.authorizer.dynamodb,
});

export const handler = createAuthorizerHandler({
  documentClient: createDocumentClient(client),
  vendorsTable: config.vendorsTable,
  logger: new Logger({ serviceName: SERVICE_NAME }),
});
