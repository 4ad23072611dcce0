/**
 * The MCP function's handler, as wiring (docs/api.md#agents-mcp): `POST /mcp` from API Gateway — after its authorizer,
 * usage plans and the key's policy of use, as the listing's routes — handed to the MCP SDK's web-standard Streamable
 * HTTP transport, stateless (no session) and answering JSON (no stream), with one server per request
 * (`server.ts`). A refusal of the key or a failure of the reads is answered in the contract's envelope, as the
 * listing's; what the client sends is read only after that, by the SDK — JSON-RPC's errors for a malformed message.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { AnswerDependencies } from '../../domain/answers/dependencies';
import { HeldEntries } from '../../domain/answers/search/held-entries';
import { recordServedPage, recordServedVacancy } from '../../domain/answers/served';
import { requestVendor } from '../../domain/keys/context';
import { checkKeyUse } from '../../domain/keys/key-use';
import { FUNCTION_LIMITS } from '../../domain/service/limits';
import { findTier, rateLimitPolicy } from '../../domain/settings/rate-tiers';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import { crossOriginHeaders, withHeaders } from '../../platform/http/cors';
import { requestHeader } from '../../platform/http/headers';
import { httpRoute } from '../../platform/http/middleware';
import { proxyResult, webRequest } from '../../platform/http/web-standard';
import { createMcpServer } from './server';

/**
 * The largest message the server reads (docs/api.md#agents-mcp): a tool call takes a few hundred bytes, and a larger
 * body is JSON-RPC's 413 (the SDK's own answer) before it is read further — API Gateway would take up to 10 MB.
 */
export const MCP_MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * JSON-RPC's answer to a batch — a body that is a JSON array — within the size read (a larger body is the SDK's 413):
 * MCP's versions of this server (2025-06-18 on) have no batches, and one request carrying many calls would pass the
 * key's rate tier and its metering as one. The SDK still takes them for older clients; this server does not.
 */
function batchRefused(event: APIGatewayProxyEvent): Response | undefined {
  if (event.body === null) return undefined;
  const body = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(body) > MCP_MAX_MESSAGE_BYTES || !/^[ \t\n\r]*\[/.test(body)) return undefined;
  // As the SDK's own refusals of a message: no request is known, so the id is null.
  const refusal = {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: ErrorCode.InvalidRequest,
      message: 'Invalid Request: one JSON-RPC message per request, not a batch',
    },
  };
  return Response.json(refusal, { status: 400 });
}

/** `POST /mcp` as one Middy-wrapped Lambda handler for API Gateway REST proxy events. */
export function createMcpHandler(dependencies: AnswerDependencies) {
  const { repository, settings, logger, metrics, now = () => new Date() } = dependencies;
  const reserveMs = dependencies.reserveMs ?? FUNCTION_LIMITS.mcp.reserveMs;
  const heldEntries = dependencies.heldEntries ?? new HeldEntries();

  const route = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    logger.setCorrelationId(event.requestContext.requestId);
    const vendor = requestVendor(event);
    const origin = requestHeader(event, 'Origin');
    // Who may ask, as on the listing (docs/api.md#from-a-web-page): before anything the client sent is read.
    checkKeyUse(vendor, origin, false);
    let failed: { error: unknown } | undefined;
    const server = createMcpServer(
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
    // Stateless: no session id, one transport per request; JSON answers rather than an event stream.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_MAX_MESSAGE_BYTES,
    });
    try {
      await server.connect(transport);
      const response = batchRefused(event) ?? (await transport.handleRequest(webRequest(event)));
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
    } finally {
      await server.close();
    }
  };

  return httpRoute(route, { logger, metrics, reserveMs });
}
