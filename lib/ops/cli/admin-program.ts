/**
 * The whole ops CLI (`bin/admin.ts`): the program with every command group. One place that knows them all, so that
 * docs/operating.md's command table can be held to the commands there are.
 */
import type { Command } from 'commander';
import { addAgentCommands } from './agent-commands';
import { addFeedCommands } from './feed-commands';
import { addKeyCommands } from './key-commands';
import { createProgram } from './program';
import { addSmokeCommand } from './smoke-command';
import { addTableCommands } from './table-commands';
import { addUsageKeyCommands } from './usage-key-commands';
import { addVacancyCommands } from './vacancy-commands';
import { addVendorCommands } from './vendor-commands';
import { addWebhookCommands } from './webhook-commands';

/** The command groups, in the order `--help` lists them. */
const COMMAND_GROUPS: readonly ((program: Command) => void)[] = [
  addVendorCommands,
  addKeyCommands,
  addVacancyCommands,
  addTableCommands,
  addWebhookCommands,
  addFeedCommands,
  addAgentCommands,
  addUsageKeyCommands,
  addSmokeCommand,
];

/** `vacancy-admin` with all its commands. */
export function adminProgram(): Command {
  const program = createProgram();
  for (const addCommands of COMMAND_GROUPS) addCommands(program);
  return program;
}

/** Every command a user can run, as typed after `vacancy-admin` (`vendor put`, `webhook add`, …); hidden ones left out. */
export function commandPaths(command: Command, prefix: readonly string[] = []): string[] {
  return command.commands
    .filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden)
    .flatMap((sub) => {
      const path = [...prefix, sub.name()];
      return sub.commands.length > 0 ? commandPaths(sub, path) : [path.join(' ')];
    });
}
