/**
 * The operator's public agent endpoints (docs/operating.md#public-agent-endpoints): add, list, remove — over the
 * record's persistence (`lambda/domain/agent-registry/agent-store.ts`), with what only the CLI does: the vendor that
 * must exist, the endpoint's API key in the `agent` usage plan on a deployed stack (created before the record,
 * deleted after it), an endpoint as `agent list` shows it (its URL under the API's base) and the one-line refusals.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Agent, agentUrl, MAX_AGENTS_PER_VENDOR } from '../../lambda/domain/agent-registry/agent';
import { AgentStore } from '../../lambda/domain/agent-registry/agent-store';
import { UserError } from './errors';
import { createAgentUsageKey, deleteAgentUsageKey, type UsageKeyContext } from './usage-keys';
import { generateUsageKey, placeRefused, requireVendor } from './vendors';

/** An endpoint as `agent list` shows it: its URL rather than its token, its time in ISO 8601. */
export interface AgentView {
  readonly agentId: string;
  readonly vendorId: string;
  readonly url: string;
  readonly createdAt: string;
}

export const agentView = (agent: Agent, base: string): AgentView => ({
  agentId: agent.agentId,
  vendorId: agent.vendorId,
  url: agentUrl(base, agent),
  createdAt: new Date(agent.createdAt).toISOString(),
});

/** Where the endpoints are: the tables, and on a deployed stack its usage plans (none locally). */
export interface AgentTarget {
  readonly documentClient: DynamoDBDocumentClient;
  readonly vendorsTable: string;
  readonly usageKeys?: UsageKeyContext | undefined;
}

/**
 * Adds a public agent endpoint of an existing vendor: on a deployed stack its API key first, in the `agent` plan (and
 * deleted again when the vendor is refused); refused in one line for an unknown vendor or a vendor with five.
 */
export async function addAgent(target: AgentTarget, vendorId: string): Promise<Agent> {
  const { documentClient, vendorsTable, usageKeys } = target;
  await requireVendor(documentClient, vendorsTable, vendorId);
  const usageKey = generateUsageKey();
  const usageKeyId = usageKeys && (await createAgentUsageKey(usageKeys, vendorId, usageKey));
  const placed = await new AgentStore(documentClient, vendorsTable).add(vendorId, () => ({
    usageKey,
    ...(usageKeyId && { usageKeyId }),
  }));
  if ('added' in placed) return placed.added;
  if (usageKeys && usageKeyId) await deleteAgentUsageKey(usageKeys, usageKeyId);
  throw placeRefused(vendorId, placed.refused, MAX_AGENTS_PER_VENDOR, 'public agent endpoints');
}

/** Endpoints of a vendor (one Query), or of every vendor. */
export function listAgents(target: AgentTarget, vendorId?: string): Promise<Agent[]> {
  const store = new AgentStore(target.documentClient, target.vendorsTable);
  return vendorId ? store.ofVendor(vendorId) : store.all();
}

/**
 * Removes an endpoint: its record and place (its URL answers 404 from the next request locally, and once the
 * authorizer's cache of its token expires on AWS), then its API key. Refused in one line when there is no such
 * endpoint. Returns the endpoint as it was.
 */
export async function removeAgent(target: AgentTarget, agentId: string): Promise<Agent> {
  const store = new AgentStore(target.documentClient, target.vendorsTable);
  const agent = (await store.remove(agentId)) ?? undefined;
  if (!agent) throw new UserError(`public agent endpoint "${agentId}" does not exist.`);
  if (target.usageKeys && agent.usageKeyId) await deleteAgentUsageKey(target.usageKeys, agent.usageKeyId);
  return agent;
}
