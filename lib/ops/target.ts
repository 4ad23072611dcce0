import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FeedFiles } from '../../lambda/domain/feed-registry/feed-files';
import type { TableNames } from '../../lambda/domain/schema/tables';
import type { Locale } from '../../lambda/domain/schema/vacancy';
import { httpUrl } from '../../lambda/domain/settings/checks';
import { DYNAMODB_ENDPOINT_VARIABLE } from '../../lambda/domain/settings/environment';
import type { SummaryGuardTimer } from '../../lambda/domain/store/summary-guard';
import { scheduledSummaryGuards } from '../../lambda/domain/store/summary-guard-schedules';
import { s3FeedFiles } from '../../lambda/functions/feeds/s3-feed-files';
import type { BuildFeedsEvent } from '../../lambda/functions/feeds/schedules';
import { awsFailure } from '../../lambda/platform/aws/failure';
import { createDynamoDBClient } from '../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../lambda/platform/dynamodb/document-client';
import { type ZoneClock, zoneClock } from '../../lambda/platform/time/zone-clock';
import { localTableNames } from '../create-tables';
import { type LocalDeployment, readLocalDeployment } from '../deployment/local-deployment';
import { type RateTiersOutput, STACK_OUTPUTS, type SummaryGuardsOutput } from '../deployment/stack-outputs';
import { folderFeedFiles } from '../feed-folder';
import { settingsOfCdkJson } from '../settings';
import { canonicalTimeZone } from '../time-zone';
import { UsageError, UserError } from './errors';
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

/**
 * Where a deployment's feeds are (docs/operating.md#feeds): the base of their URLs, and their files where the CLI can
 * delete a removed feed's (the local server's folder; on AWS, with the stack that keeps them) — or, when it has none,
 * why, in words for the one-line error.
 */
export type FeedHosting =
  | { readonly base: string; readonly files?: FeedFiles }
  | { readonly missing: string };

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
  /**
   * Wakes the webhook dispatch for a vendor (after `webhook enable`): on a deployed stack, an asynchronous invocation
   * of its webhooks function; locally the engine's writes wake it already.
   */
  readonly wakeWebhooks?: (vendorId: string) => Promise<void>;
  /**
   * Asks for a vendor's feeds to be built now (after `feed add`, and a change of the vendor alone): on a deployed
   * stack, an asynchronous invocation of its feeds function; locally the server's feed runner sees the write already.
   */
  readonly buildFeeds?: (vendorId: string) => Promise<void>;
  /** The deployed API's base URL, from the stack's outputs (`--stack`); unknown for any other target. */
  readonly apiUrl?: string;
  /**
   * The base of the URLs the deployment hands out for its API (a public agent endpoint's): the stack's `ApiUrl`, or
   * the address the local server recorded in its tables; unknown when neither is.
   */
  readonly publicBase?: string;
  /** The deployment's default language (`defaultLocale`): a feed's unless `feed add --lang` says. */
  readonly defaultLocale: Locale;
  /** The deployment's `jobCountry`: in the EU, an import warns of a listable vacancy without pay. */
  readonly jobCountry: string;
  readonly feeds: FeedHosting;

  /**
   * The timer of the guards of the summary leases its writers take (docs/design.md#a-kill-timeline): on a deployed
   * stack, one-time schedules that run the stack's recovery should the CLI be killed; locally the server arms them.
   */
  readonly summaryGuard?: SummaryGuardTimer;
  close(): void;
}

