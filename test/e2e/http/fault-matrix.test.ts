/**
 * The fault matrix, on the real path: HTTP → the local API Gateway stand-in → the authorizer → the listing (in
 * a process of their own, as `npm start` runs them) → a fault-injecting proxy → the DynamoDB engine. For each fault and each DynamoDB operation of a request, the
 * client gets the contract's 503 — in the envelope, with `Retry-After` — before the failing function's timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FUNCTION_LIMITS } from '../../../lambda/domain/service/limits';

import { testEndpoint } from '../../../testkit/dynamodb';
import { type FaultKind, type FaultProxy, startFaultProxy } from '../../../testkit/fault-proxy';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';
import { documentedFetch as fetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
// The deployed timeouts. Shorter ones (2 s and 3 s, once) left a budget of 1.5 s for two reads whose SDK attempt
// may take 1 s: on a loaded machine one slow read left no time for the SDK's retry, and the request after a fault
// — the one that shows the API recovers at once — was a 503. Only the three `delay` cases wait out a budget.
const TIMEOUTS_MS = {
  authorizer: FUNCTION_LIMITS.authorizer.timeoutSeconds * 1000,
  listing: FUNCTION_LIMITS.listing.timeoutSeconds * 1000,
};

/** The operations of a listing request, and the function that makes each. */
const OPERATIONS = [
  ['GetItem', 'authorizer'],
  ['Query', 'listing'],
  ['BatchGetItem', 'listing'],
] as const;
const FAULTS: { kind: FaultKind; delayMs?: number }[] = [
  // Longer than any function's budget: only the deadline ends it.
  { kind: 'delay', delayMs: 30_000 },
  { kind: 'throttle' },
  { kind: 'fail' },
  { kind: 'refuse' },
  { kind: 'drop' },
  // Answers that are not DynamoDB's: the SDK cannot read them, and they mean "not now" all the same.
  { kind: 'html-502' },
  { kind: 'html-503' },
  { kind: 'not-json' },
  { kind: 'truncated' },
  { kind: 'bare-5xx' },
];

describe('fault matrix over the real path', () => {
  let proxy: FaultProxy;
  let api: LocalApiProcess;
  let listing: string;
  const headers = { Authorization: 'Bearer vvk_test_acme_first' };

  beforeAll(async () => {
    proxy = await startFaultProxy(testEndpoint());
    api = await startLocalApiProcess({
      port: 0,
      dynamodbEndpoint: proxy.endpoint,
      tablePrefix: `fm${Date.now().toString(36)}-`,
      seedFile: SEED_FILE,
      timeoutsMs: TIMEOUTS_MS,
    });
    listing = `${api.url}/vendor/vacancies?per_page=2`;
  });
  afterAll(async () => {
    await api?.stop();
    await proxy?.stop();
  });

  it('answers 200 when nothing fails, and when DynamoDB is slow but within the budget', async () => {
    expect((await fetch(listing, { headers })).status).toBe(200);
    proxy.inject({ operation: 'Query', kind: 'delay', delayMs: 300 });
    const slow = await fetch(listing, { headers });
    await proxy.clear();
    expect(slow.status).toBe(200);
  });

  const cases = FAULTS.flatMap((fault) =>
    OPERATIONS.map(([operation, fn]) => [fault.kind, operation, fn, fault] as const),
  );
  it.each(cases)(
    '%s on %s (%s): 503 in the envelope, with Retry-After, before the timeout',
    async (_kind, operation, fn, fault) => {
      proxy.inject({ operation, ...fault });
      const started = performance.now();
      const response = await fetch(listing, { headers });
      const elapsed = performance.now() - started;
      const body = await response.json();
      await proxy.clear();

      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(body).toEqual({
        status: 'error',
        message: 'Service Unavailable.',
        request_id: response.headers.get('x-request-id'),
      });
      // Within the failing function's timeout (a listing fault also includes the authorizer's quick success).
      expect(elapsed).toBeLessThan(
        fn === 'authorizer' ? TIMEOUTS_MS.authorizer : TIMEOUTS_MS.authorizer + TIMEOUTS_MS.listing,
      );
      // The proxy really saw the operation: the fault was on the path.
      expect(proxy.operations).toContain(operation);
      // And the API recovers at once when DynamoDB does.
      expect((await fetch(listing, { headers })).status).toBe(200);
    },
  );

  it("keeps, deployed, one call with every SDK attempt at its limits within each function's budget", () => {
    // The SDK's standard retries back off at most 100 ms, 200 ms, … between attempts (full jitter below that).
    for (const limits of Object.values(FUNCTION_LIMITS)) {
      const { maxAttempts, connectionTimeoutMs, requestTimeoutMs } = limits.dynamodb;
      const backoff = Array.from({ length: maxAttempts - 1 }, (_, i) => 100 * 2 ** i).reduce(
        (a, b) => a + b,
        0,
      );
      const worstCall = maxAttempts * (connectionTimeoutMs + requestTimeoutMs) + backoff;
      expect(worstCall).toBeLessThanOrEqual(limits.timeoutSeconds * 1000 - limits.reserveMs);
    }
  });
});
