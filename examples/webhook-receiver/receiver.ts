/**
 * A reference webhook receiver (docs/api.md#webhooks): it verifies each delivery with the official `standardwebhooks`
 * library, drops one it has seen by its `webhook-id`, answers 204 at once — and then brings its SQLite copy up to
 * date with the reference sync client (`../sync/sync.ts`), from the copy's saved `next_sync_url`. The event only
 * says "something changed"; the sync reads what. Copy it, change what you like.
 */
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { DatabaseSync } from 'node:sqlite';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { API_OPTIONS, readCommandLine } from '../example-program';
import { openCopy, resyncNextTime, syncOnce } from '../sync/sync';

export interface ReceiverOptions {
  /** The endpoint's secret, `whsec_…`, as `vacancy-admin webhook add` printed it. */
  secret: string;
  /** The vendor's API key, for the sync. */
  apiKey: string;
  /** The API's base URL, for the first (full) sync; later syncs follow the saved `next_sync_url`. */
  baseUrl: string;
  /** The copy (`openCopy`), which also keeps the ids of the events seen. */
  db: DatabaseSync;
  lang?: 'az' | 'en';
  /** Told of each sync's outcome, or of its failure (the next event tries again). */
  onSync?: (outcome: { report?: unknown; error?: unknown }) => void;
}

/** The most raw bytes a delivery may have (an event of 100 changes is about 8 KB). */
const MAX_BODY = 256 * 1024;

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(undefined));
  });
}

/** The receiver: a request listener for an HTTP server, and a promise of its syncs being done. */
export function createReceiver(options: ReceiverOptions): {
  handler: RequestListener;
  idle: () => Promise<void>;
} {
  const webhook = new Webhook(options.secret);
  const { db } = options;
  db.exec('CREATE TABLE IF NOT EXISTS seen_events (id TEXT PRIMARY KEY, at TEXT NOT NULL)');
  const seen = db.prepare('INSERT OR IGNORE INTO seen_events (id, at) VALUES (?, ?)');

  // One sync at a time; an event during one asks for another after it.
  let running: Promise<void> | undefined;
  let again = false;
  const sync = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const report = await syncOnce({
            baseUrl: options.baseUrl,
            apiKey: options.apiKey,
            db,
            ...(options.lang && { lang: options.lang }),
          });
          options.onSync?.({ report });
        } catch (error) {
          options.onSync?.({ error });
        }
      } while (again);
    })().finally(() => {
      running = undefined;
    });
  };

  const handler: RequestListener = async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const body = await readBody(request);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    let event: { type?: string; data?: { resync_required?: boolean } };
    try {
      event = webhook.verify(body, request.headers as Record<string, string>) as typeof event;
    } catch (error) {
      // Not signed with our secret, or too old: not from the service (or replayed).
      response.writeHead(error instanceof WebhookVerificationError ? 401 : 400).end();
      return;
    }
    const id = String(request.headers['webhook-id']);
    const fresh = seen.run(id, new Date().toISOString()).changes === 1;
    // At once: the work is after the answer, so the service never waits on the sync.
    response.writeHead(204).end();
    if (!fresh || event.type !== 'vacancies.changed') return;
    if (event.data?.resync_required) resyncNextTime(db);
    sync();
  };
  return {
    handler,
    idle: async () => {
      while (running) await running;
    },
  };
}

const USAGE = `usage: receiver.ts --secret <whsec_…> --api-key <key> [--base-url http://127.0.0.1:3000] [--port 9911] [--db vacancies.db] [--lang az|en]

Receives the vendor's webhook events on http://127.0.0.1:<port>/ and keeps a SQLite copy of its vacancies in step.
--base-url: the API's base URL, where it syncs (npm start prints it; on AWS the stack's ApiUrl).`;

// Run from the command line: listens until stopped.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const values = readCommandLine(
    {
      ...API_OPTIONS,
      secret: { type: 'string' },
      port: { type: 'string', default: '9911' },
      db: { type: 'string', default: 'vacancies.db' },
    },
    USAGE,
    ['secret', 'api-key'],
  );
  const port = Number(values.port);
  let handler: RequestListener;
  try {
    ({ handler } = createReceiver({
      secret: values.secret as string,
      apiKey: values['api-key'] as string,
      baseUrl: values['base-url'],
      db: openCopy(values.db),
      ...(values.lang && { lang: values.lang as 'az' | 'en' }),
      onSync: ({ report, error }) =>
        console.log(error ? `sync failed: ${(error as Error).message}` : `synced: ${JSON.stringify(report)}`),
    }));
  } catch (error) {
    // A secret that is not whsec_… base64, say.
    console.error(`error: ${(error as Error).message}`);
    process.exit(2);
  }
  const server = createServer(handler);
  server.once('error', (error: NodeJS.ErrnoException) => {
    console.error(
      `error: cannot listen on 127.0.0.1:${port} (${error.code}): ${error.code === 'EADDRINUSE' ? 'another program has it; give another --port' : error.message}.`,
    );
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () =>
    console.log(
      `receiving webhooks on http://127.0.0.1:${port}/, syncing from ${values['base-url']} (Ctrl-C to stop)`,
    ),
  );
}
