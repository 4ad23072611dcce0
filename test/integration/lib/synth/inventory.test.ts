/**
 * docs/operating.md "What gets deployed" and "Dashboard" say what the synthesized template has, per monitoring profile:
 * the table is `npm run inventory`'s, and the counts the prose names are the table's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { MONITORING_PROFILES, type MonitoringProfile } from '../../../../lib/settings';
import { deployedInventory, inventoryTable } from '../../../../lib/synth/inventory';
import type { CfnTemplate } from '../../../../lib/synth/template';
import { sharedSynthesizedTemplate } from '../../../../testkit/synth-server';

const operating = readFileSync(new URL('../../../../docs/operating.md', import.meta.url), 'utf8');
const templates = Object.fromEntries(
  await Promise.all(
    MONITORING_PROFILES.map(async (monitoring) => [
      monitoring,
      await sharedSynthesizedTemplate({ monitoring }),
    ]),
  ),
) as Record<MonitoringProfile, CfnTemplate>;
const inventory = deployedInventory(templates);
const row = (what: RegExp) => inventory.find((entry) => what.test(entry.what))?.counts;
const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];

describe('what gets deployed, in the docs', () => {
  it('is the table npm run inventory prints', () => {
    const documented = /<!-- inventory -->\n([\s\S]*?)\n<!-- \/inventory -->/.exec(operating)?.[1];
    expect(documented).toBe(inventoryTable(inventory));
  });

  it("names as many functions as the template has, and the dashboard's alarms as the detailed profile's", () => {
    const functions = /- (\w+) functions on Node\.js 24/.exec(operating)?.[1]?.toLowerCase();
    expect(WORDS.indexOf(functions ?? '')).toBe(row(/^the service's Lambda functions/)?.default);
    const dashboardAlarms = /the state of each of the stack's alarms \((\d+) with this profile/.exec(
      operating,
    )?.[1];
    expect(Number(dashboardAlarms)).toBe(row(/^CloudWatch alarms/)?.detailed);
    // What only the detailed profile has.
    expect(row(/^CloudWatch dashboards/)).toEqual({ default: 0, detailed: 1 });
    expect(row(/^Contributor Insights rules/)?.default).toBe(0);
    const rules = /(\w+) Contributor Insights rules \(the vendors/.exec(operating)?.[1]?.toLowerCase();
    expect(WORDS.indexOf(rules ?? '')).toBe(row(/^Contributor Insights rules/)?.detailed);
  });

  it('names every output of the template, in each monitoring profile, in its list of outputs', () => {
    const listed = /\*\*Outputs\*\*: ([\s\S]*?)\n\n/.exec(operating)?.[1] ?? '';
    for (const monitoring of ['default', 'detailed'] as const) {
      const outputs = Object.keys(
        (templates[monitoring] as { Outputs?: Record<string, unknown> }).Outputs ?? {},
      );
      expect(outputs.length).toBeGreaterThan(10);
      // CDK's own outputs end with a hash of their path: the docs name them without it (`ApiEndpoint…`).
      for (const output of outputs) {
        const name = output.replace(/[0-9A-F]{8}$/, '');
        expect([output, listed.includes(`\`${name}`)]).toEqual([output, true]);
      }
    }
  });
});
