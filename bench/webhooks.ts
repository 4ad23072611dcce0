/**
 * Webhooks on the local server: the time from a write to the receiver's 2xx of its event (p50, p95), and what the
 * dispatch read and wrote per event delivered — every wake-up counted, those that found nothing settled yet too.
 * Measured in a process of its own (`webhook-latency.ts`).
 */
import { spawn } from 'node:child_process';
import { percentile, round } from './stats';

export interface WebhookResult {
  events: number;
  p50_ms: number;
  p95_ms: number;
  read_units_per_event: number;
  write_units_per_event: number;
}

const SCRIPT = new URL('./webhook-latency.ts', import.meta.url).pathname;

export async function measureWebhooks(events: number): Promise<WebhookResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, String(events)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'WARN' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = output.split('\n').find((text) => text.startsWith('{"events"'));
  if (code !== 0 || !line) throw new Error(`The webhook benchmark failed (${code}): ${output}`);
  const measured = JSON.parse(line) as {
    events: number;
    latencies_ms: number[];
    read_units: number;
    write_units: number;
  };
  return {
    events: measured.events,
    p50_ms: round(percentile(measured.latencies_ms, 50)),
    p95_ms: round(percentile(measured.latencies_ms, 95)),
    read_units_per_event: round(measured.read_units / measured.events, 1),
    write_units_per_event: round(measured.write_units / measured.events, 1),
  };
}
