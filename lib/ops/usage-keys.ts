/**
 * Each vendor's API Gateway API key, in its rate tier's usage plan (docs/operating.md#rate-tiers). The value
 * is the vendor item's `usageKey`, which the authorizer hands to API Gateway; the vendor never sees it. Every
 * operation is idempotent — it looks before it creates — and paced to API Gateway's control-plane quotas.
 */
import {
  type APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeyCommand,
  GetApiKeysCommand,
  GetUsagePlanKeyCommand,
} from '@aws-sdk/client-api-gateway';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AGENT_TIER, BROWSER_TIER } from '../../lambda/domain/settings/rate-tiers';
import { awsFailure } from '../../lambda/platform/aws/failure';
import { generateUsageKey, saveVendorBrowserUsage, saveVendorUsage, type VendorRecord } from './vendors';

/**
 * The least time between two calls of an operation, in milliseconds: API Gateway allows CreateApiKey and
 * DeleteApiKey 5 requests a second per account ("Amazon API Gateway quotas"); every other call is kept at 10 a
 * second, and no two calls of any kind go out closer than that.
 */
export const CONTROL_PLANE_INTERVALS_MS: Readonly<Record<string, number>> = {
  CreateApiKey: 200,
  DeleteApiKey: 200,
  default: 100,
};

/** Spaces control-plane calls to their quotas. The clock and the wait are replaceable, for tests. */
export class ControlPlanePacer {
  #lastCall = Number.NEGATIVE_INFINITY;
  readonly #lastOf = new Map<string, number>();

