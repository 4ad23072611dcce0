/**
 * The API's routes (docs/api.md), written once for the functions, the stack, the local gateway and the tools: each
 * route's method and what its preflight allows (what the gateway answers by itself is `gateway-answers.ts`'s). The
 * listing's route serves the active listing and, with `updated_since`, the sync; the vacancy's route one vacancy. The
 * vacancies function serves both.
 * `POST /mcp` is the MCP server over the same data (docs/api.md#agents-mcp), served by a function of its own.
 */
import type { Preflight } from '../../platform/http/cors';

/** `GET /vendor/vacancies`: the vendor's active vacancies, or what changed (docs/api.md#incremental-sync). */
export const LISTING_PATH = '/vendor/vacancies';

/** The path parameter of the vacancy's route. */
export const VACANCY_ID_PARAMETER = 'id';

/** `GET /vendor/vacancies/{id}`: one active vacancy of the vendor (docs/api.md#one-vacancy), as API Gateway names the resource. */
export const VACANCY_RESOURCE = `${LISTING_PATH}/{${VACANCY_ID_PARAMETER}}`;

/** The routes of the listing function, as API Gateway names their resources. */
export const ROUTES = [LISTING_PATH, VACANCY_RESOURCE] as const;

/** `POST /mcp`: the MCP server (Streamable HTTP), a route of the MCP function. */
export const MCP_PATH = '/mcp';

/** The path parameter of a public agent endpoint: its token. */
export const AGENT_TOKEN_PARAMETER = 'token';

/**
 * `POST /mcp/{token}`: a vendor's MCP server with no key, the token its identity (docs/api.md#agents-mcp) — a route of
 * the MCP function behind an authorizer of its own, as API Gateway names the resource.
 */
export const MCP_AGENT_RESOURCE = `${MCP_PATH}/{${AGENT_TOKEN_PARAMETER}}`;

/** Every route of the API, as API Gateway names its resource. */
export type Route = (typeof ROUTES)[number] | typeof MCP_PATH | typeof MCP_AGENT_RESOURCE;

/** What a preflight of the vacancies routes allows: a GET, with the request headers a page sends. */
export const PREFLIGHT = {
  methods: 'GET, OPTIONS',
  headers: 'Authorization, Accept, Accept-Language, If-None-Match',
  maxAgeSeconds: 7200,
} as const satisfies Preflight;

/** The request headers of MCP's Streamable HTTP transport a page may send, besides a key's `Authorization`. */
const MCP_HEADERS = [
  'Accept',
  'Accept-Language',
  'Content-Type',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Session-Id',
] as const;

/**
 * What a preflight of the MCP route allows (docs/api.md#agents-mcp): a POST of JSON, with the headers of MCP's
 * Streamable HTTP transport — the protocol version, and the session id a client may send (the server keeps none).
 */
export const MCP_PREFLIGHT = {
  methods: 'POST, OPTIONS',
  headers: ['Authorization', ...MCP_HEADERS].join(', '),
  maxAgeSeconds: PREFLIGHT.maxAgeSeconds,
} as const satisfies Preflight;

/**
 * What a preflight of a public agent endpoint allows (docs/api.md#agents-mcp): the MCP route's POST, from any origin
 * and without credentials — no `Authorization`: the token in the path is all there is.
 */
export const MCP_AGENT_PREFLIGHT = {
  methods: MCP_PREFLIGHT.methods,
  headers: MCP_HEADERS.join(', '),
  maxAgeSeconds: PREFLIGHT.maxAgeSeconds,
} as const satisfies Preflight;

/** The method a route answers (besides `OPTIONS`, a page's preflight): the listing's GET, the MCP server's POST. */
export const ROUTE_METHOD = {
  [LISTING_PATH]: 'GET',
  [VACANCY_RESOURCE]: 'GET',
  [MCP_PATH]: 'POST',
  [MCP_AGENT_RESOURCE]: 'POST',
} as const satisfies Record<Route, string>;

/** What a preflight of each route allows. */
export const ROUTE_PREFLIGHT: Readonly<Record<Route, Preflight>> = {
  [LISTING_PATH]: PREFLIGHT,
  [VACANCY_RESOURCE]: PREFLIGHT,
  [MCP_PATH]: MCP_PREFLIGHT,
  [MCP_AGENT_RESOURCE]: MCP_AGENT_PREFLIGHT,
};

/**
 * The route of a raw request path, and the vacancy's id or the public endpoint's token segment as sent (undecoded) —
 * or undefined when no route has the path, exactly: `/vendor/vacancies/`, `/mcp/` (an empty segment) and deeper paths
 * have none.
 */
export function matchRoute(path: string): { route: Route; id?: string; token?: string } | undefined {
  if (path === LISTING_PATH) return { route: LISTING_PATH };
  if (path === MCP_PATH) return { route: MCP_PATH };
  if (path.startsWith(`${MCP_PATH}/`)) {
    const token = path.slice(MCP_PATH.length + 1);
    return token === '' || token.includes('/') ? undefined : { route: MCP_AGENT_RESOURCE, token };
  }
  const prefix = `${LISTING_PATH}/`;
  if (!path.startsWith(prefix)) return undefined;
  const id = path.slice(prefix.length);
  return id === '' || id.includes('/') ? undefined : { route: VACANCY_RESOURCE, id };
}
