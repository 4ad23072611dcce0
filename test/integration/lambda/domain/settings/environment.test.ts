/**
 * One configuration path (docs/operating.md#settings): the settings a function takes are written into its
 * environment one way — by the stack, the local server and the benchmark alike — and read back at cold start with
 * the very checks the synth applies.
 */
import { describe, expect, it } from '@jest/globals';
import { FUNCTION_NAMES as FUNCTIONS, type FunctionName } from '../../../../../lambda/domain/service/limits';
import {
  FEED_VARIABLES,
  FUNCTION_TABLES,
  functionConfiguration,
  functionEnvironment,
  SUMMARY_GUARD_VARIABLES,
  WEBHOOK_SCHEDULE_VARIABLES,
  writeSetting,
} from '../../../../../lambda/domain/settings/environment';
import { SettingError } from '../../../../../lambda/domain/settings/errors';
import {
  FUNCTION_SETTINGS,
  type FunctionSettingName,
  settingsOf,
} from '../../../../../lambda/domain/settings/settings';
import { localEnvironments } from '../../../../../lib/local/local-api';
import { readSettings, type ServiceSettings } from '../../../../../lib/settings';
import { sharedStackTemplate } from '../../../../../testkit/synth-server';

/** A value other than the default for every setting a function takes, as `-c name=value` gives it. */
const CONTEXT: Record<FunctionSettingName, string> = {
  defaultLocale: 'en',
  serviceTimeZone: 'America/New_York',
  defaultPerPage: '5',
  publicBaseUrl: 'https://jobs.example.com/api',
  rateTiers: '{"basic":{"rate":3,"burst":6},"partner":{"rate":8,"burst":16}}',
  snapshotMaxClose: '35',
  jobCountry: 'GE',
  salaryCurrency: 'USD',
  salaryPeriod: 'YEAR',
  webhookRetrySchedule: '1,2,3',
};
const SETTINGS: ServiceSettings = readSettings((key) =>
  key === 'defaultRateTier' ? 'basic' : (CONTEXT as Record<string, string>)[key],
);
const TABLES = { vacancies: 'Vacancies-x', vendors: 'Vendors-y' };

/** Invalid values of each function setting. */
const INVALID: Record<FunctionSettingName, string[]> = {
  defaultLocale: ['fr', 'EN', ''],
  serviceTimeZone: ['Mars/Olympus', '+04:00', 'UTC+4'],
  defaultPerPage: ['0', '101', '1.5', 'ten'],
  publicBaseUrl: ['ftp://x', 'https://x.example/?q=1', 'https://x.example/#a', 'not a url'],
  rateTiers: ['{}', '{"Gold":{"rate":1,"burst":1}}', '{"gold":{"rate":0,"burst":1}}', 'not json'],
  snapshotMaxClose: ['-1', '101', '2.5', 'all'],
  jobCountry: ['az', 'AZE', 'A', ''],
  salaryCurrency: ['azn', 'AZ', 'MANAT'],
  salaryPeriod: ['month', 'FORTNIGHT', ''],
  webhookRetrySchedule: ['', '0,5', '5,,5', '1.5', '86401', '[5,"a"]', Array(21).fill('1').join(',')],
};

