import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SERVICE_DEFAULTS } from '../../lambda/config/defaults';
import { createDocumentClient, createDynamoDBClient } from '../../lambda/dynamodb/client';
import type { TableNames } from '../../lambda/schema/tables';
import { type ZoneClock, zoneClock } from '../../lambda/time/zone-clock';
import { localTableNames } from '../create-tables';
import { settingsOfCdkJson } from '../settings';
import { type RateTiersOutput, STACK_OUTPUTS } from '../stack/outputs';
import { canonicalTimeZone } from '../time-zone';
import { ControlPlanePacer, type UsageKeyContext } from './usage-keys';

/** Where the ops CLI works, as the user asked for it. */
export interface TargetOptions {
  /** A local DynamoDB endpoint (the local server's, say); also read from `DYNAMODB_ENDPOINT`. */
  readonly endpoint?: string | undefined;
  /** A deployed stack whose outputs name the tables and the service time zone. */
  readonly stack?: string | undefined;
  readonly vacanciesTable?: string | undefined;
  readonly vendorsTable?: string | undefined;
  readonly region?: string | undefined;
  /** The service time zone of the target, when the target itself cannot tell. */
  readonly timeZone?: string | undefined;
}

/** The resolved target: clients, table names, the service time zone, and a description for messages. */
export interface Target {
  readonly client: DynamoDBClient;
  readonly documentClient: DynamoDBDocumentClient;
  readonly tables: TableNames;
  /** The clock of the target's service time zone; undefined when it is not known (explicit AWS tables). */
  readonly clock: ZoneClock | undefined;
  readonly local: boolean;
  readonly description: string;
  /** The rate tiers vendors can be on, and the one a new vendor gets. */
  readonly rateTiers: { readonly names: readonly string[]; readonly defaultTier: string };
  /** How to manage the vendors' API Gateway keys: only for a deployed stack (`--stack`). */
  readonly usageKeys?: UsageKeyContext;
  close(): void;
}

/** A mistake of the user (bad argument, unknown vendor, missing table): reported as a message, no stack trace. */
export class UserError extends Error {
  override readonly name = 'UserError';
}

/** What a deployed stack tells the ops CLI: its tables, service time zone and rate tiers (absent on older stacks). */
export interface StackDescription {
  readonly tables: TableNames;
  readonly timeZone?: string;
  readonly rateTiers?: RateTiersOutput;
}

