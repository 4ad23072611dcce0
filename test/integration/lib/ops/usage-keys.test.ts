/**
 * The vendors' API Gateway keys, against a small stateful stand-in for API Gateway's control plane built on
 * aws-sdk-client-mock (there is no engine to run here): keys, values, usage plans and their keys, and API
 * Gateway's conflicts. The vendor items are real, on the DynamoDB engine.
 */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CONTROL_PLANE_INTERVALS_MS,
  ControlPlanePacer,
  deleteVendorUsageKeys,
  moveUsageKey,
  RETIRED_KEY_GRACE_MS,
  removeStackUsageKeys,
  syncBrowserUsageKey,
  syncUsageKey,
  syncUsageKeys,
  type UsageKeyContext,
} from '../../../../lib/ops/usage-keys';
import { getVendorRecord, putVendor, saveVendorUsage } from '../../../../lib/ops/vendors';
import { fakeApiGateway, PLANS } from '../../../../testkit/api-gateway';
import { createTestTables, type TestTables } from '../../../../testkit/dynamodb';

describe('usage keys', () => {
  let tables: TestTables;
  let context: UsageKeyContext;
  let apiGateway: ReturnType<typeof fakeApiGateway>;
  // A virtual clock: the pacer's waits advance it, so the test measures spacing without waiting.
  let virtualMs = 0;
  let wallClock = new Date('2026-11-01T10:00:00Z');

  const record = async (vendorId: string) => {
    const found = await getVendorRecord(tables.documentClient, tables.names.vendors, vendorId);
    if (!found) throw new Error(`no vendor ${vendorId}`);
    return found;
  };
  const created = () => apiGateway.calls.filter((call) => call.operation === 'CreateApiKey').length;

  afterAll(async () => tables.drop());
  // One API Gateway for the whole file: the tests follow one another, as an operator's commands would.
  beforeAll(async () => {
    tables = await createTestTables();
    const client = new APIGatewayClient({
      region: 'eu-central-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    const clock = {
      now: () => virtualMs,
      sleep: async (ms: number) => {
        virtualMs += ms;
      },
    };
    apiGateway = fakeApiGateway(client, clock);
    context = {
      apiGateway: client,
      pacer: new ControlPlanePacer(clock),
      usagePlans: { stackName: 'Api', plans: PLANS },
      documentClient: tables.documentClient,
      vendorsTable: tables.names.vendors,
      now: () => wallClock,
    };
  });

  it("creates a new vendor's key once, with the item's value, in its tier's plan; a second run only looks", async () => {
    const vendor = await putVendor(tables.documentClient, tables.names.vendors, {
      vendorId: 'acme',
      company: 'Acme',
    });
    const first = await syncUsageKey(context, vendor);
    expect(first).toEqual([
      expect.stringMatching(/^created API key key\d+$/),
      expect.stringMatching(/^linked API key key\d+ to the standard plan$/),
    ]);
    const stored = await record('acme');
    const key = apiGateway.keys.get(stored.usageKeyId ?? '');
    expect(key).toMatchObject({ name: 'Api.acme.standard', value: stored.usageKey });
    expect(apiGateway.tierOf(key?.id ?? '')).toBe('standard');

    expect(await syncUsageKey(context, await record('acme'))).toEqual([]);
    expect(created()).toBe(1);
    expect(apiGateway.keys.size).toBe(1);
  });

  it('moves a vendor to another tier with a new key, keeping the old one in its plan until its grace time has passed', async () => {
    const before = await record('acme');
    const actions = await moveUsageKey(context, before, 'partner');
    const after = await record('acme');
    expect(after.rateTier).toBe('partner');
    expect(after.usageKey).not.toBe(before.usageKey);
    expect(apiGateway.tierOf(after.usageKeyId ?? '')).toBe('partner');
    // Authorizer answers cached before the move still name the old key: it stays in the old plan for now.
    expect(apiGateway.tierOf(before.usageKeyId ?? '')).toBe('standard');
    expect(after.retiredUsageKeys).toEqual([
      {
        id: before.usageKeyId,
        deleteAfter: new Date(wallClock.getTime() + RETIRED_KEY_GRACE_MS).toISOString(),
      },
    ]);
    expect(actions.at(-1)).toMatch(/^retired API key key\d+ \(deleted after /);

    expect(await syncUsageKey(context, after)).toEqual([]);
    wallClock = new Date(wallClock.getTime() + RETIRED_KEY_GRACE_MS + 1);
    expect(await syncUsageKey(context, await record('acme'))).toEqual([
      `deleted retired API key ${before.usageKeyId}`,
    ]);
    expect(apiGateway.keys.has(before.usageKeyId ?? '')).toBe(false);
    expect((await record('acme')).retiredUsageKeys).toBeUndefined();
  });

  it('repairs what drifted: a vendor never given a key, a key deleted, a key in the wrong plan, a key created but not recorded', async () => {
    // Created against the local engine, then deployed: no key in API Gateway.
    const local = await putVendor(tables.documentClient, tables.names.vendors, {
      vendorId: 'beta',
      company: 'Beta',
    });
    expect(local.usageKeyId).toBeUndefined();
    expect(await syncUsageKey(context, local)).toHaveLength(2);
    const beta = await record('beta');

    // Someone deleted its key in the console.
    apiGateway.keys.delete(beta.usageKeyId ?? '');
    apiGateway.unlink(beta.usageKeyId ?? '');
    const recreated = await syncUsageKey(context, beta);
    expect(recreated).toEqual([
      expect.stringMatching(/^created API key/),
      expect.stringMatching(/^linked .* standard plan$/),
    ]);

    // Someone moved it to another plan by hand.
    const moved = await record('beta');
    apiGateway.unlink(moved.usageKeyId ?? '');
    apiGateway.link(moved.usageKeyId ?? '', 'partner');
    expect(await syncUsageKey(context, moved)).toEqual([
      `removed API key ${moved.usageKeyId} from the partner plan`,
      `linked API key ${moved.usageKeyId} to the standard plan`,
    ]);

    // A run that created the key but died before recording its id: the key is found again by name and value.
    await saveVendorUsage(tables.documentClient, tables.names.vendors, 'beta', {
      rateTier: moved.rateTier,
      usageKey: moved.usageKey ?? '',
    });
    const keysBefore = apiGateway.keys.size;
    expect(await syncUsageKey(context, await record('beta'))).toEqual([
      `adopted API key ${moved.usageKeyId}`,
    ]);
    expect(apiGateway.keys.size).toBe(keysBefore);
    expect((await record('beta')).usageKeyId).toBe(moved.usageKeyId);
  });

  it("paces control-plane calls to API Gateway's quotas: key creations and deletions 5 a second, every call 10", async () => {
    for (const vendorId of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) {
      const vendor = await putVendor(tables.documentClient, tables.names.vendors, {
        vendorId,
        company: vendorId,
      });
      await syncUsageKey(context, vendor);
    }
    const gaps = (operation?: string) => {
      const times = apiGateway.calls
        .filter((call) => !operation || call.operation === operation)
        .map((call) => call.at);
      return times.slice(1).map((at, i) => at - (times[i] as number));
    };
    expect(gaps('CreateApiKey').length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...gaps('CreateApiKey'))).toBeGreaterThanOrEqual(
      CONTROL_PLANE_INTERVALS_MS.CreateApiKey as number,
    );
    expect(Math.min(...gaps())).toBeGreaterThanOrEqual(CONTROL_PLANE_INTERVALS_MS.default as number);
  });

  it("removes every usage key of one stack, paced, and none of another stack's — also one whose name starts alike", async () => {
    for (const [id, name, stack] of [
      ['other1', 'Other.globex.standard', 'Other'],
      ['dev1', 'Api-dev.globex.standard', 'Api-dev'],
    ] as const) {
      apiGateway.keys.set(id, { id, name, value: `value-of-${id}`, tags: { stack } });
    }
    const ours = [...apiGateway.keys.values()]
      .filter((key) => key.name.startsWith('Api.'))
      .map((key) => key.id);
    expect(ours.length).toBeGreaterThan(0);
    const calls = apiGateway.calls.length;
    const { deleted } = await removeStackUsageKeys(context, 'Api');
    expect(deleted.map((key) => key.id).sort()).toEqual([...ours].sort());
    expect([...apiGateway.keys.keys()].sort()).toEqual(['dev1', 'other1']);
    // API Gateway allows five key deletions a second.
    const deletions = apiGateway.calls.slice(calls).filter((call) => call.operation === 'DeleteApiKey');
    for (let i = 1; i < deletions.length; i += 1) {
      expect((deletions[i]?.at ?? 0) - (deletions[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(
        CONTROL_PLANE_INTERVALS_MS.DeleteApiKey as number,
      );
    }
    // Running it again finds nothing more to delete.
    expect((await removeStackUsageKeys(context, 'Api')).deleted).toEqual([]);
  });
  it("creates a vendor's browser key once — the value its publishable keys count under — in the browser plan, apart from its own", async () => {
    const vendor = await putVendor(tables.documentClient, tables.names.vendors, {
      vendorId: 'pages',
      company: 'Pages',
    });
    expect(vendor.browserUsageKey).toMatch(/^[0-9a-f]{40}$/);
    const before = created();
    const actions = await syncBrowserUsageKey(context, vendor);
    expect(actions).toEqual([
      expect.stringMatching(/^created API key key\d+$/),
      expect.stringMatching(/^linked API key key\d+ to the browser plan$/),
    ]);
    const stored = await record('pages');
    const key = apiGateway.keys.get(stored.browserUsageKeyId ?? '');
    expect(key).toMatchObject({ name: 'Api.pages.browser', value: vendor.browserUsageKey });
    expect(apiGateway.tierOf(key?.id ?? '')).toBe('browser');
    expect(stored.usageKeyId).toBeUndefined();
    expect(await syncBrowserUsageKey(context, stored)).toEqual([]);
    expect(created()).toBe(before + 1);
  });
  it("deletes a vendor's two keys and no other, and finds nothing more to delete the second time", async () => {
    const vendor = await putVendor(tables.documentClient, tables.names.vendors, {
      vendorId: 'smoke-0123456789',
      company: 'Smoke check',
    });
    await syncUsageKeys(context, vendor);
    const stored = await record('smoke-0123456789');
    const others = [...apiGateway.keys.keys()].filter(
      (id) => id !== stored.usageKeyId && id !== stored.browserUsageKeyId,
    );
    expect(await deleteVendorUsageKeys(context, stored)).toEqual([
      `deleted API key ${stored.usageKeyId}`,
      `deleted API key ${stored.browserUsageKeyId}`,
    ]);
    expect([...apiGateway.keys.keys()]).toEqual(others);
    expect(await deleteVendorUsageKeys(context, stored)).toEqual([]);
  });
});
