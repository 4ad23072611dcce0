/**
 * The ops CLI's frame: global options, how a command runs against its target, and how it reports — one line
 * for any error, never a stack trace or a raw DynamoDB message. Each command group adds itself to the program.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isDatabaseUnavailable } from '../../../lambda/dynamodb/errors';
import { isVendorId, VENDOR_ID_RULE } from '../../../lambda/schema/vendors';
import { resolveTarget, type Target, type TargetOptions } from '../target';

/** The global options, and each command's own (commander merges them). */
export interface Options extends TargetOptions {
  readonly json?: boolean;
  readonly company?: string;
  readonly label?: string;
  readonly dryRun?: boolean;
  readonly vendor?: string;
  readonly tier?: string;
}

/** What a command prints: the data (for `--json`) and the lines for people. */
export interface Outcome {
  readonly data: unknown;
  readonly text: string | readonly string[];
  /** Non-zero when the command did not fully succeed (rejected records, an interrupted import). */
  readonly exitCode?: number;
}

/** One line for any failure: no stack trace for what the user can fix, no raw message from AWS. */
export function describeError(error: unknown, target: Target | undefined): string {
  if (!(error instanceof Error)) return String(error);
  const where = target ? ` (${target.description})` : '';
  if (error.name === 'UserError') return error.message;
  if (error.name === 'ResourceNotFoundException') {
    return `a table does not exist${where}: create the local tables with "tables create", or deploy the stack.`;
  }
  if (error.name === 'CredentialsProviderError') {
    return 'no AWS credentials found: configure a profile or environment credentials, or use --endpoint for a local engine.';
  }
  if ('code' in error && typeof error.code === 'string')
    return `cannot reach DynamoDB${where} (${error.code}).`;
  if (isDatabaseUnavailable(error)) {
    return `DynamoDB is throttling or unavailable${where} (${error.name}): try again.`;
  }
  if ('$fault' in error) return `DynamoDB refused the request${where} (${error.name}).`;
  return `unexpected error${where}: ${error.name}.`;
}

/** Runs a command against the resolved target and prints its outcome; errors become one line, exit 1. */
export function action<A extends unknown[]>(
  run: (target: Target, options: Options, ...args: A) => Promise<Outcome>,
) {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const options = command.optsWithGlobals<Options>();
    let target: Target | undefined;
    try {
      target = await resolveTarget(options);
      const outcome = await run(target, options, ...(args.slice(0, -2) as A));
      console.log(options.json ? JSON.stringify(outcome.data, null, 2) : [outcome.text].flat().join('\n'));
      process.exitCode = outcome.exitCode ?? 0;
    } catch (error) {
      console.error(`error: ${describeError(error, target)}`);
      process.exitCode = 1;
    } finally {
      target?.close();
    }
  };
}

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
  oneOf<T extends string>(values: readonly T[]) {
    return (value: string): T => {
      if (!(values as readonly string[]).includes(value))
        throw new InvalidArgumentError(`One of ${values.join(', ')}.`);
      return value as T;
    };
  },
};

/** The program with its global options; command groups are added by `bin/admin.ts`. */
export function createProgram(): Command {
  return new Command('vacancy-admin')
    .description(
      'Operate the Vendor Vacancy API: vendors, API keys and vacancies, on a local engine or in AWS.',
    )
    .option(
      '--endpoint <url>',
      "local DynamoDB endpoint, e.g. the local server's http://127.0.0.1:8000 (default: $DYNAMODB_ENDPOINT)",
    )
    .option(
      '--stack <name>',
      'deployed stack whose outputs name the tables and the service time zone (AWS credentials and region from the default chain)',
    )
    .option('--vacancies-table <name>', 'vacancies table name, instead of --stack')
    .option('--vendors-table <name>', 'vendors table name, instead of --stack')
    .option('--region <region>', 'AWS region (default: from the environment or profile)')
    .addOption(
      new Option(
        '--time-zone <zone>',
        "service time zone of created_at values without an offset (default: the stack's, or the local server's; required with explicit table names)",
      ).env('SERVICE_TIMEZONE'),
    )
    .option('--json', 'print JSON, for scripts')
    .showHelpAfterError();
}
