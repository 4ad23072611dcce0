/**
 * A webhook dispatch in a process of its own, for tests that kill it (`SIGKILL`) while it holds an endpoint: the
 * runtime's dispatcher on the test's tables, its receiver a promise that never settles (the parent kills it while
 * it waits), and its timers the parent's — as on AWS, where the one-time schedules outlive the function. It tells
 * the parent over IPC each wake-up it asks for (`{ wake: { endpointId, at } }`) and the event it is sending
 * (`{ sending: <webhook-id> }`).
 *
 * Environment: DYNAMODB_ENDPOINT, VENDORS_TABLE, VACANCIES_TABLE, ENDPOINT_ID, CLOCK_AHEAD_MS (its clock is ahead of
 * the index's settle window by this much, as the parent's is).
 */

import { createVacancyRepository } from '../lambda/domain/reads/repository';
import { EndpointStore } from '../lambda/domain/webhook-registry/endpoint-store';
import { createDispatcher } from '../lambda/functions/webhooks/dispatcher';
import { createDynamoDBClient } from '../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../lambda/platform/dynamodb/document-client';

const env = process.env;
const client = createDynamoDBClient({ endpoint: env.DYNAMODB_ENDPOINT ?? '' });
const ahead = Number(env.CLOCK_AHEAD_MS ?? 0);
const send = (message: unknown) => process.send?.(message);

const dispatcher = createDispatcher({
  endpoints: new EndpointStore(createDocumentClient(client), env.VENDORS_TABLE ?? ''),
  changes: createVacancyRepository(client, {
    tableName: env.VACANCIES_TABLE ?? '',
    vendorsTable: env.VENDORS_TABLE ?? '',
  }),
  deliver: (_url, headers) => {
    send({ sending: headers['webhook-id'] });
    return new Promise(() => undefined);
  },
  wakeAt: async (endpoint, at) => {
    send({ wake: { endpointId: endpoint.endpointId, at } });
  },
  onDisabled: () => undefined,
  retrySchedule: [1],
  apiBaseUrl: 'https://api.example',
  now: () => Date.now() + ahead,
});

void dispatcher.dispatchEndpoint(env.ENDPOINT_ID ?? '');
