/**
 * What the API's gateway answers by itself beyond the platform's gateway responses, written once for the stack and
 * the local server (no function bundles them): each route's 405 of another method, and the local server's 400 of a
 * query sent unencoded.
 */
import { type GatewayResponseDefinition, methodNotAllowed } from '../../platform/http/gateway-responses';
import { ROUTE_PREFLIGHT, type Route } from './routes';

/** Another method on a route: a 405 naming those it answers, OPTIONS included (served by mock integrations in AWS). */
export const routeMethodNotAllowed = (route: Route): GatewayResponseDefinition =>
  methodNotAllowed(ROUTE_PREFLIGHT[route].methods);

/**
 * A query with a byte that must be percent-encoded — one outside printable ASCII, such as the raw UTF-8 of `bakı`
 * that curl sends as typed: the local server's 400 naming the cause (docs/design.md#a-query-sent-unencoded). A
 * deployment's gateway answers such a request with its DEFAULT_4XX, which cannot tell the cause.
 */
export const UNENCODED_QUERY: GatewayResponseDefinition = {
  statusCode: 400,
  message: 'The query must be percent-encoded (UTF-8): q=bakı is sent as q=bak%C4%B1.',
};
