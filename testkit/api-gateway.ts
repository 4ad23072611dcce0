/**
 * API Gateway's control plane as far as usage keys go — keys, values, usage plans and their keys, and API Gateway's
 * conflicts — as a small stateful stand-in on aws-sdk-client-mock (there is no engine to run here), for a client or
 * for every client of the class.
 */
import {
  type APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeyCommand,
  GetApiKeysCommand,
  GetUsagePlanKeyCommand,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';

export const PLANS = { standard: 'plan-standard', partner: 'plan-partner', browser: 'plan-browser' };

/** API Gateway's control plane, as far as usage keys go: what it holds, and what it refuses. */
export function fakeApiGateway(client: APIGatewayClient | typeof APIGatewayClient, clock: { now(): number }) {
  const keys = new Map<string, { id: string; name: string; value: string; tags?: Record<string, string> }>();
  const links = new Map<string, Set<string>>(Object.values(PLANS).map((plan) => [plan, new Set<string>()]));
  const calls: { operation: string; at: number }[] = [];
  const notFound = () =>
    new NotFoundException({ message: 'Invalid API Key identifier specified', $metadata: {} });
  const conflict = () => new ConflictException({ message: 'Conflict', $metadata: {} });
  const mock = mockClient(client);
  const record = (operation: string) => calls.push({ operation, at: clock.now() });
  let nextId = 1;

  mock.on(CreateApiKeyCommand).callsFake(({ name, value, tags }) => {
    record('CreateApiKey');
    if ([...keys.values()].some((key) => key.value === value)) throw conflict();
    const id = `key${nextId++}`;
    keys.set(id, { id, name, value, ...(tags && { tags }) });
    return { id, name, value, enabled: true };
  });
  mock.on(GetApiKeyCommand).callsFake(({ apiKey, includeValue }) => {
    record('GetApiKey');
    const key = keys.get(apiKey);
    if (!key) throw notFound();
    return { id: key.id, name: key.name, ...(includeValue && { value: key.value }) };
  });
  mock.on(GetApiKeysCommand).callsFake(({ nameQuery, includeValues }) => {
    record('GetApiKeys');
    const items = [...keys.values()].filter((key) => key.name.startsWith(nameQuery ?? ''));
    return {
      items: items.map((key) => ({
        id: key.id,
        name: key.name,
        ...(key.tags && { tags: key.tags }),
        ...(includeValues && { value: key.value }),
      })),
    };
  });
  mock.on(GetUsagePlanKeyCommand).callsFake(({ usagePlanId, keyId }) => {
    record('GetUsagePlanKey');
    if (!links.get(usagePlanId)?.has(keyId)) throw notFound();
    return { id: keyId, type: 'API_KEY' };
  });
  mock.on(CreateUsagePlanKeyCommand).callsFake(({ usagePlanId, keyId }) => {
    record('CreateUsagePlanKey');
    if (!keys.has(keyId)) throw notFound();
    // All the plans are on the same stage: a key can be in one of them only.
    if ([...links.values()].some((members) => members.has(keyId))) throw conflict();
    links.get(usagePlanId)?.add(keyId);
    return { id: keyId };
  });
  mock.on(DeleteUsagePlanKeyCommand).callsFake(({ usagePlanId, keyId }) => {
    record('DeleteUsagePlanKey');
    if (!links.get(usagePlanId)?.delete(keyId)) throw notFound();
    return {};
  });
  mock.on(DeleteApiKeyCommand).callsFake(({ apiKey }) => {
    record('DeleteApiKey');
    if (!keys.delete(apiKey)) throw notFound();
    for (const members of links.values()) members.delete(apiKey);
    return {};
  });

  return {
    keys,
    calls,
    /** The plan a key is in, by tier name. */
    tierOf: (keyId: string) => Object.entries(PLANS).find(([, plan]) => links.get(plan)?.has(keyId))?.[0],
    unlink: (keyId: string) => {
      for (const members of links.values()) members.delete(keyId);
    },
    link: (keyId: string, tier: keyof typeof PLANS) => links.get(PLANS[tier])?.add(keyId),
  };
}
