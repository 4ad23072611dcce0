/**
 * A webhook dispatch that dies holding an endpoint (docs/design.md#a-kill-timeline), on the embedded engine: the
 * guard its lease left, on the timers that outlive it (the one-time schedules on AWS, the test's here), wakes the
 * endpoint once the lease has run out, with no new change; a wake-up that finds the endpoint held leaves one too.
 * The event is sent again with the same `webhook-id`. Leases shortened to a fraction of a second.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import type { WebhookEndpoint } from '../../../../../lambda/domain/webhook-registry/endpoint';
import { EndpointStore } from '../../../../../lambda/domain/webhook-registry/endpoint-store';
import type { AttemptResult } from '../../../../../lambda/functions/webhooks/delivery';
import { createDispatcher, type Dispatcher } from '../../../../../lambda/functions/webhooks/dispatcher';
import { addEndpoint, listEndpoints } from '../../../../../lib/ops/webhooks';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

const CHILD = new URL('../../../../../testkit/dispatch-child.ts', import.meta.url).pathname;
const ROOT = new URL('../../../../../', import.meta.url).pathname;
/** The clocks are this far ahead of the index's settle window: every change written is settled. */
const AHEAD_MS = 10_000;
const LEASE_MS = 400;
const clock = () => Date.now() + AHEAD_MS;

/** What a test waits for, failing with `what` after `ms` (a bound far above what the wait needs). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]);
}

describe('a webhook dispatch that dies holding an endpoint', () => {
  let tables: TestTables;
  let nextId = 50_000;
  /** The timers that outlive a dispatch: what EventBridge Scheduler is on AWS. */
  const timers = new Set<NodeJS.Timeout>();
  /** The dispatches they started (done before the tables go). */
  const started = new Set<Promise<unknown>>();

  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => {
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(started);
    await tables?.drop();
  });

  /** The scheduler's timer: runs `dispatcher`'s wake-up of the endpoint at `at`. */
  function schedule(dispatcher: () => Dispatcher, endpointId: string, at: number, woken: number[]) {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        woken.push(at);
        const run = dispatcher()
          .dispatchEndpoint(endpointId)
          .catch(() => undefined);
        started.add(run);
      },
      Math.max(0, at - clock()),
    );
    timers.add(timer);
  }

  /** A dispatcher on the engine; `deliver` is its receiver; its timers and guards are the scheduler's. */
  function dispatcherOf(
    deliver: (headers: Record<string, string>) => Promise<AttemptResult>,
    survivor: () => Dispatcher,
    woken: number[],
  ): Dispatcher {
    const wake = async (endpoint: Pick<WebhookEndpoint, 'endpointId'>, at: number) =>
      schedule(survivor, endpoint.endpointId, at, woken);
    return createDispatcher({
      endpoints: new EndpointStore(tables.documentClient, tables.names.vendors),
      changes: createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      }),
      deliver: (_url, headers) => deliver(headers),
      wakeAt: wake,
      guard: wake,
      onDisabled: () => undefined,
      retrySchedule: [1],
      apiBaseUrl: 'https://api.example',
      now: clock,
      leaseMs: LEASE_MS,
    });
  }

  async function endpointWithChange(vendor: string): Promise<WebhookEndpoint> {
    const endpoint = await addEndpoint(
      tables.documentClient,
      tables.names.vendors,
      vendor,
      'https://r.example/h',
      {
        allowLoopbackHttp: false,
      },
    );
    await putVacancies(tables.documentClient, tables.names.vacancies, [
      vacancyRecord({ id: nextId++, vendor_id: vendor }),
    ]);
    return endpoint;
  }

  /** The survivor: delivers, and resolves `delivered` with the first event's id and when. */
  function survivorOf(woken: number[]) {
    let resolve: (value: { id: string; at: number }) => void = () => undefined;
    const delivered = new Promise<{ id: string; at: number }>((r) => {
      resolve = r;
    });
    const survivor: Dispatcher = dispatcherOf(
      async (headers) => {
        resolve({ id: headers['webhook-id'] as string, at: clock() });
        return { ok: true, status: 204 };
      },
      () => survivor,
      woken,
    );
    return { survivor, delivered };
  }

  it.each([
    ['with nothing else happening', false],
    ['when a wake-up finds it held meanwhile', true],
  ])('is resumed once its lease has run out, %s, with the same webhook-id', async (_name, wokenAgain) => {
    const vendor = wokenAgain ? 'held-woken' : 'held-alone';
    const endpoint = await endpointWithChange(vendor);
    const woken: number[] = [];
    const { survivor, delivered } = survivorOf(woken);
    let sending: (id: string) => void = () => undefined;
    const sent = new Promise<string>((r) => {
      sending = r;
    });
    // The doomed dispatch: it takes the lease, stores the event, starts sending — and is never heard of again.
    const doomed = dispatcherOf(
      (headers) => {
        sending(headers['webhook-id'] as string);
        return new Promise(() => undefined);
      },
      () => survivor,
      woken,
    );
    void doomed.dispatchEndpoint(endpoint.endpointId);
    const id = await within(sent, 10_000, 'the doomed dispatch sending');
    const killedAt = clock();
    if (wokenAgain) {
      // The stream's retry, say: it finds the endpoint held, and flags it for a holder that will never read it.
      expect(await survivor.dispatchVendor(vendor)).toEqual({ delivered: 0, failed: 0, disabled: 0 });
    }
    const resumed = await within(delivered, 30_000, 'the event delivered after the death');
    expect(resumed.id).toBe(id);
    // Woken by a guard, at the end of the lease and its grace.
    expect(woken.length).toBeGreaterThan(0);
    expect(Math.min(...woken)).toBeGreaterThanOrEqual(killedAt - LEASE_MS);
    // The run that delivered it has recorded so.
    await Promise.all(started);
    const [after] = await listEndpoints(tables.documentClient, tables.names.vendors, vendor);
    expect(after?.pending).toBeUndefined();
    process.stdout.write(
      `dispatch-recovery (${vendor}): killed to delivered ${resumed.at - killedAt} ms (lease ${LEASE_MS} ms, then its grace)\n`,
    );
  });

  it('is resumed after a SIGKILL of the process that held it', async () => {
    const endpoint = await endpointWithChange('killed');
    const woken: number[] = [];
    const { survivor, delivered } = survivorOf(woken);
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        VVA_WEBHOOK_LEASE_MS: String(LEASE_MS),
        VENDORS_TABLE: tables.names.vendors,
        VACANCIES_TABLE: tables.names.vacancies,
        ENDPOINT_ID: endpoint.endpointId,
        CLOCK_AHEAD_MS: String(AHEAD_MS),
      },
    });
    const exited = new Promise((r) => child.once('exit', r));
    const id = await within(
      new Promise<string>((resolve) =>
        child.on('message', (message: { sending?: string; wake?: { endpointId: string; at: number } }) => {
          // The child's wake-ups and guards are the scheduler's: they outlive it.
          if (message.wake) schedule(() => survivor, message.wake.endpointId, message.wake.at, woken);
          if (message.sending) resolve(message.sending);
        }),
      ),
      20_000,
      'the child sending',
    );
    child.kill('SIGKILL');
    await exited;
    const killedAt = clock();
    const resumed = await within(delivered, 30_000, 'the event delivered after the SIGKILL');
    expect(resumed.id).toBe(id);
    process.stdout.write(`dispatch-recovery (SIGKILL): killed to delivered ${resumed.at - killedAt} ms\n`);
  });
});