/** What a deployed stack tells the ops CLI: its tables, service time zone and rate tiers (absent on older stacks). */
export interface StackDescription {
  readonly tables: TableNames;
  /** The webhooks function's ARN (absent on stacks from before webhooks). */
  readonly webhookFunction?: string;
  readonly timeZone?: string;
  readonly rateTiers?: RateTiersOutput;
  /** The base URL clients use (output `ApiUrl`: the custom domain when there is one), without a trailing slash. */
  readonly apiUrl?: string;
  /** The base of its feeds' URLs (output `FeedBaseUrl`), without a trailing slash; absent on a stack without feeds. */
  readonly feedBase?: string;
  /** The bucket of its feeds' files (output `FeedBucket`): `feed remove` deletes a feed's there. */
  readonly feedBucket?: string;
  /** The feeds function's ARN (output `FeedFunctionArn`; absent on stacks from before it). */
  readonly feedFunction?: string;

  /** Where the summaries' guards go (absent on stacks from before them). */
  readonly summaryGuards?: SummaryGuardsOutput;
}

/** Where a region came from, for the messages that depend on it. */
export interface Region {
  readonly name: string;
  /** True when nothing configured one and the CDK's own default was taken. */
  readonly defaulted: boolean;
}

/** The region the CDK deploys to when nothing configures one (it says so in `cdk deploy --verbose`). */
export const CDK_DEFAULT_REGION = 'us-east-1';

/**
 * The AWS region, found as the CDK finds it for `cdk deploy`: `--region`, then the environment (`AWS_REGION`,
 * `AMAZON_REGION`, `AWS_DEFAULT_REGION`, `AMAZON_DEFAULT_REGION`), then the profile's; so the CLI looks where the
 * stack was deployed. Without any, a stack is looked for where the CDK would have put it (`us-east-1`); explicit
 * tables need a region given.
 */