/** Table names and service time zone from a stack's CloudFormation outputs. */
export async function describeStack(
  cloudFormation: CloudFormationClient,
  stackName: string,
): Promise<StackDescription> {
  let outputs: Map<string | undefined, string | undefined>;
  try {
    const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = new Map((Stacks[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
  } catch (error) {
    if ((error as Error).name === 'ValidationError')
      throw new UserError(`Stack "${stackName}" does not exist in this account and region.`);
    throw error;
  }
  const vacancies = outputs.get(STACK_OUTPUTS.vacanciesTable);
  const vendors = outputs.get(STACK_OUTPUTS.vendorsTable);
  if (!vacancies || !vendors) {
    throw new UserError(
      `Stack "${stackName}" has no ${STACK_OUTPUTS.vacanciesTable}/${STACK_OUTPUTS.vendorsTable} outputs: is it a Vendor Vacancy API stack?`,
    );
  }
  const timeZone = outputs.get(STACK_OUTPUTS.serviceTimeZone);
  const rateTiers = outputs.get(STACK_OUTPUTS.rateTiers);
  return {
    tables: { vacancies, vendors },
    ...(timeZone && { timeZone }),
    ...(rateTiers && { rateTiers: JSON.parse(rateTiers) as RateTiersOutput }),
  };
}

/** A time zone the user gave, checked and made canonical. */
function givenTimeZone(zone: string | undefined): string | undefined {
  if (zone === undefined) return undefined;
  const canonical = canonicalTimeZone(zone);
  if (!canonical) throw new UserError(`--time-zone "${zone}" is not an IANA time zone.`);
  return canonical;
}

/**
 * Resolves where to work, and in which service time zone `created_at` values without an offset are read:
 * - a local endpoint (given, or `DYNAMODB_ENDPOINT`): the local table names unless others are given, and the
 *   local server's zone (the service default) unless `--time-zone` says otherwise;
 * - `--stack`: the tables and the zone of the stack's outputs (a different `--time-zone` is an error);
 * - explicit table names in AWS: only the zone `--time-zone` gives — none otherwise, rather than a guess.
 */
export async function resolveTarget(
  options: TargetOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Target> {
  const endpoint = options.endpoint ?? env.DYNAMODB_ENDPOINT;
  const explicit = options.vacanciesTable && options.vendorsTable;
  const given = givenTimeZone(options.timeZone);
  let tables: TableNames;
  let timeZone: string | undefined;
  let description: string;
  let deployedTiers: RateTiersOutput | undefined;
  if (endpoint) {
    tables = {
      vacancies: options.vacanciesTable ?? localTableNames().vacancies,
      vendors: options.vendorsTable ?? localTableNames().vendors,
    };
    timeZone = given ?? SERVICE_DEFAULTS.timeZone;
    description = `local DynamoDB at ${endpoint}`;
  } else if (options.stack) {
    const cloudFormation = new CloudFormationClient(options.region ? { region: options.region } : {});
    let stack: StackDescription;
    try {
      stack = await describeStack(cloudFormation, options.stack);
    } finally {
      cloudFormation.destroy();
    }
    if (given && stack.timeZone && given !== stack.timeZone) {
      throw new UserError(
        `--time-zone ${given} contradicts the service time zone of stack ${options.stack}, ${stack.timeZone}.`,
      );
    }
    tables = stack.tables;
    timeZone = stack.timeZone ?? given;
    deployedTiers = stack.rateTiers;
    description = `stack ${options.stack}`;
  } else if (explicit) {
    tables = { vacancies: options.vacanciesTable as string, vendors: options.vendorsTable as string };
    timeZone = given;
    description = 'AWS';
  } else {
    throw new UserError(
      'No target: give --endpoint <url> (or DYNAMODB_ENDPOINT) for a local engine, --stack <name> for a deployed stack, or --vacancies-table and --vendors-table.',
    );
  }
  // Adaptive retries: a bulk import slows down when DynamoDB throttles, rather than failing.
  const client = createDynamoDBClient({
    endpoint,
    maxAttempts: 8,
    region: options.region,
    retryMode: 'adaptive',
  });
  const documentClient = createDocumentClient(client);
  // The deployment's tiers: the stack's own when deployed, else this project's settings (`cdk.json`).
  const settings = deployedTiers ? undefined : settingsOfCdkJson();
  const rateTiers = deployedTiers
    ? { names: Object.keys(deployedTiers.plans), defaultTier: deployedTiers.default }
    : { names: Object.keys(settings?.rateTiers ?? {}), defaultTier: settings?.defaultRateTier ?? '' };
  const apiGateway =
    deployedTiers && options.stack
      ? new APIGatewayClient({
          maxAttempts: 8,
          retryMode: 'adaptive',
          ...(options.region && { region: options.region }),
        })
      : undefined;
  return {
    client,
    documentClient,
    tables,
    clock: timeZone === undefined ? undefined : zoneClock(timeZone),
    local: Boolean(endpoint),
    description,
    rateTiers,
    ...(apiGateway &&
      deployedTiers && {
        usageKeys: {
          apiGateway,
          pacer: new ControlPlanePacer(),
          usagePlans: { stackName: options.stack as string, plans: deployedTiers.plans },
          documentClient,
          vendorsTable: tables.vendors,
        },
      }),
    close: () => {
      client.destroy();
      apiGateway?.destroy();
    },
  };
}
