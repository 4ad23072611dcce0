/**
 * The ops CLI's frame: global options, how a command runs against its target, and how it reports — one line
 * for any error, never a stack trace or a raw DynamoDB message. Each command group adds itself to the program.
 */
import { APIGatewayServiceException } from '@aws-sdk/client-api-gateway';
import { CloudFormationServiceException } from '@aws-sdk/client-cloudformation';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isVendorId, VENDOR_ID_RULE } from '../../../lambda/domain/schema/vendors';
import { httpUrl } from '../../../lambda/domain/settings/checks';
import { FUNCTION_SETTINGS } from '../../../lambda/domain/settings/settings';
import { awsFailure } from '../../../lambda/platform/aws/failure';
import { UserError } from '../errors';
import { resolveTarget, type Target, type TargetOptions } from '../target';

/** The global options, and each command's own (commander merges them). */
export interface Options extends TargetOptions {
  readonly json?: boolean;
  readonly company?: string;
  readonly label?: string;
  readonly dryRun?: boolean;
  readonly vendor?: string;
  readonly tier?: string;
  /** `vendor put --website --logo`: absolute https URLs, or "" to remove. */
  readonly website?: string;
  readonly logo?: string;
  /** `key issue --publishable --origin …` (the origins as given, repeated). */
  readonly publishable?: boolean;
  readonly origin?: string[];
  readonly force?: boolean;
  /** `vacancies purge --before`: a date or an instant, as given (checked by its parser). */
  readonly before?: string;
  /** `vacancies import --snapshot`, and its closing limit (`--max-close`, percent). */
  readonly snapshot?: boolean;
  readonly maxClose?: number;
  /** `webhook add --url`. */
  readonly url?: string;
  /** `feed add --format --lang`, checked by their parsers. */
  readonly format?: string;
  readonly lang?: string;
}

/** What a command prints: the data (for `--json`) and the lines for people. */
export interface Outcome {
  readonly data: unknown;
  readonly text: string | readonly string[];
  /** Non-zero when the command did not fully succeed (rejected records, an interrupted import). */
  readonly exitCode?: number;
}

/** Where a command works, as its messages name it. */
export interface Place {
  readonly description: string;
  /** A local engine, rather than AWS. */
  readonly local?: boolean;
  close(): void;
}

/** The AWS service an error came from, by its SDK exception type; the target's engine otherwise. */
function serviceOf(error: Error, target: Place | undefined): string {
  if (error instanceof APIGatewayServiceException) return 'API Gateway';
  if (error instanceof CloudFormationServiceException) return 'CloudFormation';
  if (error instanceof DynamoDBServiceException || target?.local) return 'DynamoDB';
  return 'AWS';
}

/** What to print for a failure: one line, and at most one hint line. */
export interface ErrorReport {
  readonly message: string;
  readonly hint?: string;
  /** 2 for a command not given as it must be, 1 otherwise. */
  readonly exitCode: number;
}

/**
 * One line for any failure, from what it is (`UserError`, or what `awsFailure` makes of an AWS error): no stack
 * trace, no raw message from AWS.
 */
export function describeError(error: unknown, target: Place | undefined): ErrorReport {
  if (error instanceof UserError) {
    return { message: error.message, ...(error.hint && { hint: error.hint }), exitCode: error.exitCode };
  }
  if (!(error instanceof Error)) return { message: 'unexpected error.', exitCode: 1 };
  const where = target ? ` (${target.description})` : '';
  const service = serviceOf(error, target);
  const { code } = error as { code?: unknown };
  const message = (() => {
    switch (awsFailure(error)) {
      case 'not-found':
        return `a table does not exist${where}: create the local tables with "tables create", or deploy the stack.`;
      case 'no-credentials':
        return 'no AWS credentials found: configure a profile or environment credentials, or use --endpoint for a local engine.';
      case 'denied':
        return `${service} refused these credentials${where} (${error.name}): they may not do this, or have expired.`;
      case 'unavailable':
        return typeof code === 'string' && !('$fault' in error)
          ? `cannot reach ${service}${where} (${code}).`
          : `${service} is throttling or unavailable${where} (${error.name}): try again.`;
      case 'refused':
      case 'condition-failed':
        return `${service} refused the request${where} (${error.name}).`;
      default:
        return `unexpected error${where}: ${error.name}.`;
    }
  })();
  return { message, exitCode: 1 };
}

/** Prints an error report to stderr. */
function printError({ message, hint }: ErrorReport): void {
  console.error(`error: ${message}`);
  if (hint) console.error(`hint: ${hint}`);
}

/**
 * Runs a command where `resolve` says — its target, or for some commands only the AWS control plane — and prints
 * its outcome; errors become one line (and a hint), with their exit code.
 */
