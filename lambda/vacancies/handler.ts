/** Lambda entry point of `GET /vendor/vacancies`: configuration, clients and logger, made once per container. */
import { Logger } from '@aws-lambda-powertools/logger';
import { createDocumentClient, createDynamoDBClient } from '../dynamodb/client';
import { listingConfigFromEnvironment } from './config';
import { createListingHandler } from './listing-handler';
import { createVacancyRepository } from './repository';

const config = listingConfigFromEnvironment();
const documentClient = createDocumentClient(createDynamoDBClient({ endpoint: config.dynamodbEndpoint }));

export const handler = createListingHandler({
  repository: createVacancyRepository(documentClient, { tableName: config.vacanciesTable }),
  settings: config,
  logger: new Logger({ serviceName: 'vendor-vacancy-api' }),
});
