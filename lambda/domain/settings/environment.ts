/**
 * What each function receives in its environment (docs/design.md#configuration): the tables it works on, the
 * settings whose row in the table names it (`settings.ts`), and a non-AWS DynamoDB endpoint where there is one. The
 * stack, the local server and the benchmark write the environment here (`functionEnvironment`); each function reads
 * and checks it here too, at cold start, with the settings' own checks (`functionConfiguration`).
 */

import type { TableNames } from '../schema/tables';
import { type FunctionName, SERVICE_NAME } from '../service/limits';
import { httpUrl } from './checks';
import {
  checkSetting,
  FUNCTION_SETTINGS,
  type FunctionSettingName,
  type FunctionSettings,
  notAllowed,
  type SettingDefinition,
  type SettingsOf,
  settingsOf,
} from './settings';

/** A function's environment variables. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The variable that names each table. */
export const TABLE_VARIABLES = {
  vacancies: 'VACANCIES_TABLE',
  vendors: 'VENDORS_TABLE',
} as const satisfies Record<keyof TableNames, string>;

/** A non-AWS DynamoDB endpoint (the local server's engine, DynamoDB Local); AWS when unset. */
export const DYNAMODB_ENDPOINT_VARIABLE = 'DYNAMODB_ENDPOINT';

/** The tables each function works on. */
export const FUNCTION_TABLES = {
  authorizer: ['vendors'],
  listing: ['vacancies', 'vendors'],
  mcp: ['vacancies', 'vendors'],
  expiry: ['vacancies', 'vendors'],
  inbox: ['vacancies', 'vendors'],
  webhooks: ['vacancies', 'vendors'],
  feeds: ['vacancies', 'vendors'],
} as const satisfies Record<FunctionName, readonly (keyof TableNames)[]>;

/** What a function reads from its environment. */
export interface FunctionConfiguration<F extends FunctionName> {
  readonly tables: { readonly [T in (typeof FUNCTION_TABLES)[F][number]]: string };
  readonly settings: Pick<FunctionSettings, SettingsOf<F>>;
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
  const tables: Record<string, string> = {};
  for (const table of FUNCTION_TABLES[name] as readonly (keyof TableNames)[]) {
    const variable = TABLE_VARIABLES[table];
    const value = env[variable];
    if (!value) throw notAllowed(variable, value ?? null, 'the name of a table');
    tables[table] = value;
  }
  const settings: Record<string, unknown> = {};
  for (const setting of settingsOf(name) as FunctionSettingName[]) {
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

/** How a setting's value is written into its environment variable; the setting's check reads it back. */
export function writeSetting(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

/**
 * The environment of one function, from the deployment's settings and its tables: the one way the stack, the
 * local server and the benchmark configure a function (`functionConfiguration` reads it back). Table names may be
 * CloudFormation tokens. `dynamodbEndpoint` only for a non-AWS engine.
 */
export function functionEnvironment(
  name: FunctionName,
  settings: FunctionSettings,
  tables: TableNames,
  dynamodbEndpoint?: string,
): Record<string, string> {
  const environment: Record<string, string> = { POWERTOOLS_SERVICE_NAME: SERVICE_NAME };
  for (const table of FUNCTION_TABLES[name] as readonly (keyof TableNames)[]) {
    environment[TABLE_VARIABLES[table]] = tables[table];
  }
  for (const setting of settingsOf(name) as FunctionSettingName[]) {
    const value = writeSetting(settings[setting]);
    // An empty value means the setting's default, as an absent one does: it is left out.
    if (value !== '') environment[FUNCTION_SETTINGS[setting].variable] = value;
  }
  if (dynamodbEndpoint) environment[DYNAMODB_ENDPOINT_VARIABLE] = dynamodbEndpoint;
  return environment;
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
