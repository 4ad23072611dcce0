import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedDynamoDB } from '../../lib/local/embedded-dynamodb';
import { buildEntryBundles, ENTRY_BUNDLES_VARIABLE } from '../entry-bundles';
import { SYNTH_URL_VARIABLE } from '../synth-server';

/**
 * Starts one embedded DynamoDB engine for the whole run, unless `DYNAMODB_ENDPOINT` already names one.
 * Test files reach it through that variable and create their own uniquely prefixed tables, so they run in
 * parallel without seeing each other's data.
 */
export default async function globalSetup(): Promise<void> {
  const given = process.env.DYNAMODB_ENDPOINT;
  // Whether the run started its engine: then a file may start one of its own for a heavy load (`ownEngine`).
  process.env.VVA_TEST_ENGINE = given ? 'given' : 'embedded';
  if (!given) {
    const engine = await startEmbeddedDynamoDB();
    process.env.DYNAMODB_ENDPOINT = engine.endpoint;
    (globalThis as { embeddedDynamoDB?: typeof engine }).embeddedDynamoDB = engine;
  }
  // Node's cache of compiled code, for every process the run starts (workers, npm start, the ops CLI): a CLI run costs
  // a fifth less CPU with it. Keyed by the sources: one for every run on the machine.
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'vva-node-compile-cache');
  // The ops CLI and the local server, bundled once for the processes the tests start (testkit/entry-bundles.ts).
  process.env[ENTRY_BUNDLES_VARIABLE] = await buildEntryBundles();
  // The run's synth process (testkit/synth-server.ts): the stack synthesized once per context, for every file. It
  // loads the CDK only when first asked; it ends when this process closes its standard input, or dies.
  const synth = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('../synth-server.ts', import.meta.url).pathname],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  process.env[SYNTH_URL_VARIABLE] = await new Promise<string>((resolve, reject) => {
    synth.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    synth.once('exit', (code) => reject(new Error(`the synth process exited (${code}) before it listened`)));
  });
  (globalThis as { synthProcess?: typeof synth }).synthProcess = synth;
  const description = given
    ? `DynamoDB at ${given}`
    : `embedded DynamoDB (dynalite) at ${process.env.DYNAMODB_ENDPOINT}`;
  process.stdout.write(`\nTests on Node.js ${process.version}, ${description}\n`);
}
