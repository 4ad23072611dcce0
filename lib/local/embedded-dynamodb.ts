import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { closeStore, type IndexRepair, openStore } from './engine-repair';

/** Where and how the embedded engine runs. */
export interface EmbeddedDynamoDBOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Folder for a persistent store; in memory when absent. */
  readonly dataDir?: string;
  /**
   * Told of every write request the engine receives (its tables, and the client's user agent), as DynamoDB Streams
   * would tell a function of the writes: the local server wakes its webhook dispatch with it.
   */
  readonly onWrite?: (write: EngineWrite) => void;
}

/** A write request the engine received. */
export interface EngineWrite {
  /** The tables it writes. */
  readonly tables: readonly string[];
  /** The client's `user-agent` header. */
  readonly userAgent: string;
}

const WRITE_OPERATIONS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

/** The tables a write request's body names. */
function writtenTables(operation: string, body: string): string[] {
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return [];
  }
  if (operation === 'BatchWriteItem') return Object.keys((request.RequestItems as object | undefined) ?? {});
  if (operation === 'TransactWriteItems')
    return ((request.TransactItems as Record<string, { TableName?: string }>[] | undefined) ?? []).flatMap(
      (item) => Object.values(item).flatMap((action) => (action?.TableName ? [action.TableName] : [])),
    );
  return typeof request.TableName === 'string' ? [request.TableName] : [];
}

/** A running embedded DynamoDB engine. */
export interface EmbeddedDynamoDB {
  /** `http://127.0.0.1:<port>`, for any DynamoDB client. */
  readonly endpoint: string;
  /**
   * What was mended at start: the store in `dataDir` was not closed cleanly last time (its process killed), and its
   * indexes were rebuilt from its tables (`engine-repair.ts`).
   */
  readonly repaired?: IndexRepair;
  /** Resolves once no request is being answered (a write a killed client sent may still be landing). */
  idle(): Promise<void>;
  /** Closes open connections and the store. */
  stop(): Promise<void>;
}

type IteratorPrototype = { return?: () => Promise<IteratorResult<never>>; close(): Promise<void> };

/**
 * Makes the store's iterators closable the way dynalite closes them. dynalite 4 turns every LevelDB iterator of
 * a Query or Scan into a stream whose `destroy()` calls `iterator.return()`, a method abstract-level 3 iterators
 * do not have: so no iterator was ever closed, and each Query left one open, with the buffers it held — about
 * 30 KB a listing request, for as long as the engine ran (`npm run bench`, memory). Giving the iterators a
 * `return()` that closes them lets dynalite's own clean-up work, at the end of a stream and when a Query stops
 * early (Limit, 1 MB). Applied to the abstract-level copy of each store dynalite uses, once.
 */
function closeIteratorsOnDestroy(): void {
  const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  for (const store of ['memory-level', 'classic-level']) {
    const abstractLevel = createRequire(fromDynalite.resolve(store))('abstract-level') as Record<
      string,
      { prototype: IteratorPrototype }
    >;
    for (const name of ['AbstractIterator', 'AbstractKeyIterator', 'AbstractValueIterator']) {
      const prototype = abstractLevel[name]?.prototype;
      if (!prototype || prototype.return) continue;
      prototype.return = async function (this: IteratorPrototype) {
        await this.close();
        return { done: true, value: undefined };
      };
    }
  }
}

/** How long a stop waits for the requests the engine is answering (each takes milliseconds). */
const STOP_DRAIN_MS = 10_000;

/**
 * Wraps dynalite's request handler so that a stop can wait for the requests it is answering: each is counted from
 * its arrival to its answer (dynalite ends every one with `response.end`), and once `drain` has begun a request that
 * arrives is refused by closing its connection — unanswered and not applied, which a client retries or reports.
 */
function answeringRequests(server: Server) {
  const [handle] = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  const answering = new Set<ServerResponse>();
  let stopping = false;
  let drained: (() => void) | undefined;
  let quiet: (() => void)[] = [];
  const answered = (response: ServerResponse) => {
    if (!answering.delete(response) || answering.size > 0) return;
    drained?.();
    const waiting = quiet;
    quiet = [];
    for (const resolve of waiting) resolve();
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (stopping) {
      request.socket.destroy();
      return;
    }
    answering.add(response);
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      answered(response);
      return end(...args);
    }) as ServerResponse['end'];
    // A request its client gave up on (a process killed mid-request) is answered by nobody.
    response.once('close', () => answered(response));
    handle?.call(server, request, response);
  });
  return {
    /** Resolves once no request is being answered. */
    idle(): Promise<void> {
      if (answering.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => quiet.push(resolve));
    },
    /** Refuses new requests and resolves once none is being answered, or after `withinMs`. */
    drain(withinMs: number): Promise<void> {
      stopping = true;
      server.closeIdleConnections();
      if (answering.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, withinMs);
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

/**
 * Starts dynalite — a DynamoDB engine written in JavaScript, in this process — on loopback, so the tests, the
 * local server, the ops CLI and any AWS tool reach the same data. Tables become active immediately.
 */
export async function startEmbeddedDynamoDB(
  options: EmbeddedDynamoDBOptions = {},
): Promise<EmbeddedDynamoDB> {
  closeIteratorsOnDestroy();
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // A store left open by a killed process may hold index entries its items do not: mended before it is served.
  const repaired = options.dataDir ? await openStore(options.dataDir) : undefined;
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.dataDir && { path: options.dataDir }),
  });
  const answering = answeringRequests(server);
  const { onWrite } = options;
  if (onWrite)
    // After dynalite's own listener, which reads the body the same way: both see every chunk.
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      if (!WRITE_OPERATIONS.has(operation)) return;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      // Told as the engine answers, as Streams tell of a write that was made: when it ends its answer, so before the
      // writer can have read it — a writer that then asks the server whether its work is done (`idle()`) finds it owed.
      const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
      response.end = ((...args: unknown[]) => {
        if (response.statusCode === 200) {
          const tables = writtenTables(operation, Buffer.concat(chunks).toString('utf8'));
          if (tables.length > 0) onWrite({ tables, userAgent: String(request.headers['user-agent'] ?? '') });
        }
        return end(...args);
      }) as ServerResponse['end'];
    });
  const { dataDir } = options;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    // Nothing was served, so nothing was written: the store is as clean as it was found (or was mended to).
    if (dataDir) await closeStore(dataDir);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    ...(repaired && { repaired }),
    idle: () => answering.idle(),
    stop: async () => {
      // The requests being answered finish first: dynalite writes an item after its index entries, and a store
      // closed between the two makes dynalite throw, uncaught — a Ctrl-C mid-import killed the process.
      await answering.drain(STOP_DRAIN_MS);
      await new Promise<void>((resolve, reject) => {
        // SDK clients keep connections alive; without this, close() would wait for them to time out.
        server.closeAllConnections();
        // dynalite closes its store with its server.
        server.close((error) => (error ? reject(error) : resolve()));
      });
      // Closed cleanly: nothing to mend at the next start.
      if (dataDir) await closeStore(dataDir);
    },
  };
}
