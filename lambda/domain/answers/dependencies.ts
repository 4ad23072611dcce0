/**
 * What a function that answers from the core is built from — the vacancies function's handler and the MCP function's,
 * which answer alike: its reads, its settings, its logger and metrics, and the search entries it holds.
 * Each Lambda entry point makes them once per container; the local server and tests make their own.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { VacancyRepository } from '../reads/repository';
import type { FunctionMetrics } from '../service/metrics';
import type { HeldEntries } from './search/held-entries';
import type { AnswerSettings } from './settings';

/** The dependencies of a handler that answers from the core. */
export interface AnswerDependencies {
  readonly repository: VacancyRepository;
  readonly settings: AnswerSettings;
  readonly logger: Logger;
  /** The function's metrics (`domain/service/metrics.ts`). */
  readonly metrics: FunctionMetrics;
  /** The clock; tests fix it. */
  readonly now?: () => Date;
  /** Kept back from the remaining time to answer in (docs/design.md#time-budget); the function's own by default. */
  readonly reserveMs?: number;
  /** The vendors' search indexes the function holds (docs/design.md#search); a new, empty one when absent. */
  readonly heldEntries?: HeldEntries;
}
