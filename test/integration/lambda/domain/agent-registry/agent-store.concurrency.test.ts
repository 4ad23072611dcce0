/**
 * "At most 5 public agent endpoints a vendor" when adds race (docs/api.md#agents-mcp), on the embedded engine: ten
 * adds at once make five endpoints, each with a token and usage key of its own; a removal frees one place, which one of
 * three racing adds gets; ten adds at once through the CLI's path make five and refuse the rest in its one line; a
 * vendor's feeds and webhook endpoints take none of its endpoints' places, nor its endpoints theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentIdOf, MAX_AGENTS_PER_VENDOR } from '../../../../../lambda/domain/agent-registry/agent';
import { AgentStore } from '../../../../../lambda/domain/agent-registry/agent-store';
import { MAX_FEEDS_PER_VENDOR } from '../../../../../lambda/domain/feed-registry/feed';
import { FeedStore } from '../../../../../lambda/domain/feed-registry/feed-store';
import { MAX_ENDPOINTS_PER_VENDOR } from '../../../../../lambda/domain/webhook-registry/endpoint';
import { addAgent } from '../../../../../lib/ops/agents';
import { generateUsageKey, putVendor } from '../../../../../lib/ops/vendors';
import { addEndpoint } from '../../../../../lib/ops/webhooks';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';

describe('public agent endpoints added at once', () => {
  let tables: TestTables;
  let store: AgentStore;
  const usageKey = () => ({ usageKey: generateUsageKey() });

  beforeAll(async () => {
    tables = await createTestTables();
    store = new AgentStore(tables.documentClient, tables.names.vendors);
  });
  afterAll(async () => tables?.drop());

  it(`makes exactly ${MAX_AGENTS_PER_VENDOR} endpoints of ten adds at once, and a removal frees a place`, async () => {
    const adds = await Promise.all(Array.from({ length: 10 }, () => store.add('racing', usageKey)));
    const made = adds.flatMap((placed) => ('added' in placed ? [placed.added] : []));
    expect(made).toHaveLength(MAX_AGENTS_PER_VENDOR);
    expect(adds.filter((placed) => 'refused' in placed)).toEqual(
      Array.from({ length: 10 - MAX_AGENTS_PER_VENDOR }, () => ({ refused: 'full' })),
    );
    // Each its own: token, id drawn from it, usage key (a bucket of its own).
    expect(new Set(made.map((agent) => agent.token)).size).toBe(MAX_AGENTS_PER_VENDOR);
    expect(new Set(made.map((agent) => agent.usageKey)).size).toBe(MAX_AGENTS_PER_VENDOR);
    for (const agent of made) expect(agent.agentId).toBe(agentIdOf(agent.token));
    expect((await store.ofVendor('racing')).map((agent) => agent.agentId).sort()).toEqual(
      made.map((agent) => agent.agentId).sort(),
    );

    await store.remove(made[0]?.agentId ?? '');
    const again = await Promise.all(Array.from({ length: 3 }, () => store.add('racing', usageKey)));
    expect(again.filter((placed) => 'added' in placed)).toHaveLength(1);
    expect(await store.ofVendor('racing')).toHaveLength(MAX_AGENTS_PER_VENDOR);
  });

  it("refuses the CLI's racing adds past five in its one line", async () => {
    const { documentClient, names } = tables;
    await putVendor(documentClient, names.vendors, { vendorId: 'busy', company: 'Busy LLC' });
    const target = { documentClient, vendorsTable: names.vendors };
    const adds = await Promise.allSettled(Array.from({ length: 10 }, () => addAgent(target, 'busy')));
    expect(adds.filter((add) => add.status === 'fulfilled')).toHaveLength(MAX_AGENTS_PER_VENDOR);
    const reasons = adds.flatMap((add) => (add.status === 'rejected' ? [String(add.reason.message)] : []));
    expect(new Set(reasons)).toEqual(
      new Set(['vendor "busy" has 5 public agent endpoints, the most it may have; remove one first.']),
    );
    expect(await store.ofVendor('busy')).toHaveLength(MAX_AGENTS_PER_VENDOR);
  });

  it("counts a vendor's endpoints apart from its feeds and its webhook endpoints", async () => {
    const feeds = new FeedStore(tables.documentClient, tables.names.vendors);
    const [agents, feedAdds] = await Promise.all([
      Promise.all(Array.from({ length: MAX_AGENTS_PER_VENDOR }, () => store.add('all', usageKey))),
      Promise.all(Array.from({ length: MAX_FEEDS_PER_VENDOR }, () => feeds.add('all', 'sitemap', 'az'))),
      Promise.all(
        Array.from({ length: MAX_ENDPOINTS_PER_VENDOR }, () =>
          addEndpoint(tables.documentClient, tables.names.vendors, 'all', 'https://receiver.example/hook', {
            allowLoopbackHttp: false,
          }),
        ),
      ),
    ]);
    expect(agents.every((placed) => 'added' in placed)).toBe(true);
    expect(feedAdds.every((placed) => 'added' in placed)).toBe(true);
    expect(await store.ofVendor('all')).toHaveLength(MAX_AGENTS_PER_VENDOR);
    expect(await store.add('all', usageKey)).toEqual({ refused: 'full' });
  });
});
