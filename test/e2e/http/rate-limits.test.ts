/**
 * Per-vendor rate limits on the local server (`--rate-limits`), which enforces the deployment's tiers the way
 * API Gateway's usage plans do: one vendor's runaway sync job is throttled (429, `Retry-After`) while another
 * vendor, at a modest pace at the same time, gets only 200s — each stating its tier in `RateLimit-Policy`; the MCP
 * server (`POST /mcp`) is throttled by the same tier. A public agent endpoint (`POST /mcp/{token}`) is throttled by
 * the `agent` tier, a bucket per endpoint: a flood on one URL takes nothing of another endpoint of the same vendor, of
 * the vendor's secret key, or of the tokens that are no endpoint (one bucket of their own).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withBrowserTier } from '../../../lambda/domain/settings/rate-tiers';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';
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
  let api: LocalApiProcess;
  let listing: string;
  const get = (key: string) => documentedFetch(listing, { headers: { Authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    api = await startLocalApiProcess({
      port: 0,
      dynamodbPort: 0,
      seedFile: SEED_FILE,
      settings,
      rateLimits: true,
    });
    listing = `${api.url}/vendor/vacancies`;
  });
  afterAll(async () => api?.stop());

  it('throttles a vendor bursting past its tier, and not another vendor at a modest pace meanwhile', async () => {
    const steady: Response[] = [];
    const pacedSteady = (async () => {
      for (let i = 0; i < 8; i += 1) {
        steady.push(await get('vvk_test_steady'));
        await new Promise((resolve) => setTimeout(resolve, 125));
      }
    })();
    // 120 requests from the runaway vendor, back to back on ten connections at a time, as a runaway sync job
    // sends them: its tier allows a burst of 20 and 10 a second, and ten in flight at local speed are far past
    // that. Not all 120 at once: each runs the authorizer (two reads) before the limiter, and 240 reads at once
    // on a loaded machine outlast the SDK's 1 s request timeout, which is a 503 (the contract's answer to a slow
    // DynamoDB), neither 200 nor 429 — a count of the machine, not of the limiter.
    const started = performance.now();
    const runaway: Response[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (sent < 120) {
          sent += 1;
          runaway.push(await get('vvk_test_runaway'));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await pacedSteady;

    const statuses = runaway.map((response) => response.status);
    const throttled = runaway.filter((response) => response.status === 429);
    const admitted = statuses.filter((status) => status === 200).length;
    // The burst is admitted; beyond it, no more than the tier's rate over the time the requests took, however long
    // that was on this machine (a bound from the time measured, not a count of what happened in wall time).
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(20 + Math.ceil(10 * seconds));
    expect(runaway).toHaveLength(120);
    expect(throttled.length).toBe(120 - admitted);
    expect(throttled.length).toBeGreaterThanOrEqual(5);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    for (const response of throttled.slice(0, 5)) {
      expect(response.headers.get('retry-after')).toBe('1');
      const body = await response.json();
      expect(body).toEqual({
        status: 'error',
        message: 'Too Many Requests.',
        request_id: response.headers.get('x-request-id'),
      });
    }
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
      documentedFetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer vvk_test_runaway',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const started = performance.now();
    const answers: Response[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (sent < 60) {
          sent += 1;
          answers.push(await call());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const admitted = answers.filter((response) => response.status === 200);
    const throttled = answers.filter((response) => response.status === 429);
    expect(admitted.length + throttled.length).toBe(60);
    expect(admitted.length).toBeLessThanOrEqual(20 + Math.ceil(10 * seconds));
    expect(throttled.length).toBeGreaterThanOrEqual(5);
    expect(admitted[0]?.headers.get('ratelimit-policy')).toBe('"standard";q=10;w=1');
    const refused = throttled[0] as Response;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      status: 'error',
      message: 'Too Many Requests.',
      request_id: refused.headers.get('x-request-id'),
    });
  });

  it('throttles a public agent endpoint by the agent tier, a bucket per endpoint: its vendor’s other endpoint and key keep theirs', async () => {
    const mcpCall = (path: string, headers: Record<string, string> = {}) =>
      documentedFetch(`${api.url}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    /** `count` requests of `path`, ten connections at a time, back to back; with the seconds they took. */
    const flood = async (path: string, count: number) => {
      const started = performance.now();
      const answers: Response[] = [];
      let sent = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (sent < count) {
            sent += 1;
            answers.push(await mcpCall(path));
          }
        }),
      );
      return { answers, seconds: (performance.now() - started) / 1000 };
    };
    const statuses = (answers: Response[]) => answers.map((response) => response.status);

    // Forty requests on one public URL, and at the same time forty on tokens that are no endpoint.
    const [flooded, nobody] = await Promise.all([
      flood('/mcp/vva_test_public_flooded_agent_00', 40),
      flood('/mcp/vva_test_public_nobody_agent_000', 40),
    ]);
    const admitted = flooded.answers.filter((response) => response.status === 200);
    const throttled = flooded.answers.filter((response) => response.status === 429);
    expect(admitted.length + throttled.length).toBe(40);
    // The agent tier: a burst of 10, then 5 a second over the time the requests took, however long that was.
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    expect(admitted.length).toBeLessThanOrEqual(10 + Math.ceil(5 * flooded.seconds));
    expect(throttled.length).toBeGreaterThanOrEqual(5);
    expect(admitted[0]?.headers.get('ratelimit-policy')).toBe('"agent";q=5;w=1');
    const refused = throttled[0] as Response;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      status: 'error',
      message: 'Too Many Requests.',
      request_id: refused.headers.get('x-request-id'),
    });
    // The tokens that are no endpoint: their one bucket, the agent tier's too — 404s, then 429s.
    expect(new Set(statuses(nobody.answers))).toEqual(new Set([404, 429]));
    expect(statuses(nobody.answers).filter((status) => status === 404).length).toBeLessThanOrEqual(
      10 + Math.ceil(5 * nobody.seconds),
    );

    // Meanwhile the vendor's other endpoint has its whole burst, and its secret key its tier's.
    const quiet = await flood('/mcp/vva_test_public_quiet_agent_0000', 10);
    expect(statuses(quiet.answers)).toEqual(Array(10).fill(200));
    const keyed = await Promise.all(
      Array.from({ length: 10 }, () => mcpCall('/mcp', { Authorization: 'Bearer vvk_test_public' })),
    );
    expect(statuses(keyed)).toEqual(Array(10).fill(200));
    expect(keyed[0]?.headers.get('ratelimit-policy')).toBe('"standard";q=10;w=1');
    const listed = await Promise.all(Array.from({ length: 10 }, () => get('vvk_test_public')));
    expect(statuses(listed)).toEqual(Array(10).fill(200));
  });
});
