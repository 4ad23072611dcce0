/**
 * Lambda entry point of `GET /vendor/vacancies`: configuration, clients, logger and metrics, made once per
 * container.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { answerSettings } from '../../domain/answers/settings';
import { createVacancyRepository } from '../../domain/reads/repository';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../../domain/service/limits';
import { createFunctionMetrics } from '../../domain/service/metrics';
import { functionConfiguration } from '../../domain/settings/environment';
import { createDynamoDBClient } from '../../platform/dynamodb/client';
import { mapStackTracesOnDemand } from '../../platform/observability/stack-traces';
import { createVacanciesHandler } from './factory';

// First, so that an error even while the container starts is logged with the sources' lines.
mapStackTracesOnDemand();

const config = functionConfiguration('listing');
const client = createDynamoDBClient({
  endpoint: config.dynamodbEndpoint,
  ...FUNCTION_LIMITS.listing.dynamodb,
});

const logger = new Logger({ serviceName: SERVICE_NAME });

export const handler = createVacanciesHandler({
  repository: createVacancyRepository(client, {
    tableName: config.tables.vacancies,
    vendorsTable: config.tables.vendors,
  }),
  settings: answerSettings(config.settings),
  logger,
  metrics: createFunctionMetrics('listing', logger),
});
