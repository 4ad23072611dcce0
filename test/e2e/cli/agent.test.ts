/**
 * `vacancy-admin agent …` as an operator runs it — a process of its own — against the engine of a local server that
 * runs as `npm start` does (its own process, its own tables): a public agent endpoint's URL in one line, under the
 * server's address, which an MCP client can call at once with no key; its list; `--json`; its removal, after which
 * its URL answers the 404 from the next request; and every refusal in one line.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AGENT_ID, AGENT_TOKEN, agentIdOf } from '../../../lambda/domain/agent-registry/agent';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { localTableNames } from '../../../lib/create-tables';
import type { AgentView } from '../../../lib/ops/agents';
import { type AdminRun, cliTarget, runAdmin } from '../../../testkit/admin-cli';
import { testEndpoint } from '../../../testkit/dynamodb';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';

const prefix = `agentcli${Date.now().toString(36)}-`;
const tables = localTableNames(prefix);
const client = createDocumentClient(createDynamoDBClient({ endpoint: testEndpoint() }));

/** What an MCP client's `tools/list` on a URL gets: the status, and the tools' names or the body. */
async function toolsList(url: string): Promise<{ status: number; tools?: string[]; body?: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  if (response.status !== 200) return { status: response.status, body: await response.text() };
  const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
  return { status: 200, tools: result.tools.map((tool) => tool.name) };
}

describe('vacancy-admin agent', () => {
  let api: LocalApiProcess;
  const admin = (args: string[]): Promise<AdminRun> =>
    runAdmin([...cliTarget(testEndpoint(), tables), ...args]);
  const json = async <T>(args: string[]): Promise<T> => {
    const run = await admin(['--json', ...args]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  };
  /** A run that failed with one line on stderr (and, when commander refused it, its hint), nothing on stdout. */
  const oneLine = (run: AdminRun, code: number, message: string) => {
    expect(run).toMatchObject({ code, stdout: '' });
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`error: ${message}`);
    expect(lines.length).toBeLessThanOrEqual(code === 2 ? 2 : 1);
  };

  beforeAll(async () => {
    api = await startLocalApiProcess({ port: 0, dynamodbEndpoint: testEndpoint(), tablePrefix: prefix });
    for (const [id, company] of [
      ['caspian', 'Caspian LLC'],
      ['shore', 'Shore'],
    ])
      expect(await admin(['vendor', 'put', id as string, '--company', company as string])).toMatchObject({
        code: 0,
      });
  });
  afterAll(async () => {
    await api?.stop();
    client.destroy();
  });

  it("adds an endpoint and prints its URL in one line, under the local server's address; an MCP client calls it with no key", async () => {
    const run = await admin(['agent', 'add', 'caspian']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^\S+\n$/);
    const url = new URL(run.stdout.trimEnd());
    expect(url.origin).toBe(api.url);
    const [, mcp, token, ...more] = url.pathname.split('/');
    expect([mcp, more]).toEqual(['mcp', []]);
    expect(token).toMatch(AGENT_TOKEN);
    expect(await toolsList(url.href)).toEqual({ status: 200, tools: ['search_vacancies', 'get_vacancy'] });

    const view = await json<AgentView>(['agent', 'add', 'caspian']);
    expect(view).toEqual({
      agentId: expect.stringMatching(AGENT_ID),
      vendorId: 'caspian',
      url: expect.stringMatching(new RegExp(`^${api.url}/mcp/[A-Za-z0-9_-]{32}$`)),
      createdAt: expect.any(String),
    });
    expect(new Date(view.createdAt).toISOString()).toBe(view.createdAt);
    // The id is drawn from the token, and tells nothing of it.
    const viewToken = new URL(view.url).pathname.split('/')[2] ?? '';
    expect(view.agentId).toBe(agentIdOf(viewToken));
    expect(view.agentId).not.toContain(viewToken);
    expect(await toolsList(view.url)).toMatchObject({ status: 200 });
  });

  it('lists the endpoints, one line each or as JSON, of every vendor or of one', async () => {
    const shore = await json<AgentView>(['agent', 'add', 'shore']);
    const all = await json<AgentView[]>(['agent', 'list']);
    // By vendor, oldest first: the demo seed's endpoint of pasha-bank among them.
    expect(all.map((view) => view.vendorId)).toEqual(['caspian', 'caspian', 'pasha-bank', 'shore']);
    expect(all.at(-1)).toEqual(shore);

    const listed = await admin(['agent', 'list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toBe(
      `${all.map((view) => `${view.agentId}  ${view.vendorId}  ${view.url}  ${view.createdAt}`).join('\n')}\n`,
    );
    expect(await json<AgentView[]>(['agent', 'list', '--vendor', 'shore'])).toEqual([shore]);
    expect(await admin(['agent', 'list', '--vendor', 'nobody'])).toMatchObject({
      code: 0,
      stdout: 'no public agent endpoints\n',
    });
    expect(await json<AgentView[]>(['agent', 'list', '--vendor', 'nobody'])).toEqual([]);
  });

  it('removes an endpoint: its URL answers the 404 from the next request, the same as any token that is none', async () => {
    const view = await json<AgentView>(['agent', 'add', 'shore']);
    expect(await toolsList(view.url)).toMatchObject({ status: 200 });
    const run = await admin(['agent', 'remove', view.agentId]);
    expect(run).toEqual({
      code: 0,
      stdout: `public agent endpoint ${view.agentId} of shore removed\n`,
      stderr: '',
    });
    // Locally there is no authorizer cache: the next request is the 404 (on AWS, once the cache time has passed).
    const removed = await toolsList(view.url);
    const unknown = await toolsList(`${api.url}/mcp/${'A'.repeat(32)}`);
    expect(removed.status).toBe(404);
    const envelope = (body = '') => body.replace(/"request_id":"[^"]*"/, '"request_id":"<id>"');
    expect(envelope(removed.body)).toBe('{"status":"error","message":"Not Found.","request_id":"<id>"}');
    expect(envelope(removed.body)).toBe(envelope(unknown.body));
    expect(
      (await json<AgentView[]>(['agent', 'list', '--vendor', 'shore'])).map((v) => v.agentId),
    ).not.toContain(view.agentId);
    // --json prints the endpoint as it was.
    const other = await json<AgentView>(['agent', 'add', 'shore']);
    expect(await json<AgentView>(['agent', 'remove', other.agentId])).toEqual(other);
  });

  it('refuses in one line: an unknown vendor, a sixth endpoint, an endpoint not there (exit 1); no vendor (2)', async () => {
    oneLine(
      await admin(['agent', 'add', 'nobody']),
      1,
      'vendor "nobody" does not exist (create it with "vendor put nobody --company …").',
    );
    while ((await json<AgentView[]>(['agent', 'list', '--vendor', 'caspian'])).length < 5)
      await json<AgentView>(['agent', 'add', 'caspian']);
    oneLine(
      await admin(['agent', 'add', 'caspian']),
      1,
      'vendor "caspian" has 5 public agent endpoints, the most it may have; remove one first.',
    );
    oneLine(
      await admin(['--json', 'agent', 'add', 'caspian']),
      1,
      'vendor "caspian" has 5 public agent endpoints, the most it may have; remove one first.',
    );
    expect(await json<AgentView[]>(['agent', 'list', '--vendor', 'caspian'])).toHaveLength(5);
    oneLine(
      await admin(['agent', 'remove', 'ag_nosuchendpoint0']),
      1,
      'public agent endpoint "ag_nosuchendpoint0" does not exist.',
    );
    oneLine(await admin(['agent', 'add']), 2, "missing required argument 'vendorId'");
  });
});
