import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createDynamoDBClient } from '../../lambda/shared/dynamodb';
import { localTableNames, type TableNames } from '../create-tables';
import { STACK_OUTPUTS } from '../stack-outputs';

/** Where the ops CLI works, as the user asked for it. */
export interface TargetOptions {
  /** A local DynamoDB endpoint (the local server's, say); also read from `DYNAMODB_ENDPOINT`. */
  readonly endpoint?: string | undefined;
  /** A deployed stack whose outputs name the tables. */
  readonly stack?: string | undefined;
  readonly vacanciesTable?: string | undefined;
  readonly vendorsTable?: string | undefined;
  readonly region?: string | undefined;
}

/** The resolved target: clients and table names, and a description for messages. */
export interface Target {
  readonly client: DynamoDBClient;
  readonly documentClient: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly local: boolean;
  readonly description: string;
  close(): void;
}

/** A mistake of the user (bad argument, unknown vendor, missing table): reported as a message, no stack trace. */
export class UserError extends Error {
  override readonly name = 'UserError';
}

/** Table names from a stack's CloudFormation outputs. */
export async function tablesFromStack(
  cloudFormation: CloudFormationClient,
  stackName: string,
): Promise<TableNames> {
  let outputs: Record<string, string>;
  try {
    const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = Object.fromEntries(
      (Stacks[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]),
    );
  } catch (error) {
    if ((error as Error).name === 'ValidationError')
      throw new UserError(`Stack "${stackName}" does not exist in this account and region.`);
    throw error;
  }
  const vacancies = outputs[STACK_OUTPUTS.vacanciesTable];
  const vendors = outputs[STACK_OUTPUTS.vendorsTable];
  if (!vacancies || !vendors) {
    throw new UserError(
      `Stack "${stackName}" has no ${STACK_OUTPUTS.vacanciesTable}/${STACK_OUTPUTS.vendorsTable} outputs: is it a Vendor Vacancy API stack?`,
    );
  }
  return { vacancies, vendors };
}

/**
 * Resolves where to work: a local endpoint (given, or `DYNAMODB_ENDPOINT`) with the local table names unless
 * others are given; otherwise AWS through the default credential chain and region, with the table names
 * from `--stack`'s outputs or given explicitly.
 */
export async function resolveTarget(
  options: TargetOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Target> {
  const endpoint = options.endpoint ?? env.DYNAMODB_ENDPOINT;
  const explicit = options.vacanciesTable && options.vendorsTable;
  let tables: TableNames;
  let description: string;
  if (endpoint) {
    tables = {
      vacancies: options.vacanciesTable ?? localTableNames().vacancies,
      vendors: options.vendorsTable ?? localTableNames().vendors,
    };
    description = `local DynamoDB at ${endpoint}`;
  } else if (options.stack) {
    const cloudFormation = new CloudFormationClient(options.region ? { region: options.region } : {});
    try {
      tables = await tablesFromStack(cloudFormation, options.stack);
    } finally {
      cloudFormation.destroy();
    }
    description = `stack ${options.stack}`;
  } else if (explicit) {
    tables = { vacancies: options.vacanciesTable as string, vendors: options.vendorsTable as string };
    description = 'AWS';
  } else {
    throw new UserError(
      'No target: give --endpoint <url> (or DYNAMODB_ENDPOINT) for a local engine, --stack <name> for a deployed stack, or --vacancies-table and --vendors-table.',
    );
  }
  const client = createDynamoDBClient({ endpoint, maxAttempts: 8, region: options.region });
  return {
    client,
    documentClient: createDocumentClient(client),
    tables,
    local: Boolean(endpoint),
    description,
    close: () => client.destroy(),
  };
}
