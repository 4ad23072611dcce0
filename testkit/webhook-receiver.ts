/**
 * A webhook receiver for the tests, on 127.0.0.1: it keeps every delivery it gets (headers, body, when) and
 * answers each with the status its plan gives (200 unless told otherwise).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** What the receiver answers a delivery. */
export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
}

export interface TestReceiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /**
   * The status (and headers) of the answer to a delivery: 200 unless set. A promise holds the answer back until it
   * settles (the delivery is kept at once).
   */
  answer: (delivery: Delivery, index: number) => Answer | Promise<Answer>;
  /** Waits until `done` holds of the deliveries, for at most `timeoutMs`; fails with what arrived. */
  waitFor(done: (deliveries: readonly Delivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestReceiver(): Promise<TestReceiver> {
  const deliveries: Delivery[] = [];
  const receiver: TestReceiver = {
    url: '',
    deliveries,
    answer: () => ({ status: 200 }),
    async waitFor(done, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(deliveries)) {
        if (Date.now() > deadline)
          throw new Error(
            `not delivered in ${timeoutMs} ms; got ${deliveries.map((d) => d.body).join('\n')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      deliveries.push(delivery);
      void Promise.resolve(receiver.answer(delivery, deliveries.length - 1)).then(({ status, headers }) => {
        if (!response.destroyed) response.writeHead(status, headers).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (receiver as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
