/**
 * The MCP function's handler, as wiring (docs/api.md#agents-mcp): `POST /mcp` from API Gateway — after its authorizer,
 * usage plans and the key's policy of use, as the listing's routes — handed to the official MCP SDK's v2 server,
 * stateless (no session) and answering JSON (no stream), with one server per request (`server.ts`): a request of the
 * 2026-07-28 revision (its version and client in `_meta`, its headers checked against its body) through the SDK's
 * `createMcpHandler`, one of 2025-11-25 or 2025-06-18 (after `initialize`) through its stateless web-standard
 * transport. A refusal of the key or a failure of the reads is answered in the contract's envelope, as the listing's;
 * what the client sends is read only after that — JSON-RPC's errors for a malformed message.
 */
import {
  createMcpHandler as createSdkHandler,
  INVALID_PARAMS,
  INVALID_REQUEST,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { AnswerDependencies } from '../../domain/answers/dependencies';
import { HeldEntries } from '../../domain/answers/search/held-entries';
import { recordServedPage, recordServedVacancy } from '../../domain/answers/served';
import { authorizedVendor, requestVendor } from '../../domain/keys/context';
import { checkKeyUse } from '../../domain/keys/key-use';
import { FUNCTION_LIMITS } from '../../domain/service/limits';
import { MCP_AGENT_RESOURCE } from '../../domain/service/routes';
import { findTier, rateLimitPolicy } from '../../domain/settings/rate-tiers';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { crossOriginHeaders, withHeaders } from '../../platform/http/cors';
import { HttpError } from '../../platform/http/errors';
import { requestHeader } from '../../platform/http/headers';
import { httpRoute } from '../../platform/http/middleware';
import { proxyResult, webRequest } from '../../platform/http/web-standard';
import { createMcpServer } from './server';

/**
 * The largest message the server reads (docs/api.md#agents-mcp): a tool call takes a few hundred bytes, and a larger
 * body is JSON-RPC's 413 (the SDK's own answer) before it is read further — API Gateway would take up to 10 MB.
 */
export const MCP_MAX_MESSAGE_BYTES = 64 * 1024;

/** What precedes a message and is no part of it: byte-order marks (the SDK's decoder drops one) and JSON's blanks. */
const LEADING = /^[\ufeff \t\n\r]*/;

/** JSON's blanks before a value. */
const JSON_BLANKS = /^[ \t\n\r]*/;

/** A JSON-RPC error the server answers itself, before the SDK reads the message. */
const jsonRpcError = (status: number, id: unknown, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status });

/** What the server makes of a request's body before the SDK sees it. */
interface ReadMessage {
  /** Its answer when the server refuses the message itself. */
  readonly refused?: Response;
  /**
   * The message, parsed exactly as the SDK would parse the body (its decoder drops one byte-order mark), handed to it
   * so that it reads, clones and parses nothing; absent when the SDK is to read the body itself (larger than the size
   * read, not JSON): its answers to those stay its own.
   */
  readonly parsed?: { readonly message: unknown };
}

/**
 * Reads a request's body, within the size read (a larger body is the SDK's 413), and refuses of it before the SDK
 * reads it:
 * - a batch — a body that is a JSON array, whatever precedes it (byte-order marks, blanks): 400 and JSON-RPC's
 *   -32600. MCP's versions of this server have no batches, and one request carrying many calls would pass the key's
 *   rate tier and its metering as one. The SDK's decoder drops a byte-order mark, so the check reads past it too;
 * - a tool call whose `arguments` is not a JSON object (`null`, an array, a string …): JSON-RPC's -32602, saying so
 *   in one line — the SDK's own answer would carry its schema library's list of issues.
 * Anything else, a body that is not JSON included, is the SDK's to answer.
 *
 * The body the SDK would read is handed to it parsed: left to itself, it reads a request's body as a stream twice
 * (once to tell the protocol's revisions apart, once to serve it), and releasing the first stream reader of a
 * process makes Node build an error of its own and read its stack — which, in a bundle that maps its stack traces
 * (`platform/observability/stack-traces.ts`), parses the whole source map on a container's first request
 * (docs/design.md#cold-start).
 */
function readMessage(event: APIGatewayProxyEvent): ReadMessage {
  if (event.body === null) return {};
  const body = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(body) > MCP_MAX_MESSAGE_BYTES) return {};
  const text = body.replace(LEADING, '');
  // As the SDK's own refusals of a message: no request is known, so the id is null.
  if (text.startsWith('['))
    return {
      refused: jsonRpcError(
        400,
        null,
        INVALID_REQUEST,
        'Invalid Request: one JSON-RPC message per request, not a batch',
      ),
    };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return {};
  }
  // The SDK's reading of the same body: one byte-order mark dropped (its decoder's), then JSON, whose blanks are
  // JSON's own. A body with another mark before its message is not JSON to the SDK: it is left to the SDK to answer.
  const sdkText = body.startsWith('\ufeff') ? body.slice(1) : body;
  const parsed = sdkText.replace(JSON_BLANKS, '') === text ? { message } : undefined;
  const read = parsed ? { parsed } : {};
  if (typeof message !== 'object' || message === null) return read;
  const { id, method, params } = message as Record<string, unknown>;
  if (method !== 'tools/call' || typeof params !== 'object' || params === null) return read;
  if (!Object.hasOwn(params, 'arguments')) return read;
  const args = (params as Record<string, unknown>).arguments;
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) return read;
  const echoed = typeof id === 'string' || typeof id === 'number' ? id : null;
  return {
    refused: jsonRpcError(200, echoed, INVALID_PARAMS, 'Invalid params: the arguments must be a JSON object'),
  };
}

