import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { AUTHORIZER_UNAUTHORIZED_MESSAGE } from '../http/gateway-responses';
import { bearerToken } from './bearer';
import { findApiKey, hashApiKey } from './key-lookup';
import { getVendor } from './vendor-lookup';

/** What the authorizer is built from; the Lambda entry point makes them once per container. */
export interface AuthorizerDependencies {
  readonly documentClient: DynamoDBDocumentClient;
  readonly vendorsTable: string;
  readonly logger: Logger;
}

/**
 * The resource an Allow or Deny covers: every GET method of the stage. API Gateway caches the answer per
 * token, so it must fit every route the same token may call, not only the method that asked.
 * `arn:aws:execute-api:region:account:apiId/stage/GET/vendor/vacancies` → `…:apiId/stage/GET/*`.
 */
export function stageGetMethods(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/GET/*`;
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
      Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: stageGetMethods(methodArn) }],
    },
  };
}

const unauthorized = () => new Error(AUTHORIZER_UNAUTHORIZED_MESSAGE);

/**
 * The TOKEN authorizer: `Authorization` header → SHA-256 → key item → vendor (two GetItems; the vendor is not
 * copied onto its keys, so suspending or renaming it needs no rewrite of every key). Unknown, revoked or
 * malformed → 401; suspended vendor → an explicit Deny (403); otherwise Allow with `{ vendorId, company }` as
 * context. A DynamoDB failure (after the SDK's retries) is thrown as it is, so API Gateway answers 500: a
 * vendor with a good key is never told its key is invalid. The token is never logged.
 */
export function createAuthorizerHandler(dependencies: AuthorizerDependencies) {
  const { documentClient, vendorsTable, logger } = dependencies;

  const authorize = async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    try {
      return await decide(event);
    } catch (error) {
      // Anything but a refusal means the key could not be checked: logged as ERROR (the stack alarms on it),
      // then thrown as it is, so API Gateway answers 500 rather than calling a good key invalid.
      const refused = error instanceof Error && error.message === AUTHORIZER_UNAUTHORIZED_MESSAGE;
      if (!refused) logger.error('Key check failed', error as Error);
      throw error;
    }
  };

  const decide = async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const token = bearerToken(event.authorizationToken);
    if (!token) {
      logger.info('Rejected: not a Bearer header');
      throw unauthorized();
    }
    const key = await findApiKey(documentClient, vendorsTable, hashApiKey(token));
    if (!key || key.revokedAt) {
      logger.info(key ? 'Rejected: revoked key' : 'Rejected: unknown key', { keyId: key?.keyId });
      throw unauthorized();
    }
    const vendor = await getVendor(documentClient, vendorsTable, key.vendorId);
    if (!vendor) {
      logger.warn('Rejected: key of a vendor that does not exist', {
        keyId: key.keyId,
        vendorId: key.vendorId,
      });
      throw unauthorized();
    }
    if (vendor.status !== 'active') {
      logger.info('Denied: vendor suspended', { keyId: key.keyId, vendorId: vendor.vendorId });
      return policy('Deny', vendor.vendorId, event.methodArn);
    }
    logger.info('Allowed', { keyId: key.keyId, vendorId: vendor.vendorId });
    return {
      ...policy('Allow', vendor.vendorId, event.methodArn),
      context: { vendorId: vendor.vendorId, company: vendor.company },
    };
  };

  // Never log the event: it is the Authorization header.
  return middy(authorize).use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }));
}
