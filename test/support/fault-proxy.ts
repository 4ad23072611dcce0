/**
 * A fault-injecting HTTP proxy between the code under test and a real DynamoDB engine: every request really
 * crosses it, and per operation (`GetItem`, `Query`, `PutItem`, …, read from `X-Amz-Target`) it can pass,
 * delay, throttle (400 ProvisionedThroughputExceededException), fail (500 InternalServerError), drop the
 * connection without an answer, or refuse new connections. It also records every operation it sees, so a test
 * can prove what was (and was not) asked of the engine.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What happens to a request the rule matches. */
export type FaultKind = 'delay' | 'throttle' | 'fail' | 'drop' | 'refuse';

/** A fault for an operation (or every operation). */
export interface FaultRule {
  /** `GetItem`, `Query`, `BatchGetItem`, `PutItem`, …; every operation when absent. */
  readonly operation?: string;
  readonly kind: FaultKind;
  /** Matching requests let through untouched before the fault starts. */
  readonly after?: number;
  /** For `delay`: how long to hold the request before forwarding it. */
  readonly delayMs?: number;
}

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`, to use as the DynamoDB endpoint. */
  readonly endpoint: string;
  /** Replaces the rules (counts of matching requests start again from 0). */
  inject(...rules: FaultRule[]): void;
  /** Lets everything through again (and accepts connections again after `refuse`). */
  clear(): Promise<void>;
  /** Every operation seen since the proxy started, in order. */
  readonly operations: readonly string[];
  stop(): Promise<void>;
}

const AWS_JSON = 'application/x-amz-json-1.0';

function errorBody(type: string, message: string): string {
  return JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message });
}

/** Starts a proxy on a free loopback port in front of `target` (`http://host:port`). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let rules: { rule: FaultRule; seen: number }[] = [];
  let refusing = false;
  const operations: string[] = [];
  const sockets = new Set<Socket>();

  const forward = (request: IncomingMessage, body: Buffer, response: import('node:http').ServerResponse) => {
    const outgoing = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', () => response.destroy());
    outgoing.end(body);
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      operations.push(operation);
      const match = rules.find(({ rule }) => rule.operation === undefined || rule.operation === operation);
      if (match) match.seen += 1;
      const rule = match && match.seen > (match.rule.after ?? 0) ? match.rule : undefined;
      const reply = (status: number, type: string, message: string) => {
        response.writeHead(status, { 'Content-Type': AWS_JSON, 'x-amzn-RequestId': 'fault-proxy' });
        response.end(errorBody(type, message));
      };
      switch (rule?.kind) {
        case undefined:
          return forward(request, body, response);
        case 'delay':
          setTimeout(() => forward(request, body, response), rule.delayMs ?? 0).unref();
          return;
        case 'throttle':
          return reply(400, 'ProvisionedThroughputExceededException', 'Throughput exceeded (injected)');
        case 'fail':
          return reply(500, 'InternalServerError', 'Internal server error (injected)');
        case 'drop':
          return request.socket.destroy();
        case 'refuse':
          // This connection dies unanswered, and no new one is accepted until `clear()`.
          refusing = true;
          server.close();
          for (const socket of sockets) socket.destroy();
          return;
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);

  return {
    endpoint: `http://127.0.0.1:${port}`,
    operations,
    inject(...next) {
      rules = next.map((rule) => ({ rule, seen: 0 }));
    },
    async clear() {
      rules = [];
      if (refusing) {
        refusing = false;
        await listen(port);
      }
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      if (!refusing) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
