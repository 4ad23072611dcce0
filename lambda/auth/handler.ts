/** Lambda entry point of the TOKEN authorizer: configuration, clients and logger, made once per container. */
import { Logger } from '@aws-lambda-powertools/logger';
import { createDocumentClient, createDynamoDBClient } from '../dynamodb/client';
import { createAuthorizerHandler } from './authorizer';
import { authorizerConfigFromEnvironment } from './config';

const config = authorizerConfigFromEnvironment();

export const handler = createAuthorizerHandler({
  documentClient: createDocumentClient(createDynamoDBClient({ endpoint: config.dynamodbEndpoint })),
  vendorsTable: config.vendorsTable,
  logger: new Logger({ serviceName: 'vendor-vacancy-api' }),
});
