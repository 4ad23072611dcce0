import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

/** Where and how the embedded engine runs. */
export interface EmbeddedDynamoDBOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Folder for a persistent store; in memory when absent. */
  readonly dataDir?: string;
}

/** A running embedded DynamoDB engine. */
export interface EmbeddedDynamoDB {
  /** `http://127.0.0.1:<port>`, for any DynamoDB client. */
  readonly endpoint: string;
  /** Closes open connections and the store. */
  stop(): Promise<void>;
}

/**
 * Starts dynalite — a DynamoDB engine written in JavaScript, in this process — on loopback, so the tests, the
 * local server, the ops CLI and any AWS tool reach the same data. Tables become active immediately.
 */
export async function startEmbeddedDynamoDB(
  options: EmbeddedDynamoDBOptions = {},
): Promise<EmbeddedDynamoDB> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.dataDir && { path: options.dataDir }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        // SDK clients keep connections alive; without this, close() would wait for them to time out.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
