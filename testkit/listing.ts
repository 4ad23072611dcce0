/**
 * The listing's handler on a test's tables, as the Lambda entry point builds it, quiet; imports into them; and the
 * report of a page served, as the handler makes it.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { recordServedPage } from '../lambda/domain/answers/served';
import type { AnswerSettings } from '../lambda/domain/answers/settings';
import { parseImportFile } from '../lambda/domain/import/file';
import { type ImportOptions, importVacancies } from '../lambda/domain/import/import';
import { createVacancyRepository, type VacancyRepositoryOptions } from '../lambda/domain/reads/repository';
import type { FunctionMetrics } from '../lambda/domain/service/metrics';
import { createVacanciesHandler } from '../lambda/functions/vacancies/factory';
import type { TestTables } from './dynamodb';
import { silentLogger, testMetrics } from './lambda';
import { CLOCK } from './vacancies';

/**
 * The listing's handler on `tables`: English by default, Baku's clock, 15 a page, the real repository (with
 * `repository`'s options), quiet unless given a logger or metrics.
 */
export function testListingHandler(
  tables: Pick<TestTables, 'client' | 'names'>,
  options: {
    readonly settings?: Partial<AnswerSettings>;
    readonly repository?: Omit<VacancyRepositoryOptions, 'tableName' | 'vendorsTable'>;
    readonly now?: () => Date;
    readonly logger?: Logger;
    readonly metrics?: FunctionMetrics;
  } = {},
) {
  return createVacanciesHandler({
    repository: createVacancyRepository(tables.client, {
      tableName: tables.names.vacancies,
      vendorsTable: tables.names.vendors,
      ...options.repository,
    }),
    settings: { defaultLocale: 'en', clock: CLOCK, defaultPerPage: 15, ...options.settings },
    logger: options.logger ?? silentLogger(),
    metrics: options.metrics ?? testMetrics('listing'),
    ...(options.now && { now: options.now }),
  });
}

/** Imports records into `tables` through the import (the writers, the summary), in Baku's zone. */
export function importRecords(
  tables: TestTables,
  records: readonly Record<string, unknown>[],
  options: ImportOptions = {},
) {
  return importVacancies(
    tables.documentClient,
    tables.names,
    parseImportFile(records.map((record) => JSON.stringify(record)).join('\n')),
    { clock: CLOCK, ...options },
  );
}

/** Reports through `logger`, as the listing does once it has answered, an empty first page served to Acme (`acme`). */
export function recordServedEmptyPage(
  logger: Logger,
  read: { readonly readUnits: number; readonly foreignItems: number },
): void {
  recordServedPage(
    logger,
    testMetrics('listing'),
    'acme',
    {
      page: 1,
      perPage: 15,
      total: 0,
      items: 0,
      cost: { readUnits: read.readUnits, calls: 1, foreignItems: read.foreignItems },
    },
    'req-1',
  );
}
