/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, the reference client of the protocol's authors)
 * against `npm start`, run as docs/api.md#agents-mcp writes it — `npx @modelcontextprotocol/inspector --cli …` from
 * the project's root — pointed at the local server's `/mcp` with a demo key and at the demo vendor's public URL with
 * none: it lists the tools and calls `search_vacancies`, whose answer is the listing's for the same query.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DEMO_KEY = 'vvk_demo_pasha_bank_primary';
/** The demo seed's public agent endpoint of pasha-bank. */
const DEMO_TOKEN = 'vva_demo_pasha_bank_public_agent';

/** Runs `npx @modelcontextprotocol/inspector --cli <url> …` from the project's root, as the docs write it. */
function inspector(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['@modelcontextprotocol/inspector', ...args],
      { cwd: ROOT, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the MCP Inspector CLI against npm start', () => {
  let server: NpmStart;
  let common: string[];

  beforeAll(async () => {
    server = await startNpmStart();
    common = [
      '--cli',
      `${server.url}/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${DEMO_KEY}`,
    ];
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the two tools', async () => {
    const run = await inspector([...common, '--method', 'tools/list']);
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; outputSchema?: unknown }[] };
    expect(tools.map((tool) => tool.name)).toEqual(['search_vacancies', 'get_vacancy']);
    expect(tools.every((tool) => tool.outputSchema !== undefined)).toBe(true);
  }, 90_000);

  it("calls search_vacancies: the listing's answer to the same query", async () => {
    const run = await inspector([
      ...common,
      '--method',
      'tools/call',
      '--tool-name',
      'search_vacancies',
      '--tool-arg',
      'q=engineer',
      'per_page=2',
      'lang=en',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      isError?: boolean;
      structuredContent: { company: string; data: unknown[]; pagination: { total: number } };
    };
    const listing = (await (
      await fetch(`${server.url}/vendor/vacancies?q=engineer&per_page=2&lang=en`, {
        headers: { Authorization: `Bearer ${DEMO_KEY}` },
      })
    ).json()) as { company: string; data: unknown[]; pagination: { total: number } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.company).toBe(listing.company);
    expect(result.structuredContent.data).toEqual(listing.data);
    expect(result.structuredContent.pagination.total).toBe(listing.pagination.total);
    expect(listing.pagination.total).toBeGreaterThan(0);
  }, 90_000);

  it("lists the tools at the demo vendor's public URL, with no key", async () => {
    const run = await inspector([
      '--cli',
      `${server.url}/mcp/${DEMO_TOKEN}`,
      '--transport',
      'http',
      '--method',
      'tools/list',
    ]);
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(['search_vacancies', 'get_vacancy']);
  }, 90_000);
});
