/**
 * `POST /mcp/{token}`, a vendor's public agent endpoint (docs/api.md#agents-mcp), over real HTTP against the local
 * server with the test seed, through real clients — the SDK v2 client pinned to 2026-07-28 and in legacy mode, and the
 * SDK v1 client — with no key: each lists the two tools and gets the listing's answers, the same as the keyed `/mcp`
 * gives a secret key of that vendor, through each of those clients. Around it: a token that is no endpoint (unknown, malformed, a suspended vendor's,
 * removed) is one 404, the same bytes whatever the token; CORS from any origin without credentials; the versions
 * offered. Every answer held to docs/openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentIdOf } from '../../../lambda/domain/agent-registry/agent';
import { AgentStore } from '../../../lambda/domain/agent-registry/agent-store';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { addAgent } from '../../../lib/ops/agents';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
/** Acme's secret key and its public endpoint's token (the seed's). */
const ACME = 'vvk_test_acme_first';
const ACME_TOKEN = 'vva_test_acme_public_agent_00000';
/** Initech's: a suspended vendor's endpoint. */
const INITECH_TOKEN = 'vva_test_initech_public_agent_00';
const CLIENT_INFO = { name: 'mcp-public-e2e', version: '1.0.0' };

/** What a client's calls give, comparable across clients. */
interface Answers {
  tools: unknown;
  search: unknown;
  vacancy: unknown;
  refusal: unknown;
}

type AnyClient = Pick<ClientV1, 'listTools' | 'callTool'>;

async function answersOf(client: AnyClient): Promise<Answers> {
  const { tools } = await client.listTools();
  const search = await client.callTool({
    name: 'search_vacancies',
    arguments: { per_page: 2, lang: 'en', facets: ['type'] },
  });
  const vacancy = await client.callTool({ name: 'get_vacancy', arguments: { id: 1, lang: 'en' } });
  const refusal = await client.callTool({ name: 'search_vacancies', arguments: { per_page: 500 } });
  return {
    tools,
    search: search.structuredContent,
    vacancy: vacancy.structuredContent,
    refusal: refusal.content,
  };
}

describe('POST /mcp/{token}, a public agent endpoint, with real clients and no key', () => {
  let api: LocalApi;
  let publicUrl: string;
  let keyed: Answers;

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    publicUrl = `${api.url}/mcp/${ACME_TOKEN}`;
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(
      new TransportV1(new URL(`${api.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${ACME}` } },
      }),
    );
    keyed = await answersOf(client);
    await client.close();
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('answers the SDK v2 client pinned to 2026-07-28 as the keyed /mcp answers a secret key', async () => {
    const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const transport = new TransportV2(new URL(publicUrl));
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'vendor-vacancy-api' });
    const answers = await answersOf(client as unknown as AnyClient);
    expect(answers).toEqual(keyed);
    expect((answers.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      'search_vacancies',
      'get_vacancy',
    ]);
    await client.close();
  });

  it('answers the SDK v2 client in legacy mode and the SDK v1 client the same', async () => {
    const legacy = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: 'legacy' } });
    await legacy.connect(new TransportV2(new URL(publicUrl)));
    expect(await answersOf(legacy as unknown as AnyClient)).toEqual(keyed);
    await legacy.close();
    const v1 = new ClientV1(CLIENT_INFO);
    const transport = new TransportV1(new URL(publicUrl));
    await v1.connect(transport);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(await answersOf(v1)).toEqual(keyed);
    await v1.close();
  });

  it('answers the SDK v2 client on the keyed /mcp too, pinned to 2026-07-28 and in legacy mode, as the v1 client', async () => {
    for (const mode of [{ pin: '2026-07-28' }, 'legacy'] as const) {
      const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode } });
      await client.connect(
        new TransportV2(new URL(`${api.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${ACME}` } },
        }),
      );
      expect([mode, await answersOf(client as unknown as AnyClient)]).toEqual([mode, keyed]);
      await client.close();
    }
  });

  it('answers a token that is no endpoint 404 in the envelope, the same bytes whatever the token', async () => {
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const bodies = new Set<string>();
    for (const token of [
      'vva_test_nobody_public_agent_000',
      'short',
      INITECH_TOKEN,
      `${ACME_TOKEN}x`,
      '%2E%2E',
    ]) {
      const response = await documentedFetch(`${api.url}/mcp/${token}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: message,
      });
      expect(response.status).toBe(404);
      const requestId = response.headers.get('x-request-id') as string;
      bodies.add((await response.text()).replace(requestId, '<id>'));
    }
    expect([...bodies]).toEqual(['{"status":"error","message":"Not Found.","request_id":"<id>"}']);
  });

  it('takes a removal at once: the next request on its URL is the 404', async () => {
    const client = createDynamoDBClient({ endpoint: api.dynamodbEndpoint });
    const documentClient = createDocumentClient(client);
    const added = await addAgent({ documentClient, vendorsTable: api.tables.vendors }, 'acme');
    const url = `${api.url}/mcp/${added.token}`;
    const list = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await list()).status).toBe(200);
    expect(added.agentId).toBe(agentIdOf(added.token));
    await new AgentStore(documentClient, api.tables.vendors).remove(added.agentId);
    expect((await list()).status).toBe(404);
    client.destroy();
  });

  it('lets any origin call it, without credentials, and answers its preflight', async () => {
    const origin = 'https://assistant.example';
    const preflight = await documentedFetch(publicUrl, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, mcp-protocol-version, mcp-method',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Mcp-Protocol-Version.*Mcp-Method/);
    const response = await documentedFetch(publicUrl, {
      method: 'POST',
      headers: {
        Origin: origin,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('ratelimit-policy')).toBe('"agent";q=5;w=1');
    // Nothing older than 2025-06-18 is agreed to.
    expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-11-25',
    );
  });
});
