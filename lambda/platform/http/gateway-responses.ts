/**
 * What API Gateway answers by itself, without a handler (docs/api.md#errors): its gateway responses in the
 * contract's envelope, the 405 of a method a route does not answer, and the message with which the authorizer asks
 * for a 401 — written once, made into templates by the stack and rendered for each request by the local server.
 */
import { crossOriginHeaders, withHeaders } from './cors';
import { ERROR_HEADERS, ERROR_MESSAGES, type ErrorStatus, errorEnvelope, RETRY_AFTER } from './errors';

/** The error message with which a Lambda authorizer makes API Gateway answer 401 (UNAUTHORIZED). */
export const AUTHORIZER_UNAUTHORIZED_MESSAGE = 'Unauthorized';

/** A response API Gateway produces itself (no handler runs), written once for the stack and the local server. */
export interface GatewayResponseDefinition {
  /** Status to answer with; absent, the status API Gateway chose is kept (DEFAULT_4XX, DEFAULT_5XX). */
  readonly statusCode?: ErrorStatus;
  /** The envelope's message. */
  readonly message: string;
  /** Headers besides those of every error (`ERROR_HEADERS`) and `X-Request-Id`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** API Gateway's response types that this API answers in the contract's envelope. */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'INVALID_API_KEY'
  | 'REQUEST_TOO_LARGE'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

const response = (
  statusCode: ErrorStatus,
  headers?: Readonly<Record<string, string>>,
): GatewayResponseDefinition => ({
  statusCode,
  message: ERROR_MESSAGES[statusCode],
  ...(headers && { headers }),
});

/**
 * The gateway responses (docs/api.md#errors). MISSING_AUTHENTICATION_TOKEN is what API Gateway
 * answers for a path or method with no route: here it is the 404 it really is. A key that could not be checked
 * — the authorizer failed, timed out or could not be invoked (API Gateway calls a thrown error a configuration
 * error) — is the 503 of a database that did not answer, never a 401 or a 500: the client should retry.
 */
export const GATEWAY_RESPONSES: Readonly<Record<GatewayResponseType, GatewayResponseDefinition>> = {
  UNAUTHORIZED: response(401, { 'WWW-Authenticate': 'Bearer' }),
  ACCESS_DENIED: response(403),
  MISSING_AUTHENTICATION_TOKEN: response(404),
  THROTTLED: response(429, RETRY_AFTER),
  QUOTA_EXCEEDED: response(429, RETRY_AFTER),
  AUTHORIZER_FAILURE: response(503, RETRY_AFTER),
  AUTHORIZER_CONFIGURATION_ERROR: response(503, RETRY_AFTER),
  // The caller's usage key is missing or in no usage plan: an operator's mistake (alarmed on), never the 403
  // that means "suspended".
  INVALID_API_KEY: response(500),
  // A body past API Gateway's 10 MB: no function is invoked.
  REQUEST_TOO_LARGE: response(413),
  DEFAULT_4XX: { message: ERROR_MESSAGES[400] },
  DEFAULT_5XX: { message: ERROR_MESSAGES[500] },
};

/** Another method on a route: a 405 naming those it answers (`allow`, OPTIONS too where a preflight is answered). */
export const methodNotAllowed = (allow: string): GatewayResponseDefinition => response(405, { Allow: allow });

/** The envelope as a template: API Gateway fills in `$context.requestId`. */
export function gatewayResponseTemplate(definition: GatewayResponseDefinition): string {
  return JSON.stringify(errorEnvelope(definition.message, '$context.requestId'));
}

/**
 * The full response, rendered for one request (the local server): with the CORS headers that let a page read it
 * when the request has an `Origin`, as the deployed gateway responses map them.
 */
export function renderGatewayResponse(
  definition: GatewayResponseDefinition,
  requestId: string,
  fallbackStatus = 500,
  origin?: string,
): { statusCode: number; headers: Record<string, string>; body: string } {
  return {
    statusCode: definition.statusCode ?? fallbackStatus,
    headers: withHeaders(
      { ...ERROR_HEADERS, ...definition.headers, 'X-Request-Id': requestId },
      crossOriginHeaders(origin, true),
    ),
    body: JSON.stringify(errorEnvelope(definition.message, requestId)),
  };
}
