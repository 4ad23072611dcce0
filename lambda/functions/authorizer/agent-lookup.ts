/**
 * The authorizer's read of a public agent endpoint (docs/api.md#agents-mcp): the endpoint whose token a path names,
 * by the id its token gives (one GetItem, eventually consistent, within the request's deadline) — only when the
 * stored token is that token.
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  AGENT_TOKEN,
  type Agent,
  agentIdOf,
  agentItemKey,
  isTokenOf,
} from '../../domain/agent-registry/agent';
import { underDeadline } from '../../platform/dynamodb/deadline';
import { attributeValues, type ReadClient } from '../../platform/dynamodb/read-client';

/** The endpoint of a path's token, or undefined: a token of another form is not looked up. */
export async function findAgent(
  client: ReadClient,
  tableName: string,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<Agent | undefined> {
  if (token === undefined || !AGENT_TOKEN.test(token)) return undefined;
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: attributeValues(agentItemKey(agentIdOf(token))),
      ProjectionExpression: 'agentId, vendorId, #token, usageKey',
      ExpressionAttributeNames: { '#token': 'token' },
    }),
    underDeadline(signal),
  );
  const agent = Item && (unmarshall(Item) as Agent);
  return agent && isTokenOf(agent, token) ? agent : undefined;
}
