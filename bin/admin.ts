#!/usr/bin/env -S node --import tsx
/**
 * `npm run admin -- <command>` / `npx vacancy-admin <command>`: vendors, API keys and vacancy imports, against
 * the local engine or a deployed stack. `--help` on any command says more.
 */
import { addKeyCommands } from '../lib/ops/cli/key-commands';
import { createProgram, runProgram } from '../lib/ops/cli/program';
import { addTableCommands } from '../lib/ops/cli/table-commands';
import { addUsageKeyCommands } from '../lib/ops/cli/usage-key-commands';
import { addVacancyCommands } from '../lib/ops/cli/vacancy-commands';
import { addVendorCommands } from '../lib/ops/cli/vendor-commands';
import { addWebhookCommands } from '../lib/ops/cli/webhook-commands';

const program = createProgram();
for (const addCommands of [
  addVendorCommands,
  addKeyCommands,
  addVacancyCommands,
  addTableCommands,
  addWebhookCommands,
  addUsageKeyCommands,
]) {
  addCommands(program);
}
await runProgram(program);
