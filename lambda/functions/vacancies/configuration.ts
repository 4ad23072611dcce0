/**
 * The vacancies function's configuration (docs/operating.md#settings): what it reads from its environment at cold
 * start — its tables, a DynamoDB endpoint of one's own, and the route's settings. "Configuration" is all a function
 * reads from its environment (as `domain/settings/environment.ts`'s `FunctionConfiguration`); "settings" are the part an
 * operator chooses (`VacanciesSettings`), which the route's answers take.
 */

import type { VacanciesSettings } from '../../domain/listing/request/request';
import { vacanciesSettings } from '../../domain/listing/settings';
import { type Environment, functionConfiguration } from '../../domain/settings/environment';

/** The vacancies function's configuration, from its environment (set by the stack, or the local server). */
export interface VacanciesConfiguration {
  readonly vacanciesTable: string;
  /** Where the vendors' summaries are. */
  readonly vendorsTable: string;
  /** A non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when absent. */
  readonly dynamodbEndpoint?: string | undefined;
  /** What the route's answers take. */
  readonly settings: VacanciesSettings;
}

/**
 * Reads and checks the configuration once, at cold start (`domain/settings/environment.ts`): a misconfigured deployment
 * fails on its first request with a one-line reason rather than answering wrongly.
 */
export function vacanciesConfiguration(env: Environment = process.env): VacanciesConfiguration {
  const { tables, settings, dynamodbEndpoint } = functionConfiguration('listing', env);
  return {
    vacanciesTable: tables.vacancies,
    vendorsTable: tables.vendors,
    dynamodbEndpoint,
    settings: vacanciesSettings(settings),
  };
}