/** `POST /mcp` as one Middy-wrapped Lambda handler for API Gateway REST proxy events. */
export function createMcpHandler(dependencies: AnswerDependencies) {
  const { repository, settings, logger, metrics, now = () => new Date() } = dependencies;
  const reserveMs = dependencies.reserveMs ?? FUNCTION_LIMITS.mcp.reserveMs;
  const heldEntries = dependencies.heldEntries ?? new HeldEntries();

  const route = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    logger.setCorrelationId(event.requestContext.requestId);
    const origin = requestHeader(event, 'Origin');
    const vendor = publicEndpoint(event) ? endpointVendor(event) : requestVendor(event);
    // Who may ask, as on the listing (docs/api.md#from-a-web-page): before anything the client sent is read. A public
    // endpoint is for anyone, from any origin.
    if (vendor.agentId === undefined) checkKeyUse(vendor, origin, false);
    let failed: { error: unknown } | undefined;
    const server = () =>
      createMcpServer(
        {
          vendor,
          acceptLanguage: requestHeader(event, 'Accept-Language'),
          now: now(),
          signal: deadlineSignal(context, reserveMs),
          repository,
          settings,
          heldEntries,
        },
        {
          searched: (served) =>
            recordServedPage(
              logger,
              metrics,
              vendor.vendorId,
              { ...served, items: served.vacancies.length },
              event.requestContext.requestId,
            ),
          shown: (served) =>
            recordServedVacancy(logger, metrics, vendor.vendorId, served, event.requestContext.requestId),
          failed: (error) => {
            failed ??= { error };
          },
        },
      );
    const read = readMessage(event);
    const response = read.refused ?? (await serve(webRequest(event), server, read.parsed));
    // A read that failed (DynamoDB's 503) or a bug (500) is the request's answer, in the envelope.
    if (failed) throw failed.error;
    const result = await proxyResult(response);
    const tier = findTier(settings.rateTiers, vendor.rateTier);
    return {
      ...result,
      headers: withHeaders(
        {
          ...result.headers,
          'Cache-Control': 'no-store',
          ...(tier &&
            result.statusCode === 200 && { 'RateLimit-Policy': rateLimitPolicy(vendor.rateTier, tier) }),
        },
        crossOriginHeaders(origin, true),
      ),
    };
  };

  return httpRoute(route, { logger, metrics, reserveMs });
}

/** Whether the request came through a public agent endpoint, `POST /mcp/{token}`, rather than with a key. */
const publicEndpoint = (event: APIGatewayProxyEvent) => event.resource === MCP_AGENT_RESOURCE;

/**
 * The vendor of a public agent endpoint, from its authorizer's context; a token that is no endpoint (unknown, removed,
 * malformed, a suspended vendor's: the authorizer names no vendor) is the 404 in the envelope — the same bytes whatever
 * the token, its request id aside.
 */
function endpointVendor(event: APIGatewayProxyEvent) {
  const vendor = authorizedVendor(event.requestContext.authorizer);
  if (vendor?.agentId === undefined) throw new HttpError(404);
  return vendor;
}

/**
 * Serves one request with a server of its own (`server`): one of the 2026-07-28 revision through the SDK's
 * `createMcpHandler`, which checks its version, `_meta` and headers (no 2025-era request: `legacy: 'reject'`); one of
 * the 2025 revisions — an `initialize`, or a request after it — through the SDK's stateless web-standard transport,
 * answering JSON rather than an event stream, which checks its `MCP-Protocol-Version` against the server's versions.
 * The message, when the server has read it (`parsed`), is handed to both as they would have parsed it themselves.
 */
async function serve(
  request: Request,
  server: () => ReturnType<typeof createMcpServer>,
  parsed: ReadMessage['parsed'],
): Promise<Response> {
  const given = parsed && { parsedBody: parsed.message };
  if (!(await isLegacyRequest(request, given?.parsedBody, { maxRequestBodySize: MCP_MAX_MESSAGE_BYTES }))) {
    return createSdkHandler(server, { legacy: 'reject', maxRequestBodySize: MCP_MAX_MESSAGE_BYTES }).fetch(
      request,
      given,
    );
  }
  const legacy = server();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_MESSAGE_BYTES,
  });
  try {
    await legacy.connect(transport);
    return await transport.handleRequest(request, given);
  } finally {
    await legacy.close();
  }
}