  constructor(
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = {
      now: () => performance.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
  ) {}

  /** Waits until `operation` may be called, and counts it as called. */
  async before(operation: string): Promise<void> {
    const interval = CONTROL_PLANE_INTERVALS_MS[operation] ?? (CONTROL_PLANE_INTERVALS_MS.default as number);
    const since = (last: number | undefined, gap: number) => (last ?? Number.NEGATIVE_INFINITY) + gap;
    const readyAt = Math.max(
      since(this.#lastCall, CONTROL_PLANE_INTERVALS_MS.default as number),
      since(this.#lastOf.get(operation), interval),
    );
    const wait = readyAt - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
    const now = this.clock.now();
    this.#lastCall = now;
    this.#lastOf.set(operation, now);
  }
}

/** A deployed stack's usage plans: one per rate tier. */
export interface UsagePlans {
  readonly stackName: string;
  /** Tier name → usage plan id. */
  readonly plans: Readonly<Record<string, string>>;
}

/** API Gateway's control plane, and the pacing of calls to it. */
export interface ControlPlane {
  readonly apiGateway: APIGatewayClient;
  readonly pacer: ControlPlanePacer;
}

/** What usage keys are managed with. */
export interface UsageKeyContext extends ControlPlane {
  readonly usagePlans: UsagePlans;
  readonly documentClient: DynamoDBDocumentClient;
  readonly vendorsTable: string;
  readonly now?: () => Date;
}

/** What an operation did, in words, for the operator. */
export type UsageKeyActions = string[];

/** How long a retired key stays in its plan: past the longest authorizer cache (3,600 s) that may still name it. */
export const RETIRED_KEY_GRACE_MS = 60 * 60 * 1000;

const isNotFound = (error: unknown) => awsFailure(error) === 'not-found';

/** The control-plane operations the CLI calls, by the names API Gateway's quotas use. */
const OPERATIONS = {
  CreateApiKey: CreateApiKeyCommand,
  CreateUsagePlanKey: CreateUsagePlanKeyCommand,
  DeleteApiKey: DeleteApiKeyCommand,
  DeleteUsagePlanKey: DeleteUsagePlanKeyCommand,
  GetApiKey: GetApiKeyCommand,
  GetApiKeys: GetApiKeysCommand,
  GetUsagePlanKey: GetUsagePlanKeyCommand,
} as const;
type Operations = typeof OPERATIONS;
type Operation = keyof Operations;
type OutputOf<K extends Operation> =
  InstanceType<Operations[K]> extends {
    resolveMiddleware(...args: never[]): (args: never) => Promise<{ output: infer O }>;
  }
    ? O
    : never;

/** Calls an operation when the pacer allows it. */
async function call<K extends Operation>(
  context: ControlPlane,
  operation: K,
  input: ConstructorParameters<Operations[K]>[0],
): Promise<OutputOf<K>> {
  await context.pacer.before(operation);
  const Command = OPERATIONS[operation] as new (input: unknown) => Parameters<APIGatewayClient['send']>[0];
  return (await context.apiGateway.send(new Command(input))) as OutputOf<K>;
}

/**
 * The name of a vendor's API key: its stack and id, so a key can be found again by name — and every key of a stack
 * by the prefix `<stack>.`, which no other stack's keys share (a stack name has no ".").
 */
const keyName = (stackName: string, vendorId: string) => `${stackName}.${vendorId}`;

function planOf(context: UsageKeyContext, tier: string): string {
  const plan = context.usagePlans.plans[tier];
  if (!plan) throw new Error(`The stack has no usage plan for tier "${tier}".`);
  return plan;
}

/**
 * The id of the API key with this value: the one recorded (`recordedId`: the vendor's usage key id, or its browser
 * usage key id for the browser tier), else one found by name, else a new one.
 */
async function keyIdFor(
  context: UsageKeyContext,
  vendor: VendorRecord,
  value: string,
  actions: UsageKeyActions,
  recordedId = vendor.usageKeyId,
): Promise<string> {
  if (recordedId) {
    try {
      const key = await call(context, 'GetApiKey', { apiKey: recordedId, includeValue: true });
      if (key.value === value) return recordedId;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  const name = keyName(context.usagePlans.stackName, vendor.vendorId);
  const { items = [] } = await call(context, 'GetApiKeys', {
    nameQuery: name,
    includeValues: true,
    limit: 500,
  });
  const existing = items.find((item) => item.name?.startsWith(name) && item.value === value && item.id);
  if (existing?.id) {
    actions.push(`adopted API key ${existing.id}`);
    return existing.id;
  }
  const created = await call(context, 'CreateApiKey', {
    name: `${name}.${vendor.rateTier}`,
    value,
    enabled: true,
    description: `Usage key of vendor ${vendor.vendorId} (rate tier ${vendor.rateTier}); never given to the vendor`,
    tags: { stack: context.usagePlans.stackName, vendor: vendor.vendorId },
  });
  if (!created.id) throw new Error('API Gateway created an API key without an id.');
  actions.push(`created API key ${created.id}`);
  return created.id;
}

/** Puts a key in one tier's plan and in no other plan of the stack (a stage takes a key in one plan only). */
async function linkToTier(
  context: UsageKeyContext,
  keyId: string,
  tier: string,
  actions: UsageKeyActions,
): Promise<void> {
  const target = planOf(context, tier);
  const inPlan = async (usagePlanId: string) => {
    try {
      await call(context, 'GetUsagePlanKey', { usagePlanId, keyId });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  };
  for (const [otherTier, usagePlanId] of Object.entries(context.usagePlans.plans)) {
    if (usagePlanId === target || !(await inPlan(usagePlanId))) continue;
    await call(context, 'DeleteUsagePlanKey', { usagePlanId, keyId });
    actions.push(`removed API key ${keyId} from the ${otherTier} plan`);
  }
  if (!(await inPlan(target))) {
    await call(context, 'CreateUsagePlanKey', { usagePlanId: target, keyId, keyType: 'API_KEY' });
    actions.push(`linked API key ${keyId} to the ${tier} plan`);
  }
}

/** Deletes the retired keys whose grace time has passed; returns those still waiting. */
async function deleteRetiredKeys(
  context: UsageKeyContext,
  vendor: VendorRecord,
  actions: UsageKeyActions,
): Promise<NonNullable<VendorRecord['retiredUsageKeys']>> {
  const now = (context.now ?? (() => new Date()))();
  const waiting: { id: string; deleteAfter: string }[] = [];
  for (const retired of vendor.retiredUsageKeys ?? []) {
    if (new Date(retired.deleteAfter) > now) {
      waiting.push(retired);
      continue;
    }
    if (await deleteApiKeyIfAny(context, retired.id)) actions.push(`deleted retired API key ${retired.id}`);
  }
  return waiting;
}

/**
 * Makes a vendor's API key what its item says: a key with the item's value exists (created, or found again),
 * in its tier's plan and no other; retired keys past their grace time are deleted; the item records the key's
 * id. Running it again does nothing more (only looks).
 */
export async function syncUsageKey(context: UsageKeyContext, vendor: VendorRecord): Promise<UsageKeyActions> {
  const actions: UsageKeyActions = [];
  const value = vendor.usageKey ?? generateUsageKey();
  const keyId = await keyIdFor(context, vendor, value, actions);
  await linkToTier(context, keyId, vendor.rateTier, actions);
  const retired = await deleteRetiredKeys(context, vendor, actions);
  const unchanged =
    vendor.usageKey === value &&
    vendor.usageKeyId === keyId &&
    retired.length === (vendor.retiredUsageKeys ?? []).length;
  if (!unchanged) {
    await saveVendorUsage(context.documentClient, context.vendorsTable, vendor.vendorId, {
      rateTier: vendor.rateTier,
      usageKey: value,
      usageKeyId: keyId,
      retiredUsageKeys: retired,
    });
  }
  return actions;
}

/**
 * Makes a vendor's second key — the one its publishable keys count under — what its item says: a key with the
 * item's `browserUsageKey` value, in the browser tier's plan and no other; the item records its id. Idempotent.
 */
export async function syncBrowserUsageKey(
  context: UsageKeyContext,
  vendor: VendorRecord,
): Promise<UsageKeyActions> {
  const actions: UsageKeyActions = [];
  const value = vendor.browserUsageKey ?? generateUsageKey();
  const keyId = await keyIdFor(
    context,
    { ...vendor, rateTier: BROWSER_TIER },
    value,
    actions,
    vendor.browserUsageKeyId,
  );
  await linkToTier(context, keyId, BROWSER_TIER, actions);
  if (vendor.browserUsageKey !== value || vendor.browserUsageKeyId !== keyId)
    await saveVendorBrowserUsage(context.documentClient, context.vendorsTable, vendor.vendorId, {
      browserUsageKey: value,
      browserUsageKeyId: keyId,
    });
  return actions;
}

/** Both of a vendor's keys: its tier's (`syncUsageKey`) and its publishable keys' (`syncBrowserUsageKey`). */
export async function syncUsageKeys(
  context: UsageKeyContext,
  vendor: VendorRecord,
): Promise<UsageKeyActions> {
  return [...(await syncUsageKey(context, vendor)), ...(await syncBrowserUsageKey(context, vendor))];
}

/**
 * Moves a vendor to another tier without a moment outside any plan: a new key in the new tier's plan becomes
 * the vendor's, and the old one stays in the old plan for `RETIRED_KEY_GRACE_MS` — authorizer answers cached
 * before the move still name it — then `syncUsageKey` deletes it.
 */
export async function moveUsageKey(
  context: UsageKeyContext,
  vendor: VendorRecord,
  tier: string,
): Promise<UsageKeyActions> {
  planOf(context, tier);
  if (vendor.rateTier === tier) return syncUsageKey(context, vendor);
  if (!vendor.usageKeyId) return syncUsageKey(context, { ...vendor, rateTier: tier });
  const actions: UsageKeyActions = [];
  const value = generateUsageKey();
  const keyId = await keyIdFor(context, { ...vendor, rateTier: tier, usageKeyId: undefined }, value, actions);
  await linkToTier(context, keyId, tier, actions);
  const now = (context.now ?? (() => new Date()))();
  const deleteAfter = new Date(now.getTime() + RETIRED_KEY_GRACE_MS).toISOString();
  const saved = await saveVendorUsage(
    context.documentClient,
    context.vendorsTable,
    vendor.vendorId,
    {
      rateTier: tier,
      usageKey: value,
      usageKeyId: keyId,
      retiredUsageKeys: [...(vendor.retiredUsageKeys ?? []), { id: vendor.usageKeyId, deleteAfter }],
    },
    { expectedUsageKey: vendor.usageKey ?? '', now },
  );
  if (!saved) {
    // Changed by someone else since it was read: the new key is not the vendor's, so it goes.
    await call(context, 'DeleteApiKey', { apiKey: keyId });
    throw new Error(
      `vendor ${vendor.vendorId} changed while it was being moved; nothing was changed, try again.`,
    );
  }
  actions.push(`retired API key ${vendor.usageKeyId} (deleted after ${deleteAfter})`);
  return actions;
}

/**
 * Deletes a vendor's two API keys — its tier's and its publishable keys' — which takes them out of their plans: for
 * a vendor that will not call the API again (the smoke check's temporary vendor, docs/operating.md#smoke-check). A
 * key already gone is fine. The item keeps the values, so `vendor sync-usage-keys` would make the keys again.
 */
export async function deleteVendorUsageKeys(
  context: ControlPlane,
  vendor: Pick<VendorRecord, 'usageKeyId' | 'browserUsageKeyId'>,
): Promise<UsageKeyActions> {
  const actions: UsageKeyActions = [];
  for (const id of [vendor.usageKeyId, vendor.browserUsageKeyId]) {
    if (!id) continue;
    if (await deleteApiKeyIfAny(context, id)) actions.push(`deleted API key ${id}`);
  }
  return actions;
}

/** What removing a stack's usage keys did. */
export interface RemovedUsageKeys {
  /** The keys deleted, by id and name. */
  readonly deleted: readonly { readonly id: string; readonly name: string }[];
}

/**
 * Deletes every API Gateway key the ops CLI made for a stack's vendors — found by the name prefix `<stack>.` (and
 * the `stack` tag, when a key has tags), outside CloudFormation, so `cdk destroy` leaves them — paced to API
 * Gateway's quota. Deleting a key takes it out of its usage plans. The vendors' items keep their values: after a
 * new deployment, `vendor sync-usage-keys` makes the keys again.
 */
export async function removeStackUsageKeys(
  context: ControlPlane,
  stackName: string,
): Promise<RemovedUsageKeys> {
  const prefix = `${stackName}.`;
  const keys: { id: string; name: string }[] = [];
  let position: string | undefined;
  do {
    const page = await call(context, 'GetApiKeys', { nameQuery: prefix, limit: 500, position });
    for (const { id, name, tags } of page.items ?? []) {
      if (!id || !name?.startsWith(prefix) || (tags?.stack !== undefined && tags.stack !== stackName))
        continue;
      keys.push({ id, name });
    }
    position = page.position;
  } while (position);
  const deleted: { id: string; name: string }[] = [];
  for (const key of keys) {
    // One deleted meanwhile (by another run) is gone all the same.
    if (await deleteApiKeyIfAny(context, key.id)) deleted.push(key);
  }
  return { deleted };
}

/**
 * Creates the API key of a public agent endpoint of a vendor, with this value, in the `agent` tier's usage plan (a
 * bucket of its own: docs/api.md#agents-mcp); its id. Named `<stack>.<vendor>.agent`, so that
 * `removeStackUsageKeys` finds it with the vendors' keys.
 */
export async function createAgentUsageKey(
  context: UsageKeyContext,
  vendorId: string,
  value: string,
): Promise<string> {
  const plan = planOf(context, AGENT_TIER);
  const created = await call(context, 'CreateApiKey', {
    name: `${keyName(context.usagePlans.stackName, vendorId)}.${AGENT_TIER}`,
    value,
    enabled: true,
    description: `Usage key of a public agent endpoint of vendor ${vendorId}; never given to anyone`,
    tags: { stack: context.usagePlans.stackName, vendor: vendorId },
  });
  if (!created.id) throw new Error('API Gateway created an API key without an id.');
  await call(context, 'CreateUsagePlanKey', { usagePlanId: plan, keyId: created.id, keyType: 'API_KEY' });
  return created.id;
}

/** Deletes a public agent endpoint's API key, which takes it out of its plan; one already gone is fine. */
export async function deleteAgentUsageKey(context: ControlPlane, keyId: string): Promise<void> {
  await deleteApiKeyIfAny(context, keyId);
}

/** Deletes an API key: true when it did, false when the key was already gone. */
async function deleteApiKeyIfAny(context: ControlPlane, keyId: string): Promise<boolean> {
  try {
    await call(context, 'DeleteApiKey', { apiKey: keyId });
    return true;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return false;
  }
}
