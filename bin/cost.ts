#!/usr/bin/env node
/**
 * `npm run cost`: what a deployment costs each month while nobody calls it, for each monitoring profile, computed
 * from the synthesized stack and the price table (lib/cost/); the tables docs/operating.md#cost shows (a test keeps
 * them equal).
 */
import { costTable } from '../lib/cost/fixed-costs';
import { profileCosts } from '../lib/cost/profiles';

for (const [profile, lines] of Object.entries(profileCosts())) {
  console.log(`\n**${profile}** (\`-c monitoring=${profile}\`)\n\n${costTable(lines)}`);
}
