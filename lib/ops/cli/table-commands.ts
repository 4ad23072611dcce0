import type { Command } from 'commander';
import { createTables } from '../../create-tables';
import { UserError } from '../errors';
import { action } from './program';

/** `tables create`: the local engine's tables (in AWS the stack creates them). */
export function addTableCommands(program: Command): void {
  program
    .command('tables')
    .description('manage the tables of a local engine')
    .command('create')
    .description('create the tables (from lambda/domain/schema/tables.ts) on the local endpoint; idempotent')
    .action(
      action(async (target) => {
        if (!target.local)
          throw new UserError(
            'tables are created by "cdk deploy" in AWS; "tables create" is for a local --endpoint.',
          );
        await createTables(target.client, target.tables);
        return { data: target.tables, text: `tables ready: ${Object.values(target.tables).join(', ')}` };
      }),
    );
}
