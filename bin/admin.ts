#!/usr/bin/env -S node --import tsx
/**
 * `npm run admin -- <command>` / `npx vacancy-admin <command>`: vendors, API keys and vacancy imports, against
 * the local engine or a deployed stack. `--help` on any command says more.
 */
import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { issueApiKey, listApiKeys, revokeApiKey } from '../lambda/auth/key-store';
import type { VendorStatus } from '../lambda/auth/types';
import { getVendor, listVendors, putVendor, setVendorStatus } from '../lambda/auth/vendor-store';
import { isTimeZone } from '../lambda/shared/time';
import { isVendorId, VENDOR_ID_RULE } from '../lambda/shared/vendor-id';
import type { VacancyStatus } from '../lambda/vacancies/types';
import { createTables } from '../lib/create-tables';
import { importVacancies, parseImportFile } from '../lib/ops/import';
import { progressBar } from '../lib/ops/progress';
import { resolveTarget, type Target, type TargetOptions, UserError } from '../lib/ops/target';
import { deleteVacancy, setVacancyStatus } from '../lib/ops/vacancies';

/** The global options, and each command's own (commander merges them). */
interface Options extends TargetOptions {
  readonly json?: boolean;
  readonly timeZone: string;
  readonly company?: string;
  readonly label?: string;
  readonly dryRun?: boolean;
  readonly vendor?: string;
}

/** What a command prints: the data (for `--json`) and the lines for people. */
interface Outcome {
  readonly data: unknown;
  readonly text: string | readonly string[];
  /** Non-zero when the command did not fully succeed (rejected records, nothing found). */
  readonly exitCode?: number;
}

const program = new Command('vacancy-admin')
  .description(
    'Operate the Vendor Vacancy API: vendors, API keys and vacancies, on a local engine or in AWS.',
  )
  .option(
    '--endpoint <url>',
    "local DynamoDB endpoint, e.g. the local server's http://127.0.0.1:8000 (default: $DYNAMODB_ENDPOINT)",
  )
  .option(
    '--stack <name>',
    'deployed stack whose outputs name the tables (AWS credentials and region from the default chain)',
  )
  .option('--vacancies-table <name>', 'vacancies table name, instead of --stack')
  .option('--vendors-table <name>', 'vendors table name, instead of --stack')
  .option('--region <region>', 'AWS region (default: from the environment or profile)')
  .addOption(
    new Option('--time-zone <zone>', 'service time zone of local created_at values')
      .default('Asia/Baku')
      .env('SERVICE_TIMEZONE'),
  )
  .option('--json', 'print JSON, for scripts')
  .showHelpAfterError();

