/**
 * `npm start` as a developer runs it — `bin/local-server.ts` in a process of its own (from the run's bundle of it,
 * `testkit/entry-bundles.ts`), on free ports — for tests of what it prints: its banner, its request log, what it says
 * when stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { entryArguments } from './entry-bundles';
import { askedIdle } from './local-api-process';

const ROOT = new URL('../', import.meta.url).pathname;

/** A running `npm start`. */
export interface NpmStart {
  readonly process: ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** What it printed up to the end of its banner. */
  readonly banner: string;
  /** Everything it printed to standard output so far. */
  stdout(): string;
  /** Everything it printed to standard error so far. */
  stderr(): string;
  /** Everything it printed to standard output, once `ready` holds of it (a line printed after an answer, say). */
  printed(ready: (stdout: string) => boolean): Promise<string>;
  /** Resolves once its background work is done (`LocalApi.idle`: webhooks, feeds' builds, summaries' guards). */
  idle(): Promise<void>;
  /** Sends the signal and waits for the exit and the end of its output; resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A `npm start` launched, its banner not necessarily printed yet. */
export interface LaunchedNpmStart extends Omit<NpmStart, 'url' | 'banner'> {
  /** What it printed up to the end of its banner, once printed; rejects if it exits before. */
  readonly banner: Promise<string>;
}

/**
 * Launches `npm start -- <args>` (ports chosen freely unless the arguments name them) and returns at once, before it
 * listens: for a test of what it does while it starts.
 */
export function launchNpmStart(
  args: readonly string[] = [],
  env: Record<string, string> = {},
): LaunchedNpmStart {
  const ports = args.includes('--port') ? [] : ['--port', '0'];
  const engine =
    args.includes('--dynamodb-port') || args.includes('--dynamodb-endpoint') ? [] : ['--dynamodb-port', '0'];
  const child = spawn(process.execPath, [...entryArguments('local-server'), ...args, ...ports, ...engine], {
    cwd: ROOT,
    // The IPC channel: the test asks it whether it is idle.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // 'close', not 'exit': the process has exited and its output has ended, so what it printed last has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const banner = new Promise<string>((resolve, reject) => {
    const check = () => {
      if (/Ctrl-C to stop.*\n\n/.test(stdout)) resolve(stdout);
    };
    child.stdout?.on('data', check);
    void exited.then((code) => reject(new Error(`npm start exited (${code}): ${stdout}${stderr}`)));
  });
  // A test that stops it before its banner does not wait for one.
  banner.catch(() => undefined);
  child.channel?.unref();
  return {
    process: child,
    banner,
    stdout: () => stdout,
    stderr: () => stderr,
    printed: (ready) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (!ready(stdout)) return;
          child.stdout?.off('data', check);
          resolve(stdout);
        };
        child.stdout?.on('data', check);
        check();
        void exited.then(() =>
          reject(new Error(`npm start exited before printing what was awaited: ${stdout}`)),
        );
      }),
    idle: askedIdle(child),
    stop: async (signal = 'SIGINT') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Starts `npm start -- <args>` (ports chosen freely unless the arguments name them), and waits for its banner. */
export async function startNpmStart(
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<NpmStart> {
  const launched = launchNpmStart(args, env);
  const banner = await launched.banner;
  const url = /Vendor Vacancy API: (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] ?? '';
  return { ...launched, url, banner };
}
