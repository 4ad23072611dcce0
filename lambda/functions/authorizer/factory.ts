/**
 * The TOKEN authorizer (docs/api.md#authentication): from the `Authorization` header to what API Gateway makes of
 * it — an Allow carrying the vendor's usage key and context, a Deny (403) for a suspended vendor, `Unauthorized`
 * (401) for a refused key, a failure (the 503) for a key that could not be checked. Built from its dependencies:
 * the entry point (`handler.ts`) makes them once per container, the tests their own.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayRequestAuthorizerEvent,
  APIGatewayTokenAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { notFoundAgentsUsageKey } from '../../domain/agent-registry/agent';
import { authorizerContext } from '../../domain/keys/context';
import { FUNCTION_LIMITS } from '../../domain/service/limits';
import type { FunctionMetrics } from '../../domain/service/metrics';
import { AGENT_TOKEN_PARAMETER, MCP_AGENT_RESOURCE, MCP_PATH } from '../../domain/service/routes';
import { AGENT_TIER, keyTier } from '../../domain/settings/rate-tiers';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import type { ReadClient } from '../../platform/dynamodb/read-client';
import { AUTHORIZER_UNAUTHORIZED_MESSAGE } from '../../platform/http/gateway-responses';
import { findAgent } from './agent-lookup';
import { bearerToken } from './bearer';
import { KeyCheckFailedError, KeyRefusedError, MissingUsageKeyError } from './errors';
import { findApiKey, hashApiKey } from './key-lookup';
import { getVendor } from './vendor-lookup';

/** What the authorizer is built from; the Lambda entry point makes them once per container. */
export interface AuthorizerDependencies {
  readonly client: ReadClient;
  readonly vendorsTable: string;
  readonly logger: Logger;
  /** The function's metrics (`domain/service/metrics.ts`). */
  readonly metrics: FunctionMetrics;
  /** Kept back from the remaining time to fail in (docs/design.md#time-budget). */
  readonly reserveMs?: number;
}

/**
 * The resources an Allow or Deny covers: every GET method of the stage, and the MCP server's POST. API Gateway
 * caches the answer per token, so it must fit every route the same token may call, not only the method that asked.
 * `arn:aws:execute-api:region:account:apiId/stage/GET/vendor/vacancies` → `…:apiId/stage/GET/*` and
 * `…:apiId/stage/POST/mcp`.
 */
export function stageMethods(methodArn: string): string[] {
  const [apiArn, stage] = methodArn.split('/');
  return [`${apiArn}/${stage}/GET/*`, `${apiArn}/${stage}/POST${MCP_PATH}`];
}

/**
 * The resource a public agent endpoint's Allow covers: the public MCP route's POST, any token — the answer is cached
 * per token, and a token is only ever one path. `…:apiId/stage/POST/mcp/<token>` → `…:apiId/stage/POST/mcp/*`.
 */
export function agentMethods(methodArn: string): string[] {
  const [apiArn, stage] = methodArn.split('/');
  return [`${apiArn}/${stage}/POST${MCP_AGENT_RESOURCE.replace(`{${AGENT_TOKEN_PARAMETER}}`, '*')}`];
}

function policy(
  effect: 'Allow' | 'Deny',
  principalId: string,
  methodArn: string,
  resources: (methodArn: string) => string[] = stageMethods,
): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resources(methodArn) }],
    },
  };
}

/** An event of either of the API's authorizers: the keys' TOKEN authorizer, or the public endpoints' REQUEST one. */
export type AuthorizerEvent = APIGatewayTokenAuthorizerEvent | APIGatewayRequestAuthorizerEvent;

/**
 * The TOKEN authorizer: `Authorization` header → SHA-256 → key item → vendor (two GetItems; the vendor is not
 * copied onto its keys, so suspending or renaming it needs no rewrite of every key). Unknown, revoked or
 * malformed → 401; suspended vendor → an explicit Deny (403); otherwise Allow, with the vendor's usage key as
 * `usageIdentifierKey` (its rate tier's usage plan throttles it) and `{ vendorId, company, rateTier }` (and its
 * `website` and `logo` when set, the key's kind and a publishable key's origins) as context. A publishable key
 * counts against the vendor's browser usage key and tier (docs/api.md#from-a-web-page). Both reads run under the request's deadline; a failure or a deadline spent fails the invocation (a
 * 503 at the gateway), logged as an error. The token is never logged.
 */