/** Runs a command against the resolved target and prints its outcome; user errors become one line, exit 1. */
function action<A extends unknown[]>(
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

/** One line for any failure: no stack trace for what the user can fix. */
function describeError(error: unknown, target: Target | undefined): string {
  if (!(error instanceof Error)) return String(error);
  const where = target ? ` (${target.description})` : '';
  switch (error.name) {
    case 'UserError':
      return error.message;
    case 'ResourceNotFoundException':
      return `a table does not exist${where}: create the local tables with "tables create", or deploy the stack.`;
    case 'CredentialsProviderError':
      return 'no AWS credentials found: configure a profile or environment credentials, or use --endpoint for a local engine.';
    default:
      return `${error.message}${where}`;
  }
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('Not a positive integer.');
  return Number(value);
};
const vendorId = (value: string) => {
  if (!isVendorId(value)) throw new InvalidArgumentError(`Not a vendor id: ${VENDOR_ID_RULE}.`);
  return value;
};
const vacancyStatus = (value: string) => {
  if (!['active', 'inactive', 'draft', 'closed'].includes(value)) {
    throw new InvalidArgumentError('One of active, inactive, draft, closed.');
  }
  return value as VacancyStatus;
};

async function requireVendor(target: Target, id: string) {
  const vendor = await getVendor(target.documentClient, target.tables.vendors, id);
  if (!vendor)
    throw new UserError(`vendor "${id}" does not exist (create it with "vendor put ${id} --company …").`);
  return vendor;
}

const vendor = program.command('vendor').description('create, rename, suspend, activate and list vendors');
vendor
  .command('put')
  .description('create a vendor, or rename it (its status is kept)')
  .requiredOption('--company <name>', 'company name, returned as "company" by the API')
  .argument('<id>', 'vendor id', vendorId)
  .action(
    action(async (target, options, id: string) => {
      const company = options.company?.trim();
      if (!company) throw new UserError('--company must not be empty.');
      const saved = await putVendor(target.documentClient, target.tables.vendors, { vendorId: id, company });
      return { data: saved, text: `vendor ${saved.vendorId} "${saved.company}" (${saved.status})` };
    }),
  );

for (const [name, status, effect] of [
  ['suspend', 'suspended', 'its keys get 403 until it is activated again'],
  ['activate', 'active', 'its live keys work again'],
] as const) {
  vendor
    .command(`${name} <id>`)
    .description(`${name} a vendor: ${effect} (after the authorizer cache, 300 s by default)`)
    .action(
      action(async (target, _options, id: string) => {
        const changed = await setVendorStatus(
          target.documentClient,
          target.tables.vendors,
          id,
          status as VendorStatus,
        );
        if (!changed) throw new UserError(`vendor "${id}" does not exist.`);
        return { data: { vendorId: id, status }, text: `vendor ${id} is now ${status}` };
      }),
    );
}

vendor
  .command('list')
  .description('list every vendor')
  .action(
    action(async (target) => {
      const vendors = await listVendors(target.documentClient, target.tables.vendors);
      const lines = vendors.map((v) => `${v.vendorId.padEnd(24)} ${v.status.padEnd(10)} ${v.company}`);
      return { data: vendors, text: lines.length > 0 ? lines : 'no vendors' };
    }),
  );

const key = program
  .command('key')
  .description(
    'issue, list and revoke API keys; rotate by issuing a new key, moving clients, then revoking the old one',
  );
key
  .command('issue <vendorId>')
  .description('issue a new key for a vendor; the key is shown once, only its hash is stored')
  .option('--label <label>', 'what the key is for, e.g. "career page"', 'default')
  .action(
    action(async (target, options, id: string) => {
      await requireVendor(target, id);
      const label = options.label ?? 'default';
      const issued = await issueApiKey(target.documentClient, target.tables.vendors, id, label);
      if (!issued) throw new UserError(`vendor "${id}" does not exist.`);
      return {
        data: issued,
        text: [
          `key ${issued.keyId} issued for ${id} (${label}):`,
          '',
          `  ${issued.apiKey}`,
          '',
          'Store it now: it cannot be shown again.',
        ],
      };
    }),
  );

key
  .command('list <vendorId>')
  .description("list a vendor's keys (ids, labels, dates; never the keys)")
  .action(
    action(async (target, _options, id: string) => {
      await requireVendor(target, id);
      const keys = await listApiKeys(target.documentClient, target.tables.vendors, id);
      const lines = keys.map(
        (k) =>
          `${k.keyId}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'live'.padEnd(32)}  created ${k.createdAt}  ${k.label}`,
      );
      return { data: keys, text: lines.length > 0 ? lines : `vendor ${id} has no keys` };
    }),
  );

key
  .command('revoke <keyId>')
  .description('revoke a key by its id; refused within the authorizer cache time (300 s by default)')
  .action(
    action(async (target, _options, keyId: string) => {
      const outcome = await revokeApiKey(target.documentClient, target.tables.vendors, keyId);
      if ('notFound' in outcome) throw new UserError(`key "${keyId}" does not exist.`);
      if ('alreadyRevoked' in outcome) {
        return {
          data: outcome.alreadyRevoked,
          text: `key ${keyId} was already revoked (${outcome.alreadyRevoked.revokedAt})`,
        };
      }
      return { data: outcome.revoked, text: `key ${keyId} of ${outcome.revoked.vendorId} revoked` };
    }),
  );

const vacancies = program
  .command('vacancies')
  .description('import vacancies, change their status, delete them');
vacancies
  .command('import <file>')
  .description(
    'import NDJSON (one record a line) or a JSON array; every record checked, valid ones upserted by id',
  )
  .option('--dry-run', 'check only; write nothing')
  .action(
    action(async (target, options, file: string) => {
      const dryRun = options.dryRun ?? false;
      if (!isTimeZone(options.timeZone))
        throw new UserError(`--time-zone "${options.timeZone}" is not a time zone.`);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        throw new UserError(`cannot read ${file}.`);
      }
      let sources: ReturnType<typeof parseImportFile>;
      try {
        sources = parseImportFile(text);
      } catch (error) {
        throw new UserError((error as Error).message);
      }
      const bar = !options.json && process.stderr.isTTY ? progressBar(process.stderr) : undefined;
      const report = await importVacancies(target.documentClient, target.tables, sources, {
        timeZone: options.timeZone,
        dryRun,
        ...(bar && { onProgress: bar.update }),
      });
      bar?.done();
      const verb = dryRun ? 'would import' : 'imported';
      return {
        data: report,
        text: [
          ...report.rejected.map((r) => `line ${r.line}: ${r.reasons.join('; ')}`),
          `${verb} ${report.imported}, rejected ${report.rejected.length}, unchanged ${report.unchanged}`,
        ],
        exitCode: report.rejected.length > 0 ? 1 : 0,
      };
    }),
  );

vacancies
  .command('set-status')
  .description('change the status of a vacancy; any status but active takes it out of the listing')
  .argument('<id>', 'vacancy id', integer)
  .argument('<status>', 'active, inactive, draft or closed', vacancyStatus)
  .option('--vendor <vendorId>', "the vacancy's vendor: one read instead of a scan for the id")
  .action(
    action(async (target, options, id: number, status: VacancyStatus) => {
      const changed = await setVacancyStatus(
        target.documentClient,
        target.tables.vacancies,
        id,
        status,
        options.vendor,
      );
      if (!changed) throw new UserError(`vacancy ${id} does not exist.`);
      return {
        data: { id, vendorId: changed.vendorId, status },
        text: `vacancy ${id} of ${changed.vendorId} is now ${status}`,
      };
    }),
  );

vacancies
  .command('delete')
  .description('delete a vacancy')
  .argument('<id>', 'vacancy id', integer)
  .option('--vendor <vendorId>', "the vacancy's vendor: one read instead of a scan for the id")
  .action(
    action(async (target, options, id: number) => {
      const deleted = await deleteVacancy(target.documentClient, target.tables.vacancies, id, options.vendor);
      if (!deleted) throw new UserError(`vacancy ${id} does not exist.`);
      return {
        data: { id, vendorId: deleted.vendorId, deleted: true },
        text: `vacancy ${id} of ${deleted.vendorId} deleted`,
      };
    }),
  );

program
  .command('tables')
  .description('manage the tables of a local engine')
  .command('create')
  .description('create the tables (from lib/tables.ts) on the local endpoint; idempotent')
  .action(
    action(async (target) => {
      if (!target.local)
        throw new UserError(
          'tables are created by "cdk deploy" in AWS; "tables create" is for a local --endpoint.',
        );
      await createTables(target.client, target.tables);
      return { data: target.tables, text: `tables ready: ${Object.values(target.tables).join(', ')}` };
    }),
  );

await program.parseAsync();
