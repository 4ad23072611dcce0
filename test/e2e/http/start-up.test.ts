/**
 * `npm start` while it starts (docs/getting-started.md#while-it-starts): its port opens seconds before it is ready —
 * the engine, the seed, the functions — and a request that arrives in between is answered at once, a 503 with
 * `Retry-After` in the error envelope, logged and counted like any other; none waits for an answer that never comes.
 * A health check that polls the port sees a 503 until the server is ready, then the API.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { freePort } from '../../../testkit/free-port';
import { launchNpmStart } from '../../../testkit/npm-start';

const KEY = 'vvk_demo_pasha_bank_primary';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a TCP connection to the port is accepted. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** What became of one request: its answer, or the error that ended it unanswered. */
type Outcome =
  | { readonly status: number; readonly headers: Record<string, unknown>; readonly body: string }
  | { readonly error: string };

/** A listing request on a connection of its own, as a health check sends one. */
const listingRequest = (port: number) =>
  new Promise<Outcome>((resolve) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        path: '/vendor/vacancies?per_page=1',
        headers: { Authorization: `Bearer ${KEY}` },
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    sent.on('error', (error: Error & { code?: string }) => resolve({ error: error.code ?? error.message }));
    sent.end();
  });

describe('npm start, asked while it starts', () => {
  it('answers every request from the moment its port opens — a 503 with Retry-After until ready — and logs and counts each', async () => {
    const port = await freePort();
    const server = launchNpmStart(['--port', String(port)]);
    try {
      let ready = false;
      void server.banner.then(() => {
        ready = true;
      });
      // Its port, from the moment it accepts a connection.
      while (!(await accepts(port))) {
        if (ready) throw new Error('the banner came before the port accepted a connection');
        await pause(20);
      }
      // A request every 150 ms until the banner, and one after it.
      const outcomes: Promise<Outcome>[] = [];
      let beforeBanner = 0;
      while (!ready) {
        outcomes.push(listingRequest(port));
        beforeBanner += 1;
        await pause(150);
      }
      const afterBanner = listingRequest(port);
      outcomes.push(afterBanner);
      await afterBanner;
      // Then Ctrl-C: it answers what is in flight and ends the connections of requests nobody answers, so a request
      // that would have hung shows here as an error, not as a test that waits for it.
      expect(await server.stop('SIGINT')).toBe(0);
      const answered = await Promise.all(outcomes);
      expect(beforeBanner).toBeGreaterThan(0);

      const statuses = new Map<number, number>();
      const requestIds: string[] = [];
      expect(answered.filter((outcome) => 'error' in outcome)).toEqual([]);
      for (const outcome of answered) {
        if (!('status' in outcome)) continue;
        expect([200, 503]).toContain(outcome.status);
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        const requestId = String(outcome.headers['x-request-id'] ?? '');
        expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
        requestIds.push(requestId);
        if (outcome.status === 503) {
          expect(outcome.headers['retry-after']).toBe('1');
          expect(JSON.parse(outcome.body)).toEqual({
            status: 'error',
            message: 'Service Unavailable.',
            request_id: requestId,
          });
        }
      }
      // The one sent after the banner is served.
      expect((answered.at(-1) as { status: number }).status).toBe(200);

      // Every one has its line in the request log, and the summary counts them all.
      const output = server.stdout();
      for (const requestId of requestIds)
        expect(output).toMatch(
          new RegExp(`GET /vendor/vacancies\\?per_page {2}(200|503) {2}\\d+ ms.* {2}${requestId}`),
        );
      const byStatus = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status} × ${count}`)
        .join(', ');
      expect(output).toContain(`Served ${answered.length} request${answered.length === 1 ? '' : 's'} in `);
      expect(output).toContain(`  by status:   ${byStatus}\n`);
    } finally {
      await server.stop('SIGKILL');
    }
  }, 120_000);
});
