/**
 * What a deployment costs while nobody calls it (docs/operating.md#cost), computed from the synthesized stack of each
 * monitoring profile against the price table (`lib/cost/`): the default profile stays within $1.50 a month, and the
 * docs' tables are the computed ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { costTable, fixedCosts, monthlyTotal } from '../../../../lib/cost/fixed-costs';
import { PRICES } from '../../../../lib/cost/prices';
import { profileCosts } from '../../../../lib/cost/profiles';
import { MONITORING_PROFILES } from '../../../../lib/settings';
import { sharedSynthesizedTemplate } from '../../../../testkit/synth-server';

const costs = profileCosts(
  Object.fromEntries(
    await Promise.all(
      MONITORING_PROFILES.map(async (monitoring) => [
        monitoring,
        await sharedSynthesizedTemplate({ monitoring }),
      ]),
    ),
  ),
);
const operating = readFileSync(new URL('../../../../docs/operating.md', import.meta.url), 'utf8');
/** A table of the docs between its markers. */
const documented = (profile: string) =>
  new RegExp(`<!-- cost:${profile} -->\\n([\\s\\S]*?)\\n<!-- /cost:${profile} -->`).exec(operating)?.[1];

describe('the fixed monthly cost', () => {
  it('is at most $1.50 with the default monitoring profile', () => {
    expect(monthlyTotal(costs.default)).toBeLessThanOrEqual(1.5);
    // No dashboard, no rule, no metric the functions emit: alarms on free metrics, two log filters.
    expect(costs.default.map(({ item }) => item)).not.toContainEqual(
      expect.stringMatching(/dashboard|Contributor/),
    );
    expect(costs.default).toContainEqual(
      expect.objectContaining({ item: expect.stringContaining('0 from the functions'), count: 2 }),
    );
  });

  it("is what the docs' tables say, for both profiles (npm run cost prints them)", () => {
    expect(documented('default')).toBe(costTable(costs.default));
    expect(documented('detailed')).toBe(costTable(costs.detailed));
  });

  it("counts what the detailed profile adds: the dashboard, the rules, the functions' metrics", () => {
    const item = (name: RegExp) => costs.detailed.find(({ item }) => name.test(item));
    expect(item(/^dashboards/)?.count).toBe(1);
    expect(item(/^Contributor Insights/)?.count).toBe(5);
    // authorizer 2, listing 5, expiry 4 — ColdStart once per function; and two log filters.
    expect(item(/^custom metrics/)).toMatchObject({ count: 13, monthly: 13 * PRICES.customMetric });
  });

  it('sees a setting that adds a fixed cost: the WAF rate limit', async () => {
    const withWaf = fixedCosts(await sharedSynthesizedTemplate({ wafRateLimit: 1000 }));
    expect(monthlyTotal(withWaf) - monthlyTotal(costs.default)).toBeCloseTo(
      PRICES.wafWebAcl + PRICES.wafRule,
      2,
    );
  });
});
