/**
 * Per-vendor rate limits on the local server (`--rate-limits`), which enforces the deployment's tiers the way
 * API Gateway's usage plans do: one vendor's runaway sync job is throttled (429, `Retry-After`) while another
 * vendor, at a modest pace at the same time, gets only 200s — each stating its tier in `RateLimit-Policy`; the MCP
 * server (`POST /mcp`) is throttled by the same tier. A public agent endpoint (`POST /mcp/{token}`) is throttled by
 * the `agent` tier, a bucket per endpoint: a flood on one URL takes nothing of another endpoint of the same vendor, of
 * the vendor's secret key, or of the tokens that are no endpoint (one bucket of their own).
 */
import { describe, expect, it } from '@jest/globals';
import { withBrowserTier } from '../../../lambda/domain/settings/rate-tiers';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { expectThrottled, flood, rateLimitedApi } from '../../../testkit/flood';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed-rate-tiers.json', import.meta.url).pathname;
/** The settings' tiers, and the browser and agent tiers every deployment has (as `readSettings` gives them). */
const settings = {
  ...DEFAULT_SETTINGS,
  rateTiers: withBrowserTier(
    { standard: { rate: 10, burst: 20 }, partner: { rate: 40, burst: 60 } },
    { rate: DEFAULT_SETTINGS.throttlingRateLimit, burst: DEFAULT_SETTINGS.throttlingBurstLimit },
  ),
  defaultRateTier: 'standard',
};

describe('per-vendor rate limits on the local server', () => {
  const api = rateLimitedApi(SEED_FILE, settings);
  const get = (key: string) =>
    documentedFetch(`${api.url()}/vendor/vacancies`, { headers: { Authorization: `Bearer ${key}` } });

  it('throttles a vendor bursting past its tier, and not another vendor at a modest pace meanwhile', async () => {
    const steady: Response[] = [];
    const pacedSteady = (async () => {
      for (let i = 0; i < 8; i += 1) {
        steady.push(await get('vvk_test_steady'));
        await new Promise((resolve) => setTimeout(resolve, 125));
      }
    })();
    // The runaway vendor's requests back to back on ten connections at a time, as a runaway sync job sends them,
    // until five are refused: its tier allows a burst of 20 and 10 a second. Not all at once: each runs the
    // authorizer (two reads) before the limiter, and hundreds of reads at once on a loaded machine outlast the SDK's
    // 1 s request timeout, which is a 503 (the contract's answer to a slow DynamoDB) — a count of the machine, not
    // of the limiter.
    const runaway = await flood(() => get('vvk_test_runaway'));
    await pacedSteady;
    // The burst is admitted; beyond it, no more than the tier's rate over the time the requests took, however long
    // that was on this machine (a bound from the time measured, not a count of what happened in wall time).
    await expectThrottled(runaway, { rate: 10, burst: 20 });
    expect(steady.map((response) => response.status)).toEqual(Array(8).fill(200));
  });

  it("states each vendor's tier on its 200s, as RateLimit-Policy", async () => {
    // The runaway vendor's bucket refills at 10 a second.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await get('vvk_test_runaway')).headers.get('ratelimit-policy')).toBe('"standard";q=10;w=1');
    expect((await get('vvk_test_steady')).headers.get('ratelimit-policy')).toBe('"partner";q=40;w=1');
  });

  it("throttles POST /mcp by the key's tier too: past its burst, the 429 in the envelope, before any JSON-RPC", async () => {
    // A second past the tests above: the runaway vendor's bucket holds 10 again, at most.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const call = () =>
      documentedFetch(`${api.url()}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer vvk_test_runaway',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const answers = await flood(call);
    await expectThrottled(answers, { rate: 10, burst: 20 }, { least: 1 });
    expect(answers.withStatus(200)[0]?.headers.get('ratelimit-policy')).toBe('"standard";q=10;w=1');
  });

  it('throttles a public agent endpoint by the agent tier, a bucket per endpoint: its vendor’s other endpoint and key keep theirs', async () => {
    const mcpCall = (path: string, headers: Record<string, string> = {}) =>
      documentedFetch(`${api.url()}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const statuses = (answers: readonly Response[]) => answers.map((response) => response.status);

    // A flood on one public URL, and at the same time one on tokens that are no endpoint.
    const [flooded, nobody] = await Promise.all([
      flood(() => mcpCall('/mcp/vva_test_public_flooded_agent_00')),
      flood(() => mcpCall('/mcp/vva_test_public_nobody_agent_000')),
    ]);
    // The agent tier: a burst of 10, then 5 a second over the time the requests took, however long that was.
    await expectThrottled(flooded, { rate: 5, burst: 10 });
    expect(flooded.withStatus(200)[0]?.headers.get('ratelimit-policy')).toBe('"agent";q=5;w=1');
    // The tokens that are no endpoint: their one bucket, the agent tier's too — 404s, then 429s.
    await expectThrottled(nobody, { rate: 5, burst: 10 }, { admittedStatus: 404 });

    // Meanwhile the vendor's other endpoint has its whole burst, and its secret key its tier's.
    const quiet = await Promise.all(
      Array.from({ length: 10 }, () => mcpCall('/mcp/vva_test_public_quiet_agent_0000')),
    );
    expect(statuses(quiet)).toEqual(Array(10).fill(200));
    const keyed = await Promise.all(
      Array.from({ length: 10 }, () => mcpCall('/mcp', { Authorization: 'Bearer vvk_test_public' })),
    );
    expect(statuses(keyed)).toEqual(Array(10).fill(200));
    expect(keyed[0]?.headers.get('ratelimit-policy')).toBe('"standard";q=10;w=1');
    const listed = await Promise.all(Array.from({ length: 10 }, () => get('vvk_test_public')));
    expect(statuses(listed)).toEqual(Array(10).fill(200));
  });
});
