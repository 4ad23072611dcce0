import { type Environment, functionConfiguration } from '../config/environment';
import { zoneClock } from '../time/zone-clock';
import type { ListingSettings } from './request/request';

/** The listing function's configuration, from its environment (set by the stack, or the local server). */
export interface ListingConfig extends ListingSettings {
  readonly vacanciesTable: string;
  /** Where the vendors' summaries are. */
  readonly vendorsTable: string;
  /** A non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when absent. */
  readonly dynamodbEndpoint?: string | undefined;
}

/**
 * Reads and checks the configuration once, at cold start (`config/environment.ts`): a misconfigured deployment
 * fails on its first request with a one-line reason rather than answering wrongly.
 */
export function listingConfigFromEnvironment(env: Environment = process.env): ListingConfig {
  const { tables, settings, dynamodbEndpoint } = functionConfiguration('listing', env);
  return {
    vacanciesTable: tables.vacancies,
    vendorsTable: tables.vendors,
    dynamodbEndpoint,
    defaultLocale: settings.defaultLocale,
    clock: zoneClock(settings.serviceTimeZone),
    defaultPerPage: settings.defaultPerPage,
    publicBaseUrl: settings.publicBaseUrl || undefined,
    rateTiers: settings.rateTiers,
    jobPosting: {
      jobCountry: settings.jobCountry,
      salaryCurrency: settings.salaryCurrency,
      salaryPeriod: settings.salaryPeriod,
    },
  };
}
