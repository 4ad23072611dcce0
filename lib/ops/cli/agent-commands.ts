/**
 * `vacancy-admin agent add|list|remove` (docs/operating.md#public-agent-endpoints): the commands over the public agent
 * endpoints (`../agents.ts`), each printing an endpoint's URL under the target's API base — or one line saying the CLI
 * does not know it.
 */
import type { Command } from 'commander';
import { MAX_AGENTS_PER_VENDOR } from '../../../lambda/domain/agent-registry/agent';
import { type AgentTarget, type AgentView, addAgent, agentView, listAgents, removeAgent } from '../agents';
import { UserError } from '../errors';
import type { Target } from '../target';
import { action, parse } from './program';

/** The base of the target's public URLs; a one-line error when the CLI cannot know it. */
function apiBase(target: Target): string {
  if (!target.publicBase)
    throw new UserError(
      target.local
        ? 'no local server has recorded its address in these tables: start npm start on them, or restart it.'
        : 'the stack has no ApiUrl output: deploy a version that has.',
    );
  return target.publicBase;
}

const agentTarget = (target: Target): AgentTarget => ({
  documentClient: target.documentClient,
  vendorsTable: target.tables.vendors,
  usageKeys: target.usageKeys,
});

const describe = (view: AgentView) => `${view.agentId}  ${view.vendorId}  ${view.url}  ${view.createdAt}`;

/** `agent add|list|remove` (docs/operating.md#public-agent-endpoints). */
export function addAgentCommands(program: Command): void {
  const agent = program
    .command('agent')
    .description(
      "manage vendors' public agent endpoints: MCP servers with no key, for AI assistants (POST /mcp/<token>)",
    );

  agent
    .command('add')
    .description(
      `add a public agent endpoint of a vendor (at most ${MAX_AGENTS_PER_VENDOR} a vendor); prints its URL`,
    )
    .argument('<vendorId>', 'vendor id', parse.vendorId)
    .action(
      action(async (target, _options, vendorId: string) => {
        const base = apiBase(target);
        const view = agentView(await addAgent(agentTarget(target), vendorId), base);
        return { data: view, text: view.url };
      }),
    );

  agent
    .command('list')
    .description('list public agent endpoints: id, vendor, URL, when added')
    .option('--vendor <vendorId>', "only this vendor's", parse.vendorId)
    .action(
      action(async (target, options) => {
        const base = apiBase(target);
        const views = (await listAgents(agentTarget(target), options.vendor as string | undefined)).map(
          (listed) => agentView(listed, base),
        );
        return { data: views, text: views.length > 0 ? views.map(describe) : 'no public agent endpoints' };
      }),
    );

  agent
    .command('remove <agentId>')
    .description('remove a public agent endpoint: its URL answers 404 from then on')
    .action(
      action(async (target, _options, agentId: string) => {
        const base = apiBase(target);
        const removed = await removeAgent(agentTarget(target), agentId);
        return {
          data: agentView(removed, base),
          text: `public agent endpoint ${agentId} of ${removed.vendorId} removed`,
        };
      }),
    );
}
