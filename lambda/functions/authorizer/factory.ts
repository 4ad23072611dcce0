/**
 * The TOKEN authorizer (docs/api.md#authentication): from the `Authorization` header to what API Gateway makes of
 * it — an Allow carrying the vendor's usage key and context, a Deny (403) for a suspended vendor, `Unauthorized`
 * (401) for a refused key, a failure (the 503) for a key that could not be checked. Built from its dependencies:
 * the entry point (`handler.ts`) makes them once per container, the tests their own.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent, Context } from 'aws-lambda';
import { authorizerContext } from '../../domain/keys/context';
import { FUNCTION_LIMITS } from '../../domain/service/limits';
import type { FunctionMetrics } from '../../domain/service/metrics';
import { MCP_PATH } from '../../domain/service/routes';
import { keyTier } from '../../domain/settings/rate-tiers';
import { deadlineSignal } from '../../platform/dynamodb/deadline';
import type { ReadClient } from '../../platform/dynamodb/read-client';
import { AUTHORIZER_UNAUTHORIZED_MESSAGE } from '../../platform/http/gateway-responses';
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

function policy(
  effect: 'Allow' | 'Deny',
  principalId: string,
  methodArn: string,
): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: stageMethods(methodArn) }],
    },
  };
}

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

  const decide = async (
    event: APIGatewayTokenAuthorizerEvent,
    signal: AbortSignal,
  ): Promise<APIGatewayAuthorizerResult> => {
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
  const authorize = async (
    event: APIGatewayTokenAuthorizerEvent,
    context: Context,
  ): Promise<APIGatewayAuthorizerResult> => {
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
