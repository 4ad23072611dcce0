import type { TableNames } from '../lambda/domain/schema/tables';
import { type FunctionName, SERVICE_NAME } from '../lambda/domain/service/limits';
import {
  DYNAMODB_ENDPOINT_VARIABLE,
  FUNCTION_ENVIRONMENTS,
  TABLE_VARIABLES,
} from '../lambda/domain/settings/environment';
import { FUNCTION_SETTINGS, type FunctionSettings } from '../lambda/domain/settings/function-settings';

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
 * local server and the benchmark configure a function (`lambda/domain/settings/environment.ts` declares what each takes and
 * reads it back). Table names may be CloudFormation tokens. `dynamodbEndpoint` only for a non-AWS engine.
 */
export function functionEnvironment(
  name: FunctionName,
  settings: FunctionSettings,
  tables: TableNames,
  dynamodbEndpoint?: string,
): Record<string, string> {
  const declared = FUNCTION_ENVIRONMENTS[name];
  const environment: Record<string, string> = { POWERTOOLS_SERVICE_NAME: SERVICE_NAME };
  for (const table of declared.tables) environment[TABLE_VARIABLES[table]] = tables[table];
  for (const setting of declared.settings) {
    const value = writeSetting(settings[setting]);
    // An empty value means the setting's default, as an absent one does: it is left out.
    if (value !== '') environment[FUNCTION_SETTINGS[setting].variable] = value;
  }
  if (dynamodbEndpoint) environment[DYNAMODB_ENDPOINT_VARIABLE] = dynamodbEndpoint;
  return environment;
}
