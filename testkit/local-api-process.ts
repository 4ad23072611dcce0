/**
 * The local API in a process of its own, as `npm start` runs it — one Node.js realm, like Lambda — for tests
 * that need the real thing: the fault matrix (errors from Node's sockets must reach the SDK as they do in
 * production, not across Jest's VM boundary) and the HTTP abuse test (the server must survive in its own
 * process). Run as a script, it takes the options as JSON and prints `{ url }` once listening.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { LocalApiOptions } from '../lib/local/local-api';

const SCRIPT = new URL(import.meta.url).pathname;

/** A local API running in a child process. */
export interface LocalApiProcess {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the local API in a child process with these options. */
export async function startLocalApiProcess(options: LocalApiOptions): Promise<LocalApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`The local API exited (${code}) before listening`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (process.argv[1] === SCRIPT) {
  const { startLocalApi } = await import('../lib/local/local-api');
  const api = await startLocalApi(JSON.parse(process.argv[2] ?? '{}') as LocalApiOptions);
  process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);
  process.once('SIGTERM', () => void api.stop().then(() => process.exit(0)));
}