export function placedAction<P extends Place, A extends unknown[]>(
  resolve: (options: Options) => Promise<P>,
  run: (place: P, options: Options, ...args: A) => Promise<Outcome>,
) {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const options = command.optsWithGlobals<Options>();
    let place: P | undefined;
    try {
      place = await resolve(options);
      const outcome = await run(place, options, ...(args.slice(0, -2) as A));
      console.log(options.json ? JSON.stringify(outcome.data, null, 2) : [outcome.text].flat().join('\n'));
      process.exitCode = outcome.exitCode ?? 0;
    } catch (error) {
      const report = describeError(error, place);
      printError(report);
      process.exitCode = report.exitCode;
    } finally {
      place?.close();
    }
  };
}

/** Runs a command against the resolved target (`resolveTarget`) and prints its outcome. */
export const action = <A extends unknown[]>(
  run: (target: Target, options: Options, ...args: A) => Promise<Outcome>,
) => placedAction(resolveTarget, run);

/** Argument parsers: a bad value is commander's one-line error, before anything runs. */
export const parse = {
  integer(value: string): number {
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1)
      throw new InvalidArgumentError(`Not an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`);
    return Number(value);
  },
  vendorId(value: string): string {
    if (!isVendorId(value)) throw new InvalidArgumentError(`Not a vendor id: ${VENDOR_ID_RULE}.`);
    return value;
  },
  percent(value: string): number {
    if (!/^\d+$/.test(value) || Number(value) > 100)
      throw new InvalidArgumentError('Not a whole percent from 0 to 100.');
    return Number(value);
  },
  endpoint(value: string): string {
    if (!httpUrl(value)) throw new InvalidArgumentError('Not an http(s) URL such as http://127.0.0.1:8000.');
    return value;
  },
  oneOf<T extends string>(values: readonly T[]) {
    return (value: string): T => {
      if (!(values as readonly string[]).includes(value))
        throw new InvalidArgumentError(`One of ${values.join(', ')}.`);
      return value as T;
    };
  },
};

/** How commander's own errors (an unknown option, a bad argument) read: one line, one hint, exit code 2. */
const USAGE_HINT = 'add --help to the command for its usage.';

/**
 * Commander's error as the CLI says it: its first line, with the command it suggests for a misspelt one (commander
 * puts "(Did you mean list?)" on a line of its own), and the hint.
 */
export function usageError(text: string): string {
  const [first = '', ...rest] = text.trim().split('\n');
  const suggestion = rest.find((line) => /^\(Did you mean /.test(line.trim()));
  return `${first}${suggestion ? ` ${suggestion.trim().replace('(Did', '(did')}` : ''}\nhint: ${USAGE_HINT}\n`;
}

/**
 * A word operators try that is no command here (`vacancies close`): a hidden command that says, in one line with
 * exit code 2, which command does it — before any target is resolved.
 */
export function pointTo(group: Command, word: string, instead: string): void {
  group
    .command(word, { hidden: true })
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[arguments...]')
    .action(() => {
      console.error(`error: there is no "${group.name()} ${word}": ${instead}.\nhint: ${USAGE_HINT}`);
      process.exitCode = 2;
    });
}

/**
 * The program with its global options; command groups are added by `bin/admin.ts`, which runs it with
 * `runProgram`. A usage error is commander's one line and a hint, never the whole usage.
 */
export function createProgram(): Command {
  return new Command('vacancy-admin')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(usageError(text)),
    })
    .description(
      'Operate the Vendor Vacancy API: vendors, API keys and vacancies, on a local engine or in AWS.',
    )
    .option(
      '--endpoint <url>',
      "local DynamoDB endpoint, e.g. the local server's http://127.0.0.1:8000 (default: $DYNAMODB_ENDPOINT)",
      parse.endpoint,
    )
    .option(
      '--stack <name>',
      'deployed stack whose outputs name the tables and the service time zone (AWS credentials and region from the default chain)',
    )
    .option('--vacancies-table <name>', 'vacancies table name, instead of --stack')
    .option('--vendors-table <name>', 'vendors table name, instead of --stack')
    .option(
      '--region <region>',
      "AWS region (default: AWS_REGION, AWS_DEFAULT_REGION or the profile's, as the CDK finds it; for --stack, else us-east-1 as the CDK deploys there)",
    )
    .addOption(
      new Option(
        '--time-zone <zone>',
        "service time zone of created_at values without an offset (default: the stack's, or the local server's; required with explicit table names)",
      ).env(FUNCTION_SETTINGS.serviceTimeZone.variable),
    )
    .option('--json', 'print JSON, for scripts');
}

/** Runs the program on the process's arguments; commander's usage errors end with exit code 2, help with 0. */
export async function runProgram(program: Command, argv = process.argv): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  }
}
