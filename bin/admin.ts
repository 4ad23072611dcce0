#!/usr/bin/env -S node --import tsx
/**
 * `npm run admin -- <command>` / `npx vacancy-admin <command>`: vendors, API keys and vacancy imports, against
 * the local engine or a deployed stack, and the smoke check after a deploy. `--help` on any command says more.
 */
import { adminProgram } from '../lib/ops/cli/admin-program';
import { runProgram } from '../lib/ops/cli/program';

await runProgram(adminProgram());
