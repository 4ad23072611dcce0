/**
 * The local API in a process of its own, as `npm start` runs it — one Node.js realm, like Lambda — for tests
 * that need the real thing: the fault matrix (errors from Node's sockets must reach the SDK as they do in
 * production, not across Jest's VM boundary) and the HTTP abuse test (the server must survive in its own
 * process). The child is `local-api-child.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { LocalApiOptions } from '../lib/local/local-api';
import { entryArguments } from './entry-bundles';

/** A local API running in a child process. */
export interface LocalApiProcess {
  readonly url: string;
  /** Its engine: the embedded one it started, or the one it was given. */
  readonly dynamodbEndpoint: string;
  readonly process: ChildProcess;
  /** Resolves once its background work is done (`LocalApi.idle`: webhooks, feeds' builds, summaries' guards). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How to ask a local server in a child process started with an IPC channel — this module's, or `npm start`'s — whether
 * its background work is done: `{ idle: n }`, answered `{ idle: n }` once it is (`LocalApi.idle`). The channel keeps
 * neither process alive (unreferenced here and there): only a question asked waits on it.
 */
export function askedIdle(child: ChildProcess): () => Promise<void> {
  let asked = 0;
  return () =>
    new Promise<void>((resolve, reject) => {
      asked += 1;
      const id = asked;
      const answered = (message: unknown) => {
        if ((message as { idle?: number }).idle !== id) return;
        child.off('message', answered);
        child.off('exit', exited);
        resolve();
      };
      const exited = () => reject(new Error('The local server exited before it was idle'));
      child.on('message', answered);
      child.once('exit', exited);
      child.send({ idle: id });
    });
}

/**
 * Starts the local API in a child process with these options, and `env` over this process's environment (a shortened
 * settle window, say: `VVA_SETTLE_MS`).
 */
export async function startLocalApiProcess(
  options: LocalApiOptions,
  env: Record<string, string> = {},
): Promise<LocalApiProcess> {
  const child = spawn(process.execPath, [...entryArguments('local-api-child'), JSON.stringify(options)], {
    // The IPC channel: the test asks it whether it is idle.
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT', ...env },
  });
  const { url, dynamodbEndpoint } = await new Promise<{ url: string; dynamodbEndpoint: string }>(
    (resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
        if (line) resolve(JSON.parse(line) as { url: string; dynamodbEndpoint: string });
      });
      child.once('exit', (code) => reject(new Error(`The local API exited (${code}) before listening`)));
    },
  );
  child.channel?.unref();
  return {
    url,
    dynamodbEndpoint,
    process: child,
    idle: askedIdle(child),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
