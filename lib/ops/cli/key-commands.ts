import type { Command } from 'commander';
import { KEY_ORIGIN_RULE, MAX_KEY_ORIGINS, normalizeKeyOrigin } from '../../../lambda/domain/schema/vendors';
import { API_KEY_PREFIXES, issueApiKey, listApiKeys, revokeApiKey } from '../api-keys';
import { UserError } from '../errors';
import { requireVendor } from '../vendors';
import { action, parse } from './program';

/**
 * The origins of `key issue --publishable --origin …`, checked and as stored — a default port dropped
 * (docs/operating.md#vendors-and-keys); undefined for a secret key. Each mistake is one line.
 */
function publishableOrigins(
  publishable: boolean,
  given: readonly string[] | undefined,
): string[] | undefined {
  const origins = given ?? [];
  if (!publishable) {
    if (origins.length > 0) throw new UserError('--origin is for a publishable key: add --publishable.');
    return undefined;
  }
  if (origins.length === 0)
    throw new UserError(
      'a publishable key needs at least one --origin, e.g. --origin https://careers.example.az.',
    );
  const invalid = origins.find((origin) => normalizeKeyOrigin(origin) === undefined);
  if (invalid !== undefined)
    throw new UserError(`--origin ${JSON.stringify(invalid)} is not allowed: ${KEY_ORIGIN_RULE}.`);
  const distinct = [...new Set(origins.map((origin) => normalizeKeyOrigin(origin) as string))];
  if (distinct.length > MAX_KEY_ORIGINS)
    throw new UserError(
      `a publishable key takes at most ${MAX_KEY_ORIGINS} origins; ${distinct.length} given.`,
    );
  return distinct;
}

/** `key issue|list|revoke`. */
export function addKeyCommands(program: Command): void {
  const key = program
    .command('key')
    .description(
      'issue, list and revoke API keys; rotate by issuing a new key, moving clients, then revoking the old one',
    );
  key
    .command('issue')
    .description('issue a new key for a vendor; the key is shown once, only its hash is stored')
    .argument('<vendorId>', 'vendor id', parse.vendorId)
    .option('--label <label>', 'what the key is for, e.g. "career page"', 'default')
    .option('--publishable', 'a publishable key, for web pages: it works only from its --origin values')
    .option(
      '--origin <origin>',
      `an origin a publishable key works from (1 to ${MAX_KEY_ORIGINS}; repeat it), e.g. https://careers.example.az`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(
      action(async (target, options, id: string) => {
        const origins = publishableOrigins(options.publishable === true, options.origin);
        await requireVendor(target.documentClient, target.tables.vendors, id);
        const label = options.label ?? 'default';
        const issued = await issueApiKey(target.documentClient, target.tables.vendors, id, label, origins);
        if (!issued) throw new UserError(`vendor "${id}" does not exist.`);
        return {
          data: issued,
          text: origins
            ? [
                `publishable key ${issued.keyId} issued for ${id} (${label}), for ${origins.join(', ')}:`,
                '',
                `  ${issued.apiKey}`,
                '',
                'It may be in a web page: it works only from these origins, and only for what a career page shows.',
              ]
            : [
                `key ${issued.keyId} issued for ${id} (${label}):`,
                '',
                `  ${issued.apiKey}`,
                '',
                'Store it now: it cannot be shown again.',
              ],
        };
      }),
    );

  key
    .command('list')
    .description("list a vendor's keys (ids, labels, dates; never the keys)")
    .argument('<vendorId>', 'vendor id', parse.vendorId)
    .action(
      action(async (target, _options, id: string) => {
        await requireVendor(target.documentClient, target.tables.vendors, id);
        const keys = await listApiKeys(target.documentClient, target.tables.vendors, id);
        const lines = keys.map(
          (k) =>
            `${k.keyId}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'live'.padEnd(32)}  created ${k.createdAt}  ${k.label}${k.keyKind === 'publishable' ? `  publishable: ${(k.origins ?? []).join(' ')}` : ''}`,
        );
        return { data: keys, text: lines.length > 0 ? lines : `vendor ${id} has no keys` };
      }),
    );

  key
    .command('revoke <keyId>')
    .description('revoke a key by its id; refused within the authorizer cache time (300 s by default)')
    .action(
      action(async (target, _options, keyId: string) => {
        const outcome = await revokeApiKey(target.documentClient, target.tables.vendors, keyId);
        if ('notFound' in outcome) {
          // Pasting the key itself is the usual slip: it is never stored, only its hash — and its id.
          const isKey = Object.values(API_KEY_PREFIXES).some((prefix) => keyId.startsWith(prefix));
          throw new UserError(
            isKey
              ? `"${keyId.slice(0, 4)}…" is a key itself, not a key's id: keys are revoked by id.`
              : `key "${keyId}" does not exist.`,
            isKey ? '"key list <vendor>" shows each key\'s id (key_…); then "key revoke <id>".' : undefined,
          );
        }
        if ('alreadyRevoked' in outcome) {
          return {
            data: outcome.alreadyRevoked,
            text: `key ${keyId} was already revoked (${outcome.alreadyRevoked.revokedAt})`,
          };
        }
        return { data: outcome.revoked, text: `key ${keyId} of ${outcome.revoked.vendorId} revoked` };
      }),
    );
}
