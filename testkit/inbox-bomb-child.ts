/**
 * The inbox on a gzip bomb in a process of its own, so that its memory can be measured (docs/design.md#hostile-files):
 * run as a script with `{ folder, unit, bytes }` as JSON, it writes the bomb to `<folder>/incoming/bomb.ndjson.gz`,
 * hands it to the inbox's code (`handleInboxKey` on the folder, as `npm start -- --inbox` does), and prints
 * `{ report, seconds, maxRssBytes, bombBytes }`: the file's report, the time to it, and the process's peak resident
 * memory. A refusal reads no database: the client points nowhere.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileReport } from '../lambda/functions/inbox/report';
import type { GzipBomb } from './gzip-bomb';

const SCRIPT = new URL(import.meta.url).pathname;

/** What the child measured. */
export interface BombRun {
  readonly report: FileReport;
  readonly seconds: number;
  readonly maxRssBytes: number;
  /** The bomb's size on disk. */
  readonly bombBytes: number;
}

/** Runs the inbox on a bomb in a child process with at most `heapMiB` of JavaScript heap. */
export function runBombChild(folder: string, bomb: GzipBomb, heapMiB: number): Promise<BombRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${heapMiB}`, '--import', 'tsx', SCRIPT, JSON.stringify({ folder, ...bomb })],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{"report"'));
      if (code === 0 && line) resolve(JSON.parse(line) as BombRun);
      else reject(new Error(`The inbox's process died (${code ?? signal}): ${stderr.slice(-2_000)}`));
    });
  });
}

if (process.argv[1] === SCRIPT) {
  const { folder, unit, bytes } = JSON.parse(process.argv[2] ?? '{}') as { folder: string } & GzipBomb;
  const { writeGzipBomb } = await import('./gzip-bomb');
  const { handleInboxKey } = await import('../lambda/functions/inbox/inbox');
  const { folderObjects } = await import('../lib/local/inbox-folder');
  const { createDocumentClient } = await import('../lambda/platform/dynamodb/document-client');
  const { createDynamoDBClient } = await import('../lambda/platform/dynamodb/client');
  const { localTableNames } = await import('../lib/create-tables');
  const { zoneClock } = await import('../lambda/platform/time/zone-clock');
  await mkdir(join(folder, 'incoming'), { recursive: true });
  const bombBytes = await writeGzipBomb(join(folder, 'incoming', 'bomb.ndjson.gz'), { unit, bytes });
  const started = performance.now();
  const outcome = await handleInboxKey(
    {
      objects: folderObjects(folder),
      client: createDocumentClient(createDynamoDBClient({ endpoint: 'http://127.0.0.1:9' })),
      tables: localTableNames('nowhere-'),
      clock: zoneClock('Asia/Baku'),
      maxClosePercent: 20,
    },
    'incoming/bomb.ndjson.gz',
  );
  const report = 'handled' in outcome ? outcome.handled : undefined;
  process.stdout.write(
    `${JSON.stringify({
      report,
      seconds: Math.round(performance.now() - started) / 1000,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      bombBytes,
    })}\n`,
  );
}