export async function resolveRegion(
  options: TargetOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Region> {
  const configured =
    options.region ||
    env.AWS_REGION ||
    env.AMAZON_REGION ||
    env.AWS_DEFAULT_REGION ||
    env.AMAZON_DEFAULT_REGION ||
    (await profileRegion());
  if (configured) return { name: configured, defaulted: false };
  if (options.stack) return { name: CDK_DEFAULT_REGION, defaulted: true };
  throw new UsageError(
    'no AWS region: give --region <region>, or set AWS_REGION (or a region in your AWS profile).',
  );
}

/** The region of the AWS profile in use, as the SDK reads it; undefined when it names none. */
async function profileRegion(): Promise<string | undefined> {
  const probe = new CloudFormationClient({});
  try {
    return await probe.config.region();
  } catch {
    return undefined;
  } finally {
    probe.destroy();
  }
}

/**
 * A failure to connect to AWS at all (no answer: the name did not resolve, the connection was refused or cut) as one
 * line naming the region tried and how to choose another — the usual cause is no region, or the wrong one, configured;
 * undefined for any other failure.
 */
export function unreachable(error: unknown, region: Region): UserError | undefined {
  const { code } = error as { code?: unknown };
  if (
    awsFailure(error) !== 'unavailable' ||
    typeof code !== 'string' ||
    (error as object) === null ||
    '$fault' in (error as object)
  ) {
    return undefined;
  }
  return new UserError(
    region.defaulted
      ? `cannot reach AWS in ${region.name} (${code}); no region is configured, so the CDK's default was tried.`
      : `cannot reach AWS in ${region.name} (${code}).`,
    'give --region <region>, or set AWS_REGION, with the region the stack was deployed to; check the network.',
  );
}

/** Table names, service time zone and rate tiers from a stack's CloudFormation outputs. */
export async function describeStack(
  cloudFormation: CloudFormationClient,
  stackName: string,
  region?: Region,
): Promise<StackDescription> {
  let outputs: Map<string | undefined, string | undefined>;
  try {
    const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = new Map((Stacks[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
  } catch (error) {
    // DescribeStacks of one stack by name refuses only a stack that is not there.
    if (awsFailure(error) !== 'refused') throw error;
    const where = region ?? { name: await cloudFormation.config.region(), defaulted: false };
    throw new UserError(
      `Stack "${stackName}" does not exist in ${where.name}${where.defaulted ? ' (no region is configured: the CDK deploys there)' : ''}.`,
      'give --region (or set AWS_REGION) with the region the stack was deployed to.',
    );
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
  const webhookFunction = outputs.get(STACK_OUTPUTS.webhookFunction);
  const apiUrl = outputs.get(STACK_OUTPUTS.apiUrl)?.replace(/\/+$/, '');
  const feedBase = outputs.get(STACK_OUTPUTS.feedBaseUrl)?.replace(/\/+$/, '');
  const feedBucket = outputs.get(STACK_OUTPUTS.feedBucket);
  const feedFunction = outputs.get(STACK_OUTPUTS.feedFunction);

  const summaryGuards = outputs.get(STACK_OUTPUTS.summaryGuards);
  return {
    tables: { vacancies, vendors },
    ...(apiUrl && { apiUrl }),
    ...(feedBase && { feedBase }),
    ...(feedBucket && { feedBucket }),
    ...(feedFunction && { feedFunction }),
    ...(webhookFunction && { webhookFunction }),
    ...(timeZone && { timeZone }),
    ...(rateTiers && { rateTiers: JSON.parse(rateTiers) as RateTiersOutput }),
    ...(summaryGuards && { summaryGuards: JSON.parse(summaryGuards) as SummaryGuardsOutput }),
  };
}

/** A time zone the user gave, checked and made canonical. */
function givenTimeZone(zone: string | undefined): string | undefined {
  // An empty SERVICE_TIMEZONE is an unset one.
  if (zone === undefined || zone === '') return undefined;
  const canonical = canonicalTimeZone(zone);
  if (!canonical) throw new UsageError(`--time-zone "${zone}" is not an IANA time zone, such as Asia/Baku.`);
  return canonical;
}

/** A DynamoDB client for the CLI: adaptive retries, so a bulk import slows down when DynamoDB throttles. */
/** What `npm start` answers any request it has no route for: its error envelope, with its request id. */
async function isTheLocalApi(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/vendor/vacancies', endpoint), {
      method: 'POST',
      signal: AbortSignal.timeout(2_000),
    });
    const body = (await response.json()) as { status?: unknown };
    return response.headers.has('x-request-id') && body.status === 'error';
  } catch {
    return false;
  }
}

/**
 * The two easy mistakes with a local engine, said as such (docs/operating.md#the-ops-cli): nothing listens at the
 * endpoint (the server is not running, or the port is wrong), or the endpoint is `npm start`'s API port rather than
 * its engine's. Undefined for any other failure.
 */
async function localEngineMistake(endpoint: string, error: unknown): Promise<UserError | undefined> {
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.code;
  const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code;
  if (code === 'ECONNREFUSED' || causeCode === 'ECONNREFUSED')
    return new UserError(
      `nothing answers at ${endpoint}.`,
      'is npm start running? Its DynamoDB port is the one its banner shows on the "DynamoDB (embedded):" line (8000 unless --dynamodb-port says otherwise).',
    );
  if (await isTheLocalApi(endpoint))
    return new UserError(
      `${endpoint} is the local API's port, not its DynamoDB engine's.`,
      'use the address on the "DynamoDB (embedded):" line of npm start\'s banner (8000 unless --dynamodb-port says otherwise).',
    );
  return undefined;
}

const cliDynamoDBClient = (endpoint: string | undefined, region: string | undefined) =>
  createDynamoDBClient({ endpoint, maxAttempts: 8, region, retryMode: 'adaptive' });

/**
 * Resolves where to work, and in which service time zone `created_at` values without an offset are read:
 * - a local endpoint (given, or `DYNAMODB_ENDPOINT`): the local table names unless others are given, and the
 *   settings the local server recorded in them (`lib/deployment/local-deployment.ts`), or `cdk.json`'s when no server
 *   has run on them; `--time-zone` overrides the zone;
 * - `--stack`: the tables and the zone of the stack's outputs (a different `--time-zone` is an error), in the
 *   region the CDK would have deployed it to;
 * - explicit table names in AWS: only the zone `--time-zone` gives — none otherwise, rather than a guess.
 */
export async function resolveTarget(
  options: TargetOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Target> {
  const given = givenTimeZone(options.timeZone);
  const endpoint = options.endpoint ?? (env[DYNAMODB_ENDPOINT_VARIABLE] || undefined);
  if (endpoint) {
    if (!httpUrl(endpoint)) {
      throw new UsageError(
        `${options.endpoint ? '--endpoint' : DYNAMODB_ENDPOINT_VARIABLE} must be an http(s) URL such as http://127.0.0.1:8000, not "${endpoint}".`,
      );
    }
    const tables = {
      vacancies: options.vacanciesTable ?? localTableNames().vacancies,
      vendors: options.vendorsTable ?? localTableNames().vendors,
    };
    const client = cliDynamoDBClient(endpoint, undefined);
    const documentClient = createDocumentClient(client);
    let recorded: Awaited<ReturnType<typeof readLocalDeployment>>;
    try {
      recorded = await readLocalDeployment(documentClient, tables.vendors);
    } catch (error) {
      // No tables yet (`tables create` is about to make them): no server has recorded anything.
      if (awsFailure(error) !== 'not-found') {
        client.destroy();
        throw (await localEngineMistake(endpoint, error)) ?? error;
      }
    }
    const local = recorded ?? settingsOfCdkJson();
    return {
      defaultLocale: local.defaultLocale ?? settingsOfCdkJson().defaultLocale,
      jobCountry: local.jobCountry ?? settingsOfCdkJson().jobCountry,
      feeds: localFeeds(recorded, endpoint),
      // The server's own address is its API's base, as its feeds' (public agent endpoints' URLs).
      ...(recorded?.feeds && { publicBase: recorded.feeds.base }),
      client,
      documentClient,
      tables,
      clock: zoneClock(given ?? local.serviceTimeZone),
      local: true,
      description: `local DynamoDB at ${endpoint}`,
      rateTiers: { names: Object.keys(local.rateTiers), defaultTier: local.defaultRateTier },
      close: () => client.destroy(),
    };
  }

  if (!options.stack && !(options.vacanciesTable && options.vendorsTable)) {
    throw new UsageError(
      'no target: give --endpoint <url> (or DYNAMODB_ENDPOINT) for a local engine, --stack <name> for a deployed stack, or --vacancies-table and --vendors-table.',
    );
  }
  const region = await resolveRegion(options, env);
  let tables: TableNames;
  let timeZone: string | undefined;
  let deployedTiers: RateTiersOutput | undefined;
  let webhookFunction: string | undefined;
  let apiUrl: string | undefined;
  let feedBase: string | undefined;
  let feedBucket: string | undefined;
  let feedFunction: string | undefined;

  let summaryGuards: SummaryGuardsOutput | undefined;
  if (options.stack) {
    const cloudFormation = new CloudFormationClient({ region: region.name });
    let stack: StackDescription;
    try {
      stack = await describeStack(cloudFormation, options.stack, region);
    } catch (error) {
      throw unreachable(error, region) ?? error;
    } finally {
      cloudFormation.destroy();
    }
    if (given && stack.timeZone && given !== stack.timeZone) {
      throw new UsageError(
        `--time-zone ${given} contradicts the service time zone of stack ${options.stack}, ${stack.timeZone}.`,
      );
    }
    ({
      tables,
      rateTiers: deployedTiers,
      webhookFunction,
      apiUrl,
      feedBase,
      feedBucket,
      feedFunction,
      summaryGuards,
    } = stack);
    timeZone = stack.timeZone ?? given;
  } else {
    tables = { vacancies: options.vacanciesTable as string, vendors: options.vendorsTable as string };
    timeZone = given;
  }
  const client = cliDynamoDBClient(undefined, region.name);
  const documentClient = createDocumentClient(client);
  // The deployment's tiers: the stack's own when deployed, else this project's settings (`cdk.json`).
  const tiers = deployedTiers
    ? { names: Object.keys(deployedTiers.plans), defaultTier: deployedTiers.default }
    : (({ rateTiers, defaultRateTier }) => ({ names: Object.keys(rateTiers), defaultTier: defaultRateTier }))(
        settingsOfCdkJson(),
      );
  const apiGateway =
    deployedTiers && options.stack
      ? new APIGatewayClient({ maxAttempts: 8, retryMode: 'adaptive', region: region.name })
      : undefined;
  const scheduler = summaryGuards ? new SchedulerClient({ region: region.name }) : undefined;
  // The feeds' files, where the stack keeps them: a removed feed's are deleted there.
  const s3 = feedBucket ? new S3Client({ region: region.name }) : undefined;
  return {
    client,
    documentClient,
    tables,
    clock: timeZone === undefined ? undefined : zoneClock(timeZone),
    local: false,
    description: options.stack ? `stack ${options.stack} in ${region.name}` : `AWS, ${region.name}`,
    rateTiers: tiers,
    defaultLocale: settingsOfCdkJson().defaultLocale,
    jobCountry: settingsOfCdkJson().jobCountry,
    feeds: feedBase
      ? { base: feedBase, ...(s3 && feedBucket && { files: s3FeedFiles(s3, feedBucket) }) }
      : {
          missing: options.stack
            ? `stack ${options.stack} has no ${STACK_OUTPUTS.feedBaseUrl} output: it serves no feeds (deploy a version that does)`
            : `feed URLs need the deployment's feed base: give --stack <name>, whose ${STACK_OUTPUTS.feedBaseUrl} output names it`,
        },
    ...(apiUrl && { apiUrl, publicBase: apiUrl }),
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
    ...(scheduler &&
      summaryGuards && { summaryGuard: scheduledSummaryGuards({ client: scheduler, ...summaryGuards }) }),
    ...(webhookFunction && {
      wakeWebhooks: (vendorId: string) => invokeAsync(region.name, webhookFunction, { vendorId }),
    }),
    ...(feedFunction && {
      buildFeeds: (vendorId: string) =>
        invokeAsync(region.name, feedFunction, { build: vendorId } satisfies BuildFeedsEvent),
    }),
    close: () => {
      client.destroy();
      apiGateway?.destroy();
      scheduler?.destroy();
      s3?.destroy();
    },
  };
}

/** Invokes a deployed function asynchronously (Lambda queues the event and returns at once). */
async function invokeAsync(region: string, functionArn: string, payload: unknown): Promise<void> {
  const lambda = new LambdaClient({ region });
  try {
    await lambda.send(
      new InvokeCommand({
        FunctionName: functionArn,
        InvocationType: 'Event',
        Payload: JSON.stringify(payload),
      }),
    );
  } finally {
    lambda.destroy();
  }
}

/** The local server's feeds, as it recorded them, or why the CLI cannot know them. */
function localFeeds(recorded: LocalDeployment | undefined, endpoint: string): FeedHosting {
  if (!recorded?.feeds)
    return {
      missing: `no local server has recorded where it serves feeds in these tables (local DynamoDB at ${endpoint}): start npm start on them, or restart it`,
    };
  return { base: recorded.feeds.base, files: folderFeedFiles(recorded.feeds.folder) };
}

/** Whether a stack exists (and has not been deleted) in the region of a CloudFormation client. */
export async function stackExists(cloudFormation: CloudFormationClient, stackName: string): Promise<boolean> {
  try {
    const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    return Stacks.some((stack) => stack.StackStatus !== 'DELETE_COMPLETE');
  } catch (error) {
    // DescribeStacks of one stack by name refuses only a stack that is not there.
    if (awsFailure(error) === 'refused') return false;
    throw error;
  }
}
