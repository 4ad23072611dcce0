/**
 * Memory of the local server under load: `npm start`'s own entry point in a process of its own, listing
 * requests from this one, the server's resident memory (RSS) read from /proc after a warm-up and after each
 * round. A server that keeps what it no longer needs grows round after round.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { round } from './stats';

export interface MemoryResult {
  requests_per_round: number;
  rss_after_warmup_mb: number;
  rss_after_rounds_mb: number[];
  growth_mb: number;
}

const SERVER = new URL('../bin/local-server.ts', import.meta.url).pathname;
const QUERIES = [
  'per_page=15',
  'per_page=15&page=2',
  'type=1&lang=en',
  'per_page=100',
  'experience_min=2&per_page=5',
];

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** A warm-up round, then `rounds` rounds of `requests` listing requests; RSS after each. */
export async function measureMemory(requests: number, rounds = 3): Promise<MemoryResult> {
  const server = spawn(process.execPath, ['--import', 'tsx', SERVER, '--port', '0', '--dynamodb-port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Metrics on, as `npm start` runs: the server collects them for its summary.
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'false' },
  });
  try {
    const listing = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Vendor Vacancy API: (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      server.once('exit', (code) => reject(new Error(`The local server exited (${code})`)));
    });
    server.stdout.resume();
    const headers = { Authorization: 'Bearer vvk_demo_pasha_bank_primary' };
    const load = async () => {
      for (let i = 0; i < requests; i += 1) {
        const response = await fetch(`${listing}?${QUERIES[i % QUERIES.length]}`, { headers });
        if (response.status !== 200) throw new Error(`The local server answered ${response.status}`);
        await response.arrayBuffer();
      }
    };
    const pid = server.pid as number;
    await load();
    const warm = await rssMb(pid);
    const after: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      process.stderr.write(`memory: round ${i + 1} of ${rounds} (${requests} requests)…\n`);
      await load();
      after.push(round(await rssMb(pid), 1));
    }
    return {
      requests_per_round: requests,
      rss_after_warmup_mb: round(warm, 1),
      rss_after_rounds_mb: after,
      growth_mb: round((after.at(-1) ?? warm) - warm, 1),
    };
  } finally {
    server.kill();
  }
}
