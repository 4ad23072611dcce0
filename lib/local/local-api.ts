import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { SERVICE_DEFAULTS } from '../../lambda/config/defaults';
import { createDocumentClient, createDynamoDBClient } from '../../lambda/dynamodb/client';
import type { TableNames } from '../../lambda/schema/tables';
import { zoneClock } from '../../lambda/time/zone-clock';
import { createTables, localTableNames } from '../create-tables';
import { startEmbeddedDynamoDB } from './embedded-dynamodb';
import { createLocalGateway, type GatewayHandlers } from './gateway';
import { loadSeed, readSeedFile, type Seed, type SeedSummary } from './seed';

/** The demo data shipped with the repository: three vendors (one suspended) and about sixty vacancies. */
export const DEMO_SEED_FILE = new URL('./demo-seed.json', import.meta.url).pathname;

/** How to run the local API. */
export interface LocalApiOptions {
  /** HTTP port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Port of the embedded DynamoDB on 127.0.0.1 (reachable by the ops CLI and AWS tools); 0 picks a free one. */
  readonly dynamodbPort: number;
  /** Folder that keeps the data across restarts; in memory when absent. */
  readonly dataDir?: string;
  /**
   * Seed file to load. Absent: the demo seed, loaded only when the tables are new (so data kept in
   * `dataDir` is not overwritten at every start).
   */
  readonly seedFile?: string;
  /** Listing settings, as the stack would set them (`DEFAULT_LOCALE`, `SERVICE_TIMEZONE`, …). */
  readonly environment?: Readonly<Record<string, string>>;
}

/** A running local API. */
export interface LocalApi {
  /** `http://127.0.0.1:<port>`: the base of `/vendor/vacancies`. */
  readonly url: string;
  readonly dynamodbEndpoint: string;
  readonly tables: TableNames;
  /** The seed loaded at start, if any. */
  readonly seed?: { readonly file: string; readonly data: Seed; readonly summary: SeedSummary };
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Starts the whole API on localhost: the embedded DynamoDB with the tables of `lambda/schema/tables.ts`, the seed, and
 * an HTTP server that plays API Gateway around the real Lambda entry points (`lambda/*\/handler.ts`), which
 * read their configuration from the environment exactly as on AWS. One local API per process: the entry
 * points configure themselves once, when first imported.
 */
export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const engine = await startEmbeddedDynamoDB({
    port: options.dynamodbPort,
    ...(options.dataDir && { dataDir: options.dataDir }),
  });
  const client = createDynamoDBClient({ endpoint: engine.endpoint });
  const tables = localTableNames();
  try {
    const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames);
    const fresh = !Object.values(tables).every((name) => existing.has(name));
    await createTables(client, tables);

    const environment = {
      SERVICE_TIMEZONE: SERVICE_DEFAULTS.timeZone,
      ...options.environment,
      VACANCIES_TABLE: tables.vacancies,
      VENDORS_TABLE: tables.vendors,
      DYNAMODB_ENDPOINT: engine.endpoint,
    };
    Object.assign(process.env, environment);

    let seed: LocalApi['seed'];
    const seedFile = options.seedFile ?? (fresh ? DEMO_SEED_FILE : undefined);
    if (seedFile) {
      const data = await readSeedFile(seedFile, zoneClock(environment.SERVICE_TIMEZONE));
      seed = { file: seedFile, data, summary: await loadSeed(createDocumentClient(client), tables, data) };
    }

    const handlers: GatewayHandlers = {
      authorizer: (await import('../../lambda/auth/handler')).handler,
      listing: (await import('../../lambda/vacancies/handler')).handler,
    };
    const server = createServer(createLocalGateway(handlers));
    const port = await listen(server, options.port);
    return {
      url: `http://127.0.0.1:${port}`,
      dynamodbEndpoint: engine.endpoint,
      tables,
      ...(seed && { seed }),
      async stop() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        client.destroy();
        await engine.stop();
      },
    };
  } catch (error) {
    client.destroy();
    await engine.stop();
    throw error;
  }
}
