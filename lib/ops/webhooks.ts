/**
 * The operator's webhook endpoints (docs/operating.md#webhooks): add, list, enable, disable, remove, rotate the
 * secret — over the endpoints' persistence (`lambda/domain/webhook-registry/endpoint-store.ts`), with what only the
 * CLI says: an endpoint as `webhook list` shows it, and the one-line refusals. A secret is returned by `addEndpoint`
 * and `rotateSecret` only, to be shown once; `listEndpoints` never has it.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  MAX_ENDPOINTS_PER_VENDOR,
  type UrlRules,
  type WebhookEndpoint,
  webhookUrlProblem,
} from '../../lambda/domain/webhook-registry/endpoint';
import { EndpointStore } from '../../lambda/domain/webhook-registry/endpoint-store';
import { UserError } from './errors';
import { placeRefused } from './vendors';

/** An endpoint as `webhook list` shows it: everything but its secrets and its position's bytes. */
export interface EndpointView {
  readonly endpointId: string;
  readonly vendorId: string;
  readonly url: string;
  readonly status: WebhookEndpoint['status'];
  readonly disabledReason?: string;
  readonly disabledAt?: string;
  readonly lastAttempt?: { readonly at: string; readonly outcome: string };
  readonly pendingAttempts?: number;
  /**
   * When the event being retried is tried next (ISO 8601): until then the endpoint's later changes wait behind it,
   * since an endpoint's events go one at a time, in order.
   */
  readonly nextAttemptAt?: string;
  readonly createdAt: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function endpointView(endpoint: WebhookEndpoint): EndpointView {
  return {
    endpointId: endpoint.endpointId,
    vendorId: endpoint.vendorId,
    url: endpoint.url,
    status: endpoint.status,
    ...(endpoint.disabledReason && { disabledReason: endpoint.disabledReason }),
    ...(endpoint.disabledAt !== undefined && { disabledAt: iso(endpoint.disabledAt) }),
    ...(endpoint.lastAttempt && {
      lastAttempt: { at: iso(endpoint.lastAttempt.at), outcome: endpoint.lastAttempt.outcome },
    }),
    ...(endpoint.pending && {
      pendingAttempts: endpoint.pending.attempts,
      nextAttemptAt: iso(endpoint.pending.dueAt),
    }),
    createdAt: iso(endpoint.createdAt),
  };
}

/** Endpoints of a vendor, or of every vendor, oldest first. */
export const listEndpoints = (client: DynamoDBDocumentClient, tableName: string, vendorId?: string) =>
  new EndpointStore(client, tableName).list(vendorId);

/** How much of a refused URL its refusal repeats: enough to recognise it, and the line stays a line. */
const SHOWN_URL_LENGTH = 200;

const shownUrl = (url: string) =>
  url.length > SHOWN_URL_LENGTH ? `${url.slice(0, SHOWN_URL_LENGTH)}…` : url;

/**
 * Adds an endpoint for a vendor (`EndpointStore.add`): its URL checked, and one line when it is refused or the vendor
 * has no place left.
 */
export async function addEndpoint(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  url: string,
  rules: UrlRules,
  localNow: () => number = Date.now,
): Promise<WebhookEndpoint> {
  const problem = webhookUrlProblem(url, rules);
  if (problem) throw new UserError(`--url ${JSON.stringify(shownUrl(url))} is refused: ${problem}.`);
  const placed = await new EndpointStore(client, tableName).add(vendorId, url, localNow);
  if ('added' in placed) return placed.added;
  throw placeRefused(vendorId, placed.refused, MAX_ENDPOINTS_PER_VENDOR, 'webhook endpoints');
}

/** The endpoint an update left, or the one line that there is none. */
function existing(endpointId: string, endpoint: WebhookEndpoint | undefined): WebhookEndpoint {
  if (endpoint === undefined) throw new UserError(`webhook endpoint "${endpointId}" does not exist.`);
  return endpoint;
}

/** Enables an endpoint: it resumes from its position, the first change it was not delivered. */
export const enableEndpoint = async (client: DynamoDBDocumentClient, tableName: string, endpointId: string) =>
  existing(endpointId, await new EndpointStore(client, tableName).enable(endpointId));

/** Disables an endpoint; nothing is sent to it until it is enabled again (and then nothing is lost). */
export const disableEndpoint = async (
  client: DynamoDBDocumentClient,
  tableName: string,
  endpointId: string,
  now = Date.now(),
) => existing(endpointId, await new EndpointStore(client, tableName).disableByOperator(endpointId, now));

/** A new secret; the previous one keeps signing every delivery, next to it, for 24 hours. */
export const rotateSecret = async (
  client: DynamoDBDocumentClient,
  tableName: string,
  endpointId: string,
  now = Date.now(),
) => existing(endpointId, await new EndpointStore(client, tableName).rotateSecret(endpointId, now));

/** Removes an endpoint and frees its place; undefined when there was none. */
export const removeEndpoint = (client: DynamoDBDocumentClient, tableName: string, endpointId: string) =>
  new EndpointStore(client, tableName).remove(endpointId);
