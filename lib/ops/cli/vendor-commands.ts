import type { Command } from 'commander';
import type { VendorStatus } from '../../../lambda/schema/vendors';
import { UserError } from '../target';
import { listVendors, putVendor, setVendorStatus } from '../vendors';
import { action, parse } from './program';

/** The longest company name: it is in every response, so it is bounded like a vacancy title. */
export const MAX_COMPANY_CHARACTERS = 200;

/** `vendor put|suspend|activate|list`. */
export function addVendorCommands(program: Command): void {
  const vendor = program.command('vendor').description('create, rename, suspend, activate and list vendors');
  vendor
    .command('put')
    .description('create a vendor, or rename it (its status is kept)')
    .requiredOption('--company <name>', 'company name, returned as "company" by the API')
    .argument('<id>', 'vendor id', parse.vendorId)
    .action(
      action(async (target, options, id: string) => {
        const company = options.company?.trim() ?? '';
        if (!company) throw new UserError('--company must not be empty.');
        if (
          [...company].length > MAX_COMPANY_CHARACTERS ||
          !company.isWellFormed() ||
          /\p{Cc}/u.test(company)
        ) {
          throw new UserError(
            `--company must be at most ${MAX_COMPANY_CHARACTERS} characters of text, without control characters.`,
          );
        }
        const saved = await putVendor(target.documentClient, target.tables.vendors, {
          vendorId: id,
          company,
        });
        return { data: saved, text: `vendor ${saved.vendorId} "${saved.company}" (${saved.status})` };
      }),
    );

  const effects: Record<'suspend' | 'activate', [VendorStatus, string]> = {
    suspend: ['suspended', 'its keys get 403 until it is activated again'],
    activate: ['active', 'its live keys work again'],
  };
  for (const [name, [status, effect]] of Object.entries(effects)) {
    vendor
      .command(name)
      .description(`${name} a vendor: ${effect} (after the authorizer cache, 300 s by default)`)
      .argument('<id>', 'vendor id', parse.vendorId)
      .action(
        action(async (target, _options, id: string) => {
          const changed = await setVendorStatus(target.documentClient, target.tables.vendors, id, status);
          if (!changed) throw new UserError(`vendor "${id}" does not exist.`);
          return { data: { vendorId: id, status }, text: `vendor ${id} is now ${status}` };
        }),
      );
  }

  vendor
    .command('list')
    .description('list every vendor')
    .action(
      action(async (target) => {
        const vendors = await listVendors(target.documentClient, target.tables.vendors);
        const lines = vendors.map((v) => `${v.vendorId.padEnd(24)} ${v.status.padEnd(10)} ${v.company}`);
        return { data: vendors, text: lines.length > 0 ? lines : 'no vendors' };
      }),
    );
}
