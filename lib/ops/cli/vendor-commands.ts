import type { Command } from 'commander';
import type { VendorStatus } from '../../../lambda/domain/schema/vendors';
import { normalizeUrl } from '../../../lambda/domain/schema/web-url';
import { isVendorTier, NOT_A_VENDOR_TIER } from '../../../lambda/domain/settings/rate-tiers';
import { UserError } from '../errors';
import type { Target } from '../target';
import { moveUsageKey, syncUsageKeys, type UsageKeyActions } from '../usage-keys';
import { getVendorRecord, listVendors, putVendor, saveVendorUsage, setVendorStatus } from '../vendors';
import { action, parse } from './program';

/** The longest company name: it is in every response, so it is bounded like a vacancy title. */
export const MAX_COMPANY_CHARACTERS = 200;

/** A tier of the target, or a one-line error naming the ones there are. */
function knownTier(target: Target, tier: string): string {
  if (!isVendorTier(tier)) throw new UserError(`${NOT_A_VENDOR_TIER}.`);
  if (!target.rateTiers.names.includes(tier)) {
    throw new UserError(
      `"${tier}" is not a rate tier of ${target.description}: ${target.rateTiers.names.join(', ')}.`,
    );
  }
  return tier;
}

/** The lines of what usage key work did, or what it would need. */
function usageKeyLines(target: Target, actions: UsageKeyActions | undefined): string[] {
  if (actions) return actions.map((line) => `  ${line}`);
  return target.local
    ? []
    : [
        "  (no stack: the vendor item holds its usage key; give --stack to put it into the tier's usage plan)",
      ];
}

/**
 * `--website` and `--logo` as they are stored: each given one normalized by the URL rule (`domain/schema/web-url.ts`), ""
 * kept as "" (it removes the link), one that breaks the rule refused in one line naming its option.
 */
function vendorLinks(options: { website?: string; logo?: string }): { website?: string; logo?: string } {
  const links: { website?: string; logo?: string } = {};
  for (const name of ['website', 'logo'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (value === '') {
      links[name] = '';
      continue;
    }
    const checked = normalizeUrl(`--${name}`, value, 'vendorLink');
    if (!checked.ok) throw new UserError(`${checked.reason}.`);
    links[name] = checked.url;
  }
  return links;
}

/** `vendor put|suspend|activate|tier|list|sync-usage-keys`. */
export function addVendorCommands(program: Command): void {
  const vendor = program
    .command('vendor')
    .description('create, rename, suspend, activate, list vendors, and move them between rate tiers');
  vendor
    .command('put')
    .description(
      'create a vendor, or rename it (its status and tier are kept); against a stack, also its usage key',
    )
    .requiredOption('--company <name>', 'company name, returned as "company" by the API')
    .option('--tier <tier>', "its rate tier (default: the deployment's default tier for a new vendor)")
    .option('--website <url>', 'its website, an absolute https URL, named by JobPostings ("" removes it)')
    .option('--logo <url>', 'its logo, an absolute https URL, shown by JobPostings ("" removes it)')
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
        const links = vendorLinks(options);
        const tier = options.tier === undefined ? undefined : knownTier(target, options.tier);
        const existing = await getVendorRecord(target.documentClient, target.tables.vendors, id);
        if (existing && tier !== undefined && tier !== existing.rateTier) {
          throw new UserError(
            `vendor ${id} is on tier ${existing.rateTier}: move it with "vendor tier ${id} ${tier}".`,
          );
        }
        const saved = await putVendor(
          target.documentClient,
          target.tables.vendors,
          {
            vendorId: id,
            company,
            ...(tier && { rateTier: tier }),
            ...links,
          },
          { defaultRateTier: target.rateTiers.defaultTier },
        );
        const actions = target.usageKeys ? await syncUsageKeys(target.usageKeys, saved) : undefined;
        // Its feeds state its company and website: built again now (a vendor without feeds builds nothing).
        await target.buildFeeds?.(saved.vendorId);
        return {
          data: {
            vendorId: saved.vendorId,
            company: saved.company,
            status: saved.status,
            rateTier: saved.rateTier,
            website: saved.website ?? null,
            logo: saved.logo ?? null,
            usageKey: actions ?? null,
          },
          text: [
            `vendor ${saved.vendorId} "${saved.company}" (${saved.status}, tier ${saved.rateTier})`,
            ...usageKeyLines(target, actions),
          ],
        };
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
          // A suspended vendor's feeds hold no vacancies; an activated one's hold them again.
          await target.buildFeeds?.(id);
          return { data: { vendorId: id, status }, text: `vendor ${id} is now ${status}` };
        }),
      );
  }

  vendor
    .command('tier')
    .description('move a vendor to another rate tier (within the authorizer cache time, 300 s by default)')
    .argument('<id>', 'vendor id', parse.vendorId)
    .argument('<tier>', 'rate tier')
    .action(
      action(async (target, _options, id: string, tier: string) => {
        knownTier(target, tier);
        const record = await getVendorRecord(target.documentClient, target.tables.vendors, id);
        if (!record) throw new UserError(`vendor "${id}" does not exist.`);
        let actions: UsageKeyActions | undefined;
        if (target.usageKeys) actions = await moveUsageKey(target.usageKeys, record, tier);
        else {
          // No stack: the tier on the item is what the local server enforces (against a deployment's tables,
          // "vendor sync-usage-keys --stack" moves its key into the new plan).
          await saveVendorUsage(target.documentClient, target.tables.vendors, id, {
            rateTier: tier,
            usageKey: record.usageKey ?? '',
            ...(record.usageKeyId && { usageKeyId: record.usageKeyId }),
            ...(record.retiredUsageKeys && { retiredUsageKeys: record.retiredUsageKeys }),
          });
        }
        return {
          data: { vendorId: id, from: record.rateTier, rateTier: tier, usageKey: actions ?? null },
          text: [
            `vendor ${id} moved from tier ${record.rateTier} to ${tier}`,
            ...usageKeyLines(target, actions),
          ],
        };
      }),
    );

  vendor
    .command('sync-usage-keys')
    .description(
      "give every vendor of a deployed stack its API key in its tier's usage plan, and delete retired keys; idempotent",
    )
    .action(
      action(async (target) => {
        if (!target.usageKeys) {
          throw new UserError('usage keys live in API Gateway: give --stack <name> of a deployed stack.');
        }
        const vendors = await listVendors(target.documentClient, target.tables.vendors);
        const report: { vendorId: string; actions: UsageKeyActions }[] = [];
        for (const record of vendors)
          report.push({ vendorId: record.vendorId, actions: await syncUsageKeys(target.usageKeys, record) });
        const changed = report.filter((entry) => entry.actions.length > 0);
        return {
          data: report,
          text: [
            ...changed.flatMap((entry) => [
              `${entry.vendorId}:`,
              ...entry.actions.map((line) => `  ${line}`),
            ]),
            `${vendors.length} vendors checked, ${changed.length} changed`,
          ],
        };
      }),
    );

  vendor
    .command('list')
    .description('list every vendor, with its status and rate tier')
    .action(
      action(async (target) => {
        const vendors = await listVendors(target.documentClient, target.tables.vendors);
        const lines = vendors.map(
          (v) => `${v.vendorId.padEnd(24)} ${v.status.padEnd(10)} ${v.rateTier.padEnd(12)} ${v.company}`,
        );
        return {
          data: vendors.map(
            ({ usageKey: _usageKey, usageKeyId: _id, retiredUsageKeys: _retired, ...shown }) => shown,
          ),
          text: lines.length > 0 ? lines : 'no vendors',
        };
      }),
    );
}
