/**
 * A public agent endpoint, the record (docs/api.md#agents-mcp): `POST /mcp/{token}` is a vendor's MCP server with no
 * key, the token in its path its identity. One item of the vendors table per endpoint (`agent#<id>`, kind `agent` on
 * the `by-kind` index, so a vendor's endpoints are one Query). Its id is drawn from its token (a digest), so that the
 * authorizer finds an endpoint by its token with one GetItem and an operator removes it by id; the token cannot be
 * told from the id. Its persistence is `agent-store.ts`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Endpoints a vendor may have. */
export const MAX_AGENTS_PER_VENDOR = 5;

/** An endpoint as stored. */
export interface Agent {
  /** `ag_` and 16 base64url characters of the token's digest. */
  readonly agentId: string;
  readonly vendorId: string;
  /** What its URL is unguessable by: base64url of `AGENT_TOKEN_BYTES` random bytes. */
  readonly token: string;
  /**
   * The value of its API Gateway API key, in the `agent` rate tier's usage plan: the authorizer hands it over, and
   * the endpoint's requests are throttled apart from every other endpoint and key (docs/api.md#rate-limits).
   */
  readonly usageKey: string;
  /** The id of that API key on a deployed stack; absent locally. */
  readonly usageKeyId?: string;
  /** When it was added, by the service's clock (ms). */
  readonly createdAt: number;
}

/** Random bytes of a token: 192 bits, where at least 128 are asked for; 32 base64url characters. */
export const AGENT_TOKEN_BYTES = 24;

/** A token, exactly as `newAgentToken` writes one: a path's token is looked up only when it is one. */
export const AGENT_TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** A new endpoint's token. */
export const newAgentToken = (): string => randomBytes(AGENT_TOKEN_BYTES).toString('base64url');

/** The id of the endpoint whose token this is: `ag_` and 96 bits of its SHA-256, base64url. */
export const agentIdOf = (token: string): string =>
  `ag_${createHash('sha256').update(token).digest().subarray(0, 12).toString('base64url')}`;

/** An endpoint's id, as `agentIdOf` writes one. */
export const AGENT_ID = /^ag_[A-Za-z0-9_-]{16}$/;

/** Key of an endpoint's item. */
export const agentItemKey = (agentId: string) => ({ pk: `agent#${agentId}` });

/** Whether a stored endpoint is the one of this token (in constant time: the id is only part of its digest). */
export function isTokenOf(agent: Pick<Agent, 'token'>, token: string): boolean {
  const [a, b] = [Buffer.from(agent.token), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The path of every public endpoint, under the API's base: `/mcp/<token>`. */
export const agentPath = (token: string): string => `/mcp/${token}`;

/** An endpoint's URL: the API's base URL (no trailing slash) and its path. */
export const agentUrl = (base: string, agent: Pick<Agent, 'token'>): string =>
  `${base}${agentPath(agent.token)}`;

/**
 * The usage key every request on a token that is no endpoint (unknown, removed, malformed, or a suspended vendor's)
 * counts under, in the `agent` rate tier's usage plan: one bucket for all of them, apart from every real endpoint's.
 * Drawn from the name of the deployment's vendors table, which the stack (that creates the API key) and the authorizer
 * both know, and no other deployment in the account shares.
 */
export const notFoundAgentsUsageKey = (vendorsTable: string): string => `${vendorsTable}.agent-not-found`;
