import { DEFAULT_RATE_TIERS, type RateTier, SERVICE_DEFAULTS } from '../config/defaults';
import { dynamodbEndpoint, type Environment, requiredVariable } from '../config/environment';
import { isTimeZone, zoneClock } from '../time/zone-clock';
import type { ListingSettings } from './listing';
import { isLocale } from './locale';
import { LIMITS } from './query';

/** The listing function's configuration, from its environment (set by the stack, or the local server). */
export interface ListingConfig extends ListingSettings {
  readonly vacanciesTable: string;
  /** A non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when absent. */
  readonly dynamodbEndpoint?: string | undefined;
}

/** `RATE_TIERS`: the deployment's tiers as JSON (the stack writes it from its settings); the defaults when unset. */
function rateTiersOf(json: string | undefined): Readonly<Record<string, RateTier>> {
  if (!json) return DEFAULT_RATE_TIERS;
  const tiers = JSON.parse(json) as Record<string, RateTier>;
  for (const [name, tier] of Object.entries(tiers)) {
    if (!Number.isInteger(tier?.rate) || !Number.isInteger(tier?.burst)) {
      throw new Error(`RATE_TIERS: tier "${name}" needs a whole rate and burst.`);
    }
  }
  return tiers;
}

/**
 * Reads and checks the configuration once, at cold start: a misconfigured deployment fails on its first
 * request with a clear log line rather than answering wrongly. Unset variables take the service defaults.
 */
export function listingConfigFromEnvironment(env: Environment = process.env): ListingConfig {
  const defaultLocale = (env.DEFAULT_LOCALE ?? SERVICE_DEFAULTS.locale).toLowerCase();
  if (!isLocale(defaultLocale)) throw new Error(`DEFAULT_LOCALE must be az or en, not "${defaultLocale}".`);
  const timeZone = env.SERVICE_TIMEZONE ?? SERVICE_DEFAULTS.timeZone;
  if (!isTimeZone(timeZone)) throw new Error(`SERVICE_TIMEZONE "${timeZone}" is not a known time zone.`);
  const defaultPerPage = Number(env.DEFAULT_PER_PAGE ?? SERVICE_DEFAULTS.perPage);
  const { min, max } = LIMITS.perPage;
  if (!Number.isInteger(defaultPerPage) || defaultPerPage < min || defaultPerPage > max) {
    throw new Error(`DEFAULT_PER_PAGE must be an integer from ${min} to ${max}.`);
  }
  const publicBaseUrl = env.PUBLIC_BASE_URL || undefined;
  if (publicBaseUrl !== undefined && !/^https?:\/\/[^?#]+$/.test(publicBaseUrl)) {
    throw new Error('PUBLIC_BASE_URL must be an absolute http(s) URL without query or fragment.');
  }
  return {
    rateTiers: rateTiersOf(env.RATE_TIERS),
    vacanciesTable: requiredVariable(env, 'VACANCIES_TABLE'),
    dynamodbEndpoint: dynamodbEndpoint(env),
    defaultLocale,
    clock: zoneClock(timeZone),
    defaultPerPage,
    publicBaseUrl,
  };
}
