/**
 * What each function receives in its environment, declared once (docs/design.md#configuration): the tables it
 * works on, the settings it takes, and a non-AWS DynamoDB endpoint where there is one. The stack, the local server
 * and the benchmark write the environment from this declaration (`lib/function-environment.ts`); each function
 * reads and checks it here, at cold start, with the settings' own checks.
 */

import type { TableNames } from '../schema/tables';
import type { FunctionName } from '../service/limits';
import { httpUrl } from './checks';
import {
  checkSetting,
  FUNCTION_SETTINGS,
  type FunctionSettingName,
  type FunctionSettings,
  notAllowed,
  type SettingDefinition,
} from './function-settings';

/** A function's environment variables. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The variable that names each table. */
export const TABLE_VARIABLES = {
  vacancies: 'VACANCIES_TABLE',
  vendors: 'VENDORS_TABLE',
} as const satisfies Record<keyof TableNames, string>;

/** A non-AWS DynamoDB endpoint (the local server's engine, DynamoDB Local); AWS when unset. */
export const DYNAMODB_ENDPOINT_VARIABLE = 'DYNAMODB_ENDPOINT';

/** The operator's settings the listing's answers take: the vacancies function's and the MCP function's. */
export const LISTING_SETTINGS = [
  'defaultLocale',
  'serviceTimeZone',
  'defaultPerPage',
  'publicBaseUrl',
  'rateTiers',
  'jobCountry',
  'salaryCurrency',
  'salaryPeriod',
] as const satisfies readonly FunctionSettingName[];

/** The tables and settings of each function. */
export const FUNCTION_ENVIRONMENTS = {
  authorizer: { tables: ['vendors'], settings: [] },
  listing: { tables: ['vacancies', 'vendors'], settings: LISTING_SETTINGS },
  // The MCP server answers as the listing does, from the same tables and settings.
  mcp: { tables: ['vacancies', 'vendors'], settings: LISTING_SETTINGS },
  expiry: { tables: ['vacancies', 'vendors'], settings: ['serviceTimeZone'] },
  inbox: {
    tables: ['vacancies', 'vendors'],
    settings: ['serviceTimeZone', 'snapshotMaxClose', 'jobCountry'],
  },
  webhooks: { tables: ['vacancies', 'vendors'], settings: ['publicBaseUrl', 'webhookRetrySchedule'] },
  feeds: {
    tables: ['vacancies', 'vendors'],
    settings: ['serviceTimeZone', 'jobCountry', 'salaryCurrency', 'salaryPeriod'],
  },
} as const satisfies Record<
  FunctionName,
  { readonly tables: readonly (keyof TableNames)[]; readonly settings: readonly FunctionSettingName[] }
>;

type Declared<F extends FunctionName> = (typeof FUNCTION_ENVIRONMENTS)[F];

/** What a function reads from its environment. */
export interface FunctionConfiguration<F extends FunctionName> {
  readonly tables: { readonly [T in Declared<F>['tables'][number]]: string };
  readonly settings: Pick<FunctionSettings, Declared<F>['settings'][number]>;
  readonly dynamodbEndpoint: string | undefined;
}

/** A variable that describes itself in an error: `DEFAULT_PER_PAGE (setting defaultPerPage)`. */
const described = (variable: string, setting?: string) =>
  setting ? `${variable} (setting ${setting})` : variable;

/**
 * A function's configuration from its environment, checked at cold start: a table variable that is missing, or a
 * setting or endpoint that its check refuses, stops the function with one line (`SettingError`) rather than let it
 * answer wrongly. An unset setting takes its default.
 */
export function functionConfiguration<F extends FunctionName>(
  name: F,
  env: Environment = process.env,
): FunctionConfiguration<F> {
  const declared: { tables: readonly (keyof TableNames)[]; settings: readonly FunctionSettingName[] } =
    FUNCTION_ENVIRONMENTS[name];
  const tables: Record<string, string> = {};
  for (const table of declared.tables) {
    const variable = TABLE_VARIABLES[table];
    const value = env[variable];
    if (!value) throw notAllowed(variable, value ?? null, 'the name of a table');
    tables[table] = value;
  }
  const settings: Record<string, unknown> = {};
  for (const setting of declared.settings) {
    const definition = FUNCTION_SETTINGS[setting];
    settings[setting] = checkSetting(
      definition as SettingDefinition<unknown>,
      described(definition.variable, setting),
      env[definition.variable],
    );
  }
  const endpoint = env[DYNAMODB_ENDPOINT_VARIABLE] || undefined;
  if (endpoint !== undefined && !httpUrl(endpoint)) {
    throw notAllowed(DYNAMODB_ENDPOINT_VARIABLE, endpoint, 'an http(s) URL such as http://127.0.0.1:8000');
  }
  return { tables, settings, dynamodbEndpoint: endpoint } as unknown as FunctionConfiguration<F>;
}

/**
 * What the webhooks function is told of its one-time schedules (docs/design.md#webhooks): the schedule group they go
 * in, and the role EventBridge Scheduler takes to invoke the function. Wiring of the stack's, not settings.
 */
export const WEBHOOK_SCHEDULE_VARIABLES = {
  group: 'WEBHOOK_SCHEDULE_GROUP',
  roleArn: 'WEBHOOK_SCHEDULER_ROLE_ARN',
} as const;

/**
 * What a writer's function is told of the summaries' guards (docs/design.md#a-kill-timeline): the schedule group
 * they go in, the role EventBridge Scheduler takes, and the function a guard invokes (the expiry function, which
 * recovers the one vendor it is given). Wiring of the stack's, not settings; absent locally, where the server keeps
 * the guards on its own timers.
 */
export const SUMMARY_GUARD_VARIABLES = {
  group: 'SUMMARY_GUARD_GROUP',
  roleArn: 'SUMMARY_GUARD_ROLE_ARN',
  functionArn: 'SUMMARY_GUARD_FUNCTION_ARN',
} as const;

/**
 * What the feeds function is told of where its feeds go (docs/design.md#feeds): the bucket of their files, the base
 * of their URLs (the distribution's, or the custom domain for them), and the schedule group and role of the one-time
 * schedules that coalesce a vendor's changes into one build. Wiring of the stack's, not settings.
 */
export const FEED_VARIABLES = {
  bucket: 'FEED_BUCKET',
  base: 'FEED_BASE_URL',
  scheduleGroup: 'FEED_SCHEDULE_GROUP',
  roleArn: 'FEED_SCHEDULER_ROLE_ARN',
} as const;
