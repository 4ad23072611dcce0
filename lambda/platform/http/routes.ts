/**
 * The API's routes (docs/api.md), written once for the functions, the stack, the local gateway and the tools. The
 * listing's route serves the active listing and, with `updated_since`, the sync; the vacancy's route one vacancy.
 * The listing function serves both. `POST /mcp` is the MCP server over the same data (docs/api.md#agents-mcp), served
 * by a function of its own.
 */

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

/** Every route of the API, as API Gateway names its resource. */
export type Route = (typeof ROUTES)[number] | typeof MCP_PATH;

/** The method a route answers (besides `OPTIONS`, a page's preflight): the listing's GET, the MCP server's POST. */
export const ROUTE_METHOD = {
  [LISTING_PATH]: 'GET',
  [VACANCY_RESOURCE]: 'GET',
  [MCP_PATH]: 'POST',
} as const satisfies Record<Route, string>;

/**
 * The route of a raw request path, and the vacancy's id segment as sent (undecoded) — or undefined when no route
 * has the path, exactly: `/vendor/vacancies/` (an empty segment) and deeper paths have none.
 */
export function matchRoute(path: string): { route: Route; id?: string } | undefined {
  if (path === LISTING_PATH) return { route: LISTING_PATH };
  if (path === MCP_PATH) return { route: MCP_PATH };
  const prefix = `${LISTING_PATH}/`;
  if (!path.startsWith(prefix)) return undefined;
  const id = path.slice(prefix.length);
  return id === '' || id.includes('/') ? undefined : { route: VACANCY_RESOURCE, id };
}
