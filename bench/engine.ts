/**
 * The embedded DynamoDB in a process of its own, so that the benchmark's requests and the engine do not share a
 * CPU (as they would not with DynamoDB). Run as a script it prints its endpoint, then serves until killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { startEmbeddedDynamoDB } from '../lib/local/embedded-dynamodb';

/** Starts the engine in a child process. */
export async function startEngine(): Promise<{ endpoint: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`The engine exited (${code})`)));
  });
  return { endpoint, process: child };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const engine = await startEmbeddedDynamoDB();
  console.log(engine.endpoint);
}
