/**
 * The child of `local-api-process.ts`: the local API started with the options given as JSON, which prints
 * `{ url, dynamodbEndpoint }` once listening, answers 'idle?' over the IPC channel and stops on SIGTERM.
 */
import type { LocalApiOptions } from '../lib/local/local-api';
import { startLocalApi } from '../lib/local/local-api';

const api = await startLocalApi(JSON.parse(process.argv[2] ?? '{}') as LocalApiOptions);
process.stdout.write(`${JSON.stringify({ url: api.url, dynamodbEndpoint: api.dynamodbEndpoint })}\n`);
process.on('message', (message: { idle?: number }) => {
  if (message.idle !== undefined) void api.idle().then(() => process.send?.({ idle: message.idle }));
});
// The channel keeps no process alive: the server does, until it is stopped.
process.channel?.unref();
process.once('SIGTERM', () => void api.stop().then(() => process.exit(0)));