describe('the configuration path', () => {
  it('gives every setting a function takes back, as it was set, after a round trip through the environment', () => {
    for (const setting of Object.keys(CONTEXT) as FunctionSettingName[]) {
      expect(SETTINGS[setting]).not.toEqual(FUNCTION_SETTINGS[setting].default);
    }
    for (const name of FUNCTIONS) {
      const configuration = functionConfiguration(
        name,
        functionEnvironment(name, SETTINGS, TABLES, 'http://127.0.0.1:9'),
      );
      const declared: { tables: readonly string[]; settings: readonly FunctionSettingName[] } = {
        tables: FUNCTION_TABLES[name],
        settings: settingsOf(name),
      };
      expect(configuration.settings).toEqual(
        Object.fromEntries(declared.settings.map((setting) => [setting, SETTINGS[setting]])),
      );
      expect(configuration.tables).toEqual(
        Object.fromEntries(declared.tables.map((table) => [table, TABLES[table as keyof typeof TABLES]])),
      );
      expect(configuration.dynamodbEndpoint).toBe('http://127.0.0.1:9');
    }
  });

  it('gives every setting of FUNCTION_SETTINGS to some function: none is read nowhere', () => {
    const taken = new Set(FUNCTIONS.flatMap((name) => [...settingsOf(name)]));
    expect([...taken].sort()).toEqual(Object.keys(FUNCTION_SETTINGS).sort());
  });

  it.each(Object.entries(INVALID).flatMap(([setting, values]) => values.map((value) => [setting, value])))(
    'refuses %s = %p with the same rule at synth and at cold start, in one line',
    (setting, value) => {
      const definition = FUNCTION_SETTINGS[setting as FunctionSettingName];
      const allowed = `is not allowed: ${definition.allowed}`;
      // At synth: `cdk deploy -c`. The time zone's rule says, there, that any case will do.
      expect(() => readSettings((key) => (key === setting ? value : undefined))).toThrow(SettingError);
      expect(() => readSettings((key) => (key === setting ? value : undefined))).toThrow(
        `${setting} = ${JSON.stringify(value)} ${allowed}`,
      );
      // At cold start, on the environment a function received.
      const name = FUNCTIONS.find((fn) =>
        (settingsOf(fn) as readonly string[]).includes(setting),
      ) as FunctionName;
      const environment = { ...functionEnvironment(name, SETTINGS, TABLES), [definition.variable]: value };
      // An empty value is an absent one (the default) where the setting allows empty.
      if (value === '' && definition.check('') !== undefined) return;
      expect(() => functionConfiguration(name, environment)).toThrow(
        new SettingError(
          `${definition.variable} (setting ${setting}) = ${JSON.stringify(value)} ${allowed}.`,
        ),
      );
    },
  );

  it('deploys each function with the environment the local server gives it, for every setting', async () => {
    const template = await sharedStackTemplate({
      ...CONTEXT,
      defaultRateTier: 'basic',
      throttlingRateLimit: '50',
    });
    const deployed = template.findResources('AWS::Lambda::Function');
    const local = localEnvironments(SETTINGS, TABLES, 'http://127.0.0.1:9', 'http://127.0.0.1:3000');
    for (const name of FUNCTIONS) {
      const [resource] = Object.entries(deployed).filter(([id]) =>
        id.startsWith(`Functions${name[0]?.toUpperCase()}${name.slice(1)}Function`),
      );
      const variables = { ...(resource?.[1].Properties.Environment.Variables as Record<string, unknown>) };
      const mine = { ...local[name] };
      // What differs by design: where the tables and the engine are, the links' base, the metrics switch (the
      // monitoring profile's, a deployment's alone: docs/operating.md#monitoring-profiles), and the webhooks' and
      // the summaries' guards' schedules and the feeds' bucket, base and schedules (on AWS only: the local server keeps
      // its timers in its process, and its feeds in a folder).
      for (const environment of [variables, mine] as Record<string, unknown>[]) {
        for (const variable of [
          'VACANCIES_TABLE',
          'VENDORS_TABLE',
          'DYNAMODB_ENDPOINT',
          'PUBLIC_BASE_URL',
          'POWERTOOLS_METRICS_DISABLED',
          ...Object.values(WEBHOOK_SCHEDULE_VARIABLES),
          ...Object.values(SUMMARY_GUARD_VARIABLES),
          ...Object.values(FEED_VARIABLES),
        ]) {
          delete environment[variable];
        }
      }
      expect([name, variables]).toEqual([name, mine]);
      // And the deployed one carries each of its settings, with the value set.
      for (const setting of settingsOf(name) as readonly FunctionSettingName[]) {
        const { variable } = FUNCTION_SETTINGS[setting];
        const value = resource?.[1].Properties.Environment.Variables[variable];
        expect([setting, variable === 'RATE_TIERS' ? JSON.parse(value) : value]).toEqual([
          setting,
          variable === 'RATE_TIERS' ? SETTINGS.rateTiers : writeSetting(SETTINGS[setting]),
        ]);
      }
    }
  });
});
