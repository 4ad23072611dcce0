/**
 * The public agent endpoints' persistence (docs/api.md#agents-mcp): every read and write of an endpoint's item — the
 * operator's add and remove (`lib/ops/agents.ts`), a vendor's endpoints in one Query, an endpoint by id, and the
 * authorizer's look-up by token (one GetItem, eventually consistent). At most `MAX_AGENTS_PER_VENDOR` a vendor,
 * however many adds race: a place is taken first (`domain/store/vendor-places.ts`, `agent-places#<vendor>`), as for
 * feeds and webhook endpoints.
 */
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../../platform/dynamodb/query-all';
import { VENDOR_INDEXES } from '../schema/tables';
import { ITEM_KIND } from '../schema/vendors';
import { serverClock } from '../store/clock';
import { type Placed, type PlacedKind, VendorPlaces } from '../store/vendor-places';
import { type Agent, agentIdOf, agentItemKey, MAX_AGENTS_PER_VENDOR, newAgentToken } from './agent';

/** A vendor's places for public agent endpoints. */
const AGENT_PLACES: PlacedKind = {
  places: 'agent-places',
  kind: ITEM_KIND.agent,
  idAttribute: 'agentId',
  itemKey: agentItemKey,
  max: MAX_AGENTS_PER_VENDOR,
};

/** The agent endpoint items of one vendors table. */
export class AgentStore {
  private readonly places: VendorPlaces;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly vendorsTable: string,
  ) {
    this.places = new VendorPlaces(client, vendorsTable, AGENT_PLACES);
  }

  /**
   * Adds an endpoint of a vendor, with a new token (its id drawn from it) — or the one given (a seed's) — and the
   * usage key `usageKey` makes for it, made at the service's time; refused when the vendor has its
   * `MAX_AGENTS_PER_VENDOR`. Whether the vendor exists is the caller's to know.
   */
  async add(
    vendorId: string,
    usageKey: () => { readonly usageKey: string; readonly usageKeyId?: string },
    options: { readonly token?: string; readonly localNow?: () => number } = {},
  ): Promise<Placed<Agent>> {
    const now = serverClock(this.client, options.localNow ?? Date.now);
    const tokens = new Map<string, string>();
    return this.places.add(
      vendorId,
      () => {
        const token = options.token ?? newAgentToken();
        const agentId = agentIdOf(token);
        tokens.set(agentId, token);
        return agentId;
      },
      (agentId): Agent => ({
        agentId,
        vendorId,
        token: tokens.get(agentId) as string,
        ...usageKey(),
        createdAt: now(),
      }),
      now,
    );
  }

  /** One endpoint by id, read strongly; undefined when there is none. */
  async get(agentId: string): Promise<Agent | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.vendorsTable, Key: agentItemKey(agentId), ConsistentRead: true }),
    );
    return Item ? agentOf(Item) : undefined;
  }

  /** A vendor's endpoints, oldest first: one Query of the `by-kind` index (a vendor has at most five). */
  async ofVendor(vendorId: string): Promise<Agent[]> {
    return this.query({ ':kind': ITEM_KIND.agent, ':vendorId': vendorId });
  }

  /** Every vendor's endpoints, by vendor, oldest first. */
  async all(): Promise<Agent[]> {
    return this.query({ ':kind': ITEM_KIND.agent });
  }

  private async query(values: Record<string, string>): Promise<Agent[]> {
    const items = await queryAll(this.client, {
      TableName: this.vendorsTable,
      IndexName: VENDOR_INDEXES.byKind,
      KeyConditionExpression: `kind = :kind${values[':vendorId'] ? ' AND vendorId = :vendorId' : ''}`,
      ExpressionAttributeValues: values,
    });
    return items
      .map(agentOf)
      .sort(
        (a, b) =>
          a.vendorId.localeCompare(b.vendorId) ||
          a.createdAt - b.createdAt ||
          a.agentId.localeCompare(b.agentId),
      );
  }

  /** Removes an endpoint's item and frees its place; the endpoint as it was, or undefined when there was none. */
  async remove(agentId: string): Promise<Agent | undefined> {
    const removed = await this.places.remove(agentId);
    return removed && agentOf(removed);
  }
}

/** An endpoint item as the record (its key and kind left out). */
export function agentOf(item: Record<string, unknown>): Agent {
  const { pk: _pk, kind: _kind, ...agent } = item;
  return agent as unknown as Agent;
}
