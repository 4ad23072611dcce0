/**
 * The public agent endpoints' persistence (docs/api.md#agents-mcp): every read and write of an endpoint's item — the
 * operator's add and remove (`lib/ops/agents.ts`), a vendor's endpoints in one Query, an endpoint by id, and the
 * authorizer's look-up by token (one GetItem, eventually consistent). At most `MAX_AGENTS_PER_VENDOR` a vendor,
 * however many adds race: a place is taken first (`domain/store/vendor-places.ts`, `agent-places#<vendor>`), as for
 * feeds and webhook endpoints.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ITEM_KIND } from '../schema/vendors';
import { serverClock } from '../store/clock';
import { type Placed, type PlacedKind, PlacedThings } from '../store/vendor-places';
import { type Agent, agentIdOf, agentItemKey, MAX_AGENTS_PER_VENDOR, newAgentToken } from './agent';

/** A vendor's places for public agent endpoints. */
const AGENT_PLACES: PlacedKind = {
  places: 'agent-places',
  kind: ITEM_KIND.agent,
  idAttribute: 'agentId',
  itemKey: agentItemKey,
  max: MAX_AGENTS_PER_VENDOR,
};

/** The agent endpoint items of one vendors table: by id, a vendor's, every vendor's, removed (`PlacedThings`). */
export class AgentStore extends PlacedThings<Agent> {
  constructor(client: DynamoDBDocumentClient, vendorsTable: string) {
    super(client, vendorsTable, AGENT_PLACES);
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
}
