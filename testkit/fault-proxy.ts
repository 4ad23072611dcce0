/**
 * A fault-injecting HTTP proxy between the code under test and a real DynamoDB engine: every request really
 * crosses it, and per operation (`GetItem`, `Query`, `PutItem`, …, read from `X-Amz-Target`) it can pass,
 * delay a request or its answer, throttle (400 ProvisionedThroughputExceededException), fail (500 InternalServerError), drop the
 * connection without an answer, or refuse new connections — or answer what is not a valid DynamoDB answer at all:
 * an HTML error page (a load balancer's 502 or 503), a 200 whose body is not JSON, the engine's own answer cut
 * short, or a 5xx without an error type. It also records every operation it sees, and the access key that signed
 * it, so a test can prove what was (and was not) asked of the engine, and by whom — and every answer the engine gave
 * with the capacity it reported, under the label the request carried (`LABEL_HEADER`), so a test can hold what the
 * code says it consumed to what the engine said.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What happens to a request the rule matches. */
export type FaultKind =
  | 'delay'
  | 'delay-answer'
  | 'throttle'
  | 'fail'
  | 'drop'
  | 'refuse'
  | 'html-502'
  | 'html-503'
  | 'not-json'
  | 'truncated'
  | 'bare-5xx';

/** A fault for an operation (or every operation). */
export interface FaultRule {
  /** `GetItem`, `Query`, `BatchGetItem`, `PutItem`, …; every operation when absent. */
  readonly operation?: string;
  readonly kind: FaultKind;
  /** Matching requests let through untouched before the fault starts. */
  readonly after?: number;
  /** How many matching requests get the fault, once it has started; every one after `after` when absent. */
  readonly times?: number;
  /**
   * For `delay`: how long to hold the request before forwarding it (it reaches the engine late). For `delay-answer`:
   * how long to hold the engine's answer (the request reaches the engine at once, its answer comes late — past a
   * client's timeout, say, so that the client sends it again).
   */
  readonly delayMs?: number;
}

/** The header a test labels a request with (the API request it was made for, say): kept with its answer. */
export const LABEL_HEADER = 'x-test-label';

/** An answer the engine gave, as it came through. */
export interface EngineAnswer {
  readonly operation: string;
  /** The request's `LABEL_HEADER`, or empty. */
  readonly label: string;
  readonly status: number;
  /** The sum of the `CapacityUnits` of its `ConsumedCapacity` (one entry or several), 0 without any. */
  readonly capacityUnits: number;
}

/** The capacity units an engine's answer reports. */
function reportedUnits(body: Buffer): number {
  try {
    const { ConsumedCapacity } = JSON.parse(body.toString('utf8')) as {
      ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
    };
    return [ConsumedCapacity ?? []].flat().reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);
  } catch {
    return 0;
  }
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
  /**
   * Who signed each of those requests, in the same order: the access key id of its SigV4 credential scope, and
   * the session token it carried (empty without one).
   */
  readonly signers: readonly { readonly accessKeyId: string; readonly sessionToken: string }[];
  /** Every answer the engine gave, in the order they came, each with what it reported consumed. */
  readonly answers: readonly EngineAnswer[];
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
  const signers: { accessKeyId: string; sessionToken: string }[] = [];
  const answers: EngineAnswer[] = [];
  const sockets = new Set<Socket>();

  const forward = (
    request: IncomingMessage,
    body: Buffer,
    response: import('node:http').ServerResponse,
    /** Changes the engine's answer before it is sent on (its status and headers are kept). */
    alter?: (answer: Buffer) => Buffer,
    /** Holds the engine's answer this long before sending it on (dropped if the client gave up meanwhile). */
    holdMs = 0,
  ) => {
    const outgoing = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        const received: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => received.push(chunk));
        answer.on('end', () =>
          answers.push({
            operation: String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '',
            label: String(request.headers[LABEL_HEADER] ?? ''),
            status: answer.statusCode ?? 0,
            capacityUnits: reportedUnits(Buffer.concat(received)),
          }),
        );
        if (!alter && holdMs === 0) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const send = () => {
            if (response.destroyed) return;
            if (!alter) {
              response.writeHead(answer.statusCode ?? 502, answer.headers);
              response.end(Buffer.concat(chunks));
              return;
            }
            const altered = alter(Buffer.concat(chunks));
            // The engine signs its body with a CRC32: a changed body must not carry it, nor the old length.
            const { 'x-amz-crc32': _crc, 'content-length': _length, ...headers } = answer.headers;
            response.writeHead(answer.statusCode ?? 502, {
              ...headers,
              'content-length': String(altered.length),
            });
            response.end(altered);
          };
          if (holdMs > 0) setTimeout(send, holdMs).unref();
          else send();
        });
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
      signers.push({
        accessKeyId: /Credential=([^/]+)\//.exec(String(request.headers.authorization ?? ''))?.[1] ?? '',
        sessionToken: String(request.headers['x-amz-security-token'] ?? ''),
      });
      const match = rules.find(({ rule }) => rule.operation === undefined || rule.operation === operation);
      if (match) match.seen += 1;
      const after = match?.rule.after ?? 0;
      const rule =
        match &&
        match.seen > after &&
        (match.rule.times === undefined || match.seen <= after + match.rule.times)
          ? match.rule
          : undefined;
      const reply = (status: number, type: string, message: string) => {
        response.writeHead(status, { 'Content-Type': AWS_JSON, 'x-amzn-RequestId': 'fault-proxy' });
        response.end(errorBody(type, message));
      };
      const raw = (status: number, contentType: string, text: string) => {
        response.writeHead(status, { 'Content-Type': contentType });
        response.end(text);
      };
      switch (rule?.kind) {
        case undefined:
          return forward(request, body, response);
        case 'delay':
          setTimeout(() => forward(request, body, response), rule.delayMs ?? 0).unref();
          return;
        case 'delay-answer':
          // The engine answers at once; the answer is held. A client that gave up meanwhile has closed the
          // connection: the answer is dropped, but the request was applied all the same.
          return forward(request, body, response, undefined, rule.delayMs ?? 0);
        case 'throttle':
          return reply(400, 'ProvisionedThroughputExceededException', 'Throughput exceeded (injected)');
        case 'fail':
          return reply(500, 'InternalServerError', 'Internal server error (injected)');
        case 'drop':
          return request.socket.destroy();
        case 'html-502':
          return raw(502, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>');
        case 'html-503':
          return raw(503, 'text/html', '<html><body>Service Temporarily Unavailable</body></html>');
        case 'not-json':
          return raw(200, AWS_JSON, 'upstream answered something else');
        case 'truncated':
          return forward(request, body, response, (answer) =>
            answer.subarray(0, Math.floor(answer.length / 2)),
          );
        case 'bare-5xx':
          return raw(504, 'application/json', '{"message":"Endpoint request timed out"}');
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
    signers,
    answers,
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