export function createAuthorizerHandler(dependencies: AuthorizerDependencies) {
  const { client, vendorsTable, logger, metrics } = dependencies;
  const reserveMs = dependencies.reserveMs ?? FUNCTION_LIMITS.authorizer.reserveMs;

  /**
   * The public agent endpoints' REQUEST authorizer (docs/api.md#agents-mcp), on the path's `{token}`: the endpoint of
   * an active vendor is an Allow carrying the endpoint's usage key (the `agent` tier's plan throttles each endpoint
   * apart) and the vendor's context, as a secret key's; any other token — malformed, unknown, removed, a suspended
   * vendor's — an Allow with no vendor, which the MCP function answers 404, the same bytes whatever the token, under
   * one usage key for all of them. The token is never logged.
   */
  const decideAgent = async (
    event: APIGatewayRequestAuthorizerEvent,
    signal: AbortSignal,
  ): Promise<APIGatewayAuthorizerResult> => {
    const agent = await findAgent(
      client,
      vendorsTable,
      event.pathParameters?.[AGENT_TOKEN_PARAMETER],
      signal,
    );
    const vendor = agent && (await getVendor(client, vendorsTable, agent.vendorId, signal));
    if (!agent || !vendor || vendor.status !== 'active') {
      logger.info('Public endpoint not found', {
        ...(agent && { agentId: agent.agentId, vendorId: agent.vendorId }),
      });
      return {
        ...policy('Allow', 'agent-not-found', event.methodArn, agentMethods),
        usageIdentifierKey: notFoundAgentsUsageKey(vendorsTable),
        context: {},
      };
    }
    logger.info('Allowed', { agentId: agent.agentId, vendorId: vendor.vendorId, rateTier: AGENT_TIER });
    return {
      ...policy('Allow', vendor.vendorId, event.methodArn, agentMethods),
      usageIdentifierKey: agent.usageKey,
      context: authorizerContext({
        vendorId: vendor.vendorId,
        company: vendor.company,
        rateTier: AGENT_TIER,
        website: vendor.website,
        logo: vendor.logo,
        keyKind: 'secret',
        agentId: agent.agentId,
      }),
    };
  };

  const decide = async (event: AuthorizerEvent, signal: AbortSignal): Promise<APIGatewayAuthorizerResult> => {
    if (event.type === 'REQUEST') return decideAgent(event, signal);
    const token = bearerToken(event.authorizationToken);
    if (!token) {
      logger.info('Rejected: not a Bearer header');
      throw new KeyRefusedError();
    }
    const key = await findApiKey(client, vendorsTable, hashApiKey(token), signal);
    if (!key || key.revokedAt) {
      logger.info(key ? 'Rejected: revoked key' : 'Rejected: unknown key', { keyId: key?.keyId });
      throw new KeyRefusedError();
    }
    const vendor = await getVendor(client, vendorsTable, key.vendorId, signal);
    if (!vendor) {
      logger.warn('Rejected: key of a vendor that does not exist', {
        keyId: key.keyId,
        vendorId: key.vendorId,
      });
      throw new KeyRefusedError();
    }
    if (vendor.status !== 'active') {
      logger.info('Denied: vendor suspended', { keyId: key.keyId, vendorId: vendor.vendorId });
      return policy('Deny', vendor.vendorId, event.methodArn);
    }
    // A publishable key counts against the vendor's browser tier, apart from its secret keys' tier.
    const publishable = key.keyKind === 'publishable';
    const { tier: rateTier, usageKey } = keyTier(publishable ? 'publishable' : 'secret', vendor);
    if (!usageKey || !rateTier) {
      // An operator's mistake (the vendor was never given its usage key): without one, its requests would count
      // against no tier. Not an Allow: an error, logged (and alarmed on), answered as the 503.
      throw new MissingUsageKeyError(vendor.vendorId);
    }
    logger.info('Allowed', { keyId: key.keyId, vendorId: vendor.vendorId, rateTier });
    return {
      ...policy('Allow', vendor.vendorId, event.methodArn),
      // API Gateway throttles the request under the usage plan this key is in: the vendor's tier.
      usageIdentifierKey: usageKey,
      // Cached with the answer, per key: the origin of each request is the listing's to check against it.
      context: authorizerContext({
        vendorId: vendor.vendorId,
        company: vendor.company,
        rateTier,
        website: vendor.website,
        logo: vendor.logo,
        keyKind: publishable ? 'publishable' : 'secret',
        origins: key.origins ?? [],
      }),
    };
  };

  // The edge: the only place that speaks API Gateway's language ("Unauthorized" means 401, any other error a
  // failed authorizer).
  const authorize = async (event: AuthorizerEvent, context: Context): Promise<APIGatewayAuthorizerResult> => {
    try {
      return await decide(event, deadlineSignal(context, reserveMs));
    } catch (error) {
      if (error instanceof KeyRefusedError) {
        metrics.count('keysRefused', 1);
        throw new Error(AUTHORIZER_UNAUTHORIZED_MESSAGE);
      }
      if (error instanceof MissingUsageKeyError)
        logger.error('Key check failed: the vendor has no usage key', { vendorId: error.vendorId });
      else logger.error('Key check failed', { error });
      throw new KeyCheckFailedError();
    }
  };

  // Never log the event: it is the Authorization header.
  return middy(authorize, {
    timeoutEarlyInMillis: Math.floor(reserveMs / 2),
    timeoutEarlyResponse: () => {
      logger.error('Key check failed: the request ran out of time');
      throw new KeyCheckFailedError();
    },
  })
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(metrics.middleware);
}
