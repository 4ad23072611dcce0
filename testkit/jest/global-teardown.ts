import type { ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import type { EmbeddedDynamoDB } from '../../lib/local/embedded-dynamodb';
import { ENTRY_BUNDLES_VARIABLE, removeEntryBundles } from '../entry-bundles';

export default async function globalTeardown(): Promise<void> {
  const synth = (globalThis as { synthProcess?: ChildProcess }).synthProcess;
  // The run's own processes — Jest's parent (the engine, the reporters) and the synth process — beside the test files'
  // lines (node-environment.js).
  const log = process.env.VVA_TEST_CPU;
  if (log) {
    const { user, system } = process.cpuUsage();
    const lines = [{ file: 'jest parent process', cpuMs: Math.round((user + system) / 1000) }];
    try {
      const fields = readFileSync(`/proc/${synth?.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      lines.push({ file: 'synth process', cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // No /proc, or no synth process.
    }
    appendFileSync(log, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  }
  if (synth && synth.exitCode === null) {
    const exited = new Promise((resolve) => synth.once('exit', resolve));
    synth.stdin?.end();
    await exited;
  }
  await (globalThis as { embeddedDynamoDB?: EmbeddedDynamoDB }).embeddedDynamoDB?.stop();
  const bundles = process.env[ENTRY_BUNDLES_VARIABLE];
  if (bundles) removeEntryBundles(bundles);
}
