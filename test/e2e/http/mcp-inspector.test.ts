/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, the reference client of the protocol's authors)
 * against `npm start`, as a developer would point it at the local server's `/mcp` with a demo key: it lists the
 * tools and calls `search_vacancies`, whose answer is the listing's for the same query (docs/api.md#agents-mcp).
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

const ROOT = new URL('../../../', import.meta.url).pathname;
const INSPECTOR = `${ROOT}node_modules/@modelcontextprotocol/inspector-cli/build/cli.js`;
const DEMO_KEY = 'vvk_demo_pasha_bank_primary';

/**
 * Runs the Inspector's CLI, as `npx @modelcontextprotocol/inspector-cli --cli <url> …` would. From a folder one
 * below the project's: version 1.0.3 looks for its own package.json at `../package.json` of the working folder
 * before it imports it relative to itself, and fails when none is there.
 */
function inspector(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, ...args],
      { cwd: `${ROOT}test`, timeout: 60_000 },
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
});
