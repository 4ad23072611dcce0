/**
 * The ops CLI (`bin/admin.ts`) run as an operator runs it, in a process of its own, for the tests: from the run's
 * bundle of it (`testkit/entry-bundles.ts`).
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import type { TableNames } from '../lambda/domain/schema/tables';
import { entryArguments } from './entry-bundles';

/** What a run printed, and its exit code. */
export interface AdminRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `vacancy-admin <args>` with `env` over this process's environment — without the test run's
 * `DYNAMODB_ENDPOINT`, so that only the arguments name the target. Resolves whatever the exit code.
 */
export function runAdmin(args: readonly string[], env: Record<string, string> = {}): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...entryArguments('admin'), ...args],
      { env: { ...process.env, DYNAMODB_ENDPOINT: '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** Starts `vacancy-admin <args>` as `runAdmin` runs it, for a test that talks to it while it runs (a signal, say). */
export function startAdmin(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...entryArguments('admin'), ...args], {
    env: { ...process.env, DYNAMODB_ENDPOINT: '' },
  });
}

/** Like `runAdmin`, but rejects with what the CLI said when it fails; resolves with what it printed. */
export async function admin(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const run = await runAdmin(args, env);
  if (run.code !== 0) throw new Error(`vacancy-admin ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** The global options that point the CLI at an engine and at tables of its: what every test that runs it gives. */
export const cliTarget = (endpoint: string, tables: TableNames): string[] => [
  '--endpoint',
  endpoint,
  '--vacancies-table',
  tables.vacancies,
  '--vendors-table',
  tables.vendors,
];
