import { readFile } from 'node:fs/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AGENT_TOKEN, agentIdOf, MAX_AGENTS_PER_VENDOR } from '../../lambda/domain/agent-registry/agent';
import { AgentStore } from '../../lambda/domain/agent-registry/agent-store';
import { writeVacancies } from '../../lambda/domain/import/import';
import { parseRecordJson, validateVacancyRecord } from '../../lambda/domain/import/record';
import type { TableNames } from '../../lambda/domain/schema/tables';
import type { Vacancy } from '../../lambda/domain/schema/vacancy';
import {
  isVendorId,
  KEY_ORIGIN_RULE,
  MAX_KEY_ORIGINS,
  normalizeKeyOrigin,
  VENDOR_ID_RULE,
  VENDOR_STATUSES,
  type VendorStatus,
} from '../../lambda/domain/schema/vendors';
import { normalizeUrl } from '../../lambda/domain/schema/web-url';
import { findApiKey, hashApiKey } from '../../lambda/functions/authorizer/key-lookup';
import { parseRfc3339 } from '../../lambda/platform/time/rfc3339';
import type { ZoneClock } from '../../lambda/platform/time/zone-clock';
import { storeApiKey } from '../ops/api-keys';
import { generateUsageKey, getVendorRecord, putVendor } from '../ops/vendors';
import { InvalidSeedError } from './errors';

/** A vendor of a seed file, with its API keys in plain text (local use only; they are hashed on load). */
export interface SeedVendor {
  readonly id: string;
  readonly company: string;
  readonly status: VendorStatus;
  /** Its rate tier; the deployment's default tier when absent. */
  readonly rate_tier?: string;
  readonly api_keys: readonly string[];
  /** Publishable keys (docs/api.md#from-a-web-page): each key and the origins it works from. */
  readonly publishable_keys?: readonly { readonly key: string; readonly origins: readonly string[] }[];
  /** Tokens of its public agent endpoints (`POST /mcp/<token>`, docs/api.md#agents-mcp), as `agent add` makes them. */
  readonly agent_tokens?: readonly string[];
  /** Its website and logo, absolute https URLs, named by its JobPostings. */
  readonly website?: string;
  readonly logo?: string;
}

/** What a seed is checked against: the service time zone, and the rate tiers of the deployment. */
export interface SeedRules {
  readonly clock: ZoneClock;
  readonly rateTiers: readonly string[];
}

/** A validated seed file (docs/operating.md#seed-files). */
export interface Seed {
  readonly vendors: readonly SeedVendor[];
  readonly vacancies: readonly Vacancy[];
  /**
   * When the seed's story last changed a vacancy (ms), by id, for those whose record says (`updated_at`): it is written
   * as it was then — closed then, expired when its deadline passed — rather than at the moment the seed is loaded.
   */
  readonly updatedAt?: ReadonlyMap<number, number>;
}

function parseVendor(
  input: unknown,
  where: string,
  problems: string[],
  rateTiers: readonly string[],
): SeedVendor | undefined {
  const vendor = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const before = problems.length;
  if (!isVendorId(vendor.id)) problems.push(`${where}.id: ${VENDOR_ID_RULE}`);
  if (typeof vendor.company !== 'string' || vendor.company.trim() === '') {
    problems.push(`${where}.company must be a non-empty string`);
  }
  if (!VENDOR_STATUSES.includes(vendor.status as VendorStatus)) {
    problems.push(`${where}.status must be one of ${VENDOR_STATUSES.join(', ')}`);
  }
  if (vendor.rate_tier !== undefined && !rateTiers.includes(vendor.rate_tier as string)) {
    problems.push(`${where}.rate_tier must be one of ${rateTiers.join(', ')}`);
  }
  const keys = vendor.api_keys;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' && key.length >= 8)) {
    problems.push(`${where}.api_keys must be a list of keys of at least 8 characters`);
  }
  const publishable = vendor.publishable_keys ?? [];
  const validPublishable =
    Array.isArray(publishable) &&
    publishable.every((entry: { key?: unknown; origins?: unknown }) => {
      const { key, origins } = entry ?? {};
      return (
        typeof key === 'string' &&
        key.length >= 8 &&
        Array.isArray(origins) &&
        origins.length >= 1 &&
        origins.length <= MAX_KEY_ORIGINS &&
        origins.every((origin) => normalizeKeyOrigin(origin) !== undefined)
      );
    });
  if (!validPublishable) {
    problems.push(
      `${where}.publishable_keys must be a list of {"key", "origins"}: keys of at least 8 characters, 1 to ${MAX_KEY_ORIGINS} origins each (${KEY_ORIGIN_RULE})`,
    );
  }
  // Stored as the CLI stores them (`vendor put --website --logo`): normalized by the one URL rule.
  const links: { website?: string; logo?: string } = {};
  for (const link of ['website', 'logo'] as const) {
    if (vendor[link] === undefined) continue;
    const checked = normalizeUrl(`${where}.${link}`, vendor[link], 'vendorLink');
    if (checked.ok) links[link] = checked.url;
    else problems.push(checked.reason);
  }
  const agentTokens: unknown = vendor.agent_tokens ?? [];
  if (
    !Array.isArray(agentTokens) ||
    agentTokens.length > MAX_AGENTS_PER_VENDOR ||
    !agentTokens.every((token: unknown) => typeof token === 'string' && AGENT_TOKEN.test(token))
  )
    problems.push(
      `${where}.agent_tokens must be a list of at most ${MAX_AGENTS_PER_VENDOR} tokens of 32 characters a-z, A-Z, 0-9, "_" and "-"`,
    );
  if (problems.length > before) return undefined;
  // Each origin as `key issue` stores it: its default port dropped.
  const publishableKeys = (publishable as { key: string; origins: string[] }[]).map(({ key, origins }) => ({
    key,
    origins: [...new Set(origins.map((origin) => normalizeKeyOrigin(origin) as string))],
  }));
  return {
    ...(vendor as unknown as SeedVendor),
    ...links,
    ...(vendor.publishable_keys !== undefined && { publishable_keys: publishableKeys }),
  };
}

/** Checks a parsed seed file: vendors, unique ids and keys, and every vacancy against the import rules. */
export function parseSeed(input: unknown, rules: SeedRules): Seed {
  const seed = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (!Array.isArray(seed.vendors)) problems.push('vendors must be a list');
  if (!Array.isArray(seed.vacancies)) problems.push('vacancies must be a list');
  if (problems.length > 0) throw new InvalidSeedError(problems);

  const vendors = (seed.vendors as unknown[]).flatMap(
    (input, i) => parseVendor(input, `vendors[${i}]`, problems, rules.rateTiers) ?? [],
  );
  const vendorIds = new Set<string>();
  const keys = new Set<string>();
  for (const vendor of vendors) {
    if (vendorIds.has(vendor.id)) problems.push(`vendor ${vendor.id} is listed twice`);
    vendorIds.add(vendor.id);
    for (const key of [...vendor.api_keys, ...(vendor.publishable_keys ?? []).map((entry) => entry.key)]) {
      if (keys.has(key)) problems.push(`an API key of vendor ${vendor.id} is used twice`);
      keys.add(key);
    }
  }

  const vacancyIds = new Set<number>();
  const updatedAt = new Map<number, number>();
  const loadedAt = Date.now();
  const vacancies = (seed.vacancies as unknown[]).flatMap((input, i) => {
    // A seed's own field, not an import record's: when the story last changed the vacancy.
    const record =
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? { ...(input as Record<string, unknown>) }
        : undefined;
    const changed = record?.updated_at;
    if (record) delete record.updated_at;
    const result = validateVacancyRecord(record ?? input, rules.clock);
    if (!result.ok) {
      problems.push(`vacancies[${i}]: ${result.reasons.join('; ')}`);
      return [];
    }
    const { vacancy } = result;
    if (changed !== undefined) {
      const at = typeof changed === 'string' ? parseRfc3339(changed) : undefined;
      if (at === undefined)
        problems.push(`vacancies[${i}].updated_at must be an RFC 3339 time with an offset`);
      else if (at < vacancy.created_at.getTime())
        problems.push(`vacancies[${i}].updated_at must not be before its created_at`);
      else if (at > loadedAt)
        problems.push(`vacancies[${i}].updated_at must not be after the seed is loaded`);
      else updatedAt.set(vacancy.id, at);
    }
    if (!vendorIds.has(vacancy.vendor_id))
      problems.push(`vacancies[${i}]: vendor ${vacancy.vendor_id} is not in vendors`);
    if (vacancyIds.has(vacancy.id)) problems.push(`vacancies[${i}]: id ${vacancy.id} is used twice`);
    vacancyIds.add(vacancy.id);
    return [vacancy];
  });

  if (problems.length > 0) throw new InvalidSeedError(problems);
  return { vendors, vacancies, ...(updatedAt.size > 0 && { updatedAt }) };
}

/**
 * Reads and checks a seed file: strictly UTF-8 (a byte order mark at its start is ignored), numbers as written (the
 * import's rules: `parseRecordJson`).
 */
export async function readSeedFile(path: string, rules: SeedRules): Promise<Seed> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path));
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new InvalidSeedError(['the file is not valid UTF-8']);
  }
  return parseSeed(parseRecordJson(text), rules);
}

/** What a seed load wrote. */
export interface SeedSummary {
  readonly vendors: number;
  readonly apiKeys: number;
  readonly vacancies: number;
}

/**
 * Writes in flight while a seed loads. A seed goes to a local engine — most often the embedded one, in this very
 * process — where more writes in flight only wait longer in its queue: 8 load as fast as the import's 50 (2,000
 * vacancies of 7 KB in 5.5 to 6.2 s either way, 2026-12-08) and each waits a sixth as long — under 50, on a loaded
 * machine (two test runs at once), a write of a large seed waited past its 3-second timeout three times and
 * `npm start` stopped.
 */
const SEED_CONCURRENCY = 8;

/**
 * Writes a seed into the tables: vendors (each with its usage key, kept when loaded again), their keys (hashed;
 * loading again is harmless), then the vacancies through the import's write path, so an id that another vendor
 * already holds is refused here too — those the story dates (`updated_at`) first, each as at its moment, in the
 * service zone's day then (`clock`: one past its deadline is stored expired, as the import stores it).
 */
export async function loadSeed(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  seed: Seed,
  defaultRateTier?: string,
  clock?: ZoneClock,
): Promise<SeedSummary> {
  let apiKeys = 0;
  for (const vendor of seed.vendors) {
    await putVendor(
      client,
      tables.vendors,
      {
        vendorId: vendor.id,
        company: vendor.company,
        status: vendor.status,
        ...(vendor.rate_tier && { rateTier: vendor.rate_tier }),
        ...(vendor.website && { website: vendor.website }),
        ...(vendor.logo && { logo: vendor.logo }),
      },
      { ...(defaultRateTier && { defaultRateTier }) },
    );
    for (const [i, apiKey] of vendor.api_keys.entries()) {
      await storeApiKey(
        client,
        tables.vendors,
        { apiKey, vendorId: vendor.id, label: `seed key ${i + 1}` },
        { replace: true },
      );
      apiKeys += 1;
    }
    for (const [i, { key, origins }] of (vendor.publishable_keys ?? []).entries()) {
      await storeApiKey(
        client,
        tables.vendors,
        { apiKey: key, vendorId: vendor.id, label: `seed page key ${i + 1}`, origins },
        { replace: true },
      );
      apiKeys += 1;
    }
    const agents = new AgentStore(client, tables.vendors);
    for (const token of vendor.agent_tokens ?? []) {
      if ((await agents.get(agentIdOf(token)))?.vendorId === vendor.id) continue;
      await agents.add(vendor.id, () => ({ usageKey: generateUsageKey() }), { token });
    }
  }
  // The story's changes first, oldest first, each written as at its moment (the writers' clock, which stamps
  // `updated_at` and says what day it is); then the rest, now.
  const lined = seed.vacancies.map((vacancy, line) => ({ line, vacancy }));
  const moments = [...new Set(seed.updatedAt?.values())].sort((a, b) => a - b);
  const batches = [
    ...moments.map((at) => ({
      now: () => at,
      entries: lined.filter(({ vacancy }) => seed.updatedAt?.get(vacancy.id) === at),
    })),
    { now: undefined, entries: lined.filter(({ vacancy }) => !seed.updatedAt?.has(vacancy.id)) },
  ];
  for (const { now, entries } of batches) {
    if (entries.length === 0) continue;
    const report = await writeVacancies(client, tables, entries, {
      clock,
      concurrency: SEED_CONCURRENCY,
      ...(now && { now }),
    });
    if (report.interrupted) throw new Error(`Loading the seed failed: ${report.interrupted}.`);
    if (report.rejected.length > 0) {
      throw new InvalidSeedError(report.rejected.map((r) => `vacancies[${r.line}]: ${r.reasons.join('; ')}`));
    }
  }
  return { vendors: seed.vendors.length, apiKeys, vacancies: seed.vacancies.length };
}

/**
 * What of a seed is still usable in tables that already hold data (a restart with `--data-dir`, or an engine that was
 * given): each of its vendors still stored, with its status and rate tier as stored now, and only those of its seed keys
 * whose hash is still stored for it and not revoked; a vendor with none left is left out. The keys are the seed file's
 * own (public for the demo seed), matched by hash: no other key can be known, nor is one shown.
 */
export async function usableSeedKeys(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  seed: Seed,
): Promise<SeedVendor[]> {
  const usable: SeedVendor[] = [];
  for (const vendor of seed.vendors) {
    const stored = await getVendorRecord(client, tables.vendors, vendor.id);
    if (!stored) continue;
    const live = async (apiKey: string, kind: 'secret' | 'publishable') => {
      const key = await findApiKey(client, tables.vendors, hashApiKey(apiKey));
      return (
        key !== undefined &&
        key.vendorId === vendor.id &&
        !key.revokedAt &&
        (key.keyKind ?? 'secret') === kind
      );
    };
    const apiKeys: string[] = [];
    for (const apiKey of vendor.api_keys) if (await live(apiKey, 'secret')) apiKeys.push(apiKey);
    const publishableKeys: { key: string; origins: readonly string[] }[] = [];
    for (const entry of vendor.publishable_keys ?? [])
      if (await live(entry.key, 'publishable')) publishableKeys.push(entry);
    if (apiKeys.length === 0 && publishableKeys.length === 0) continue;
    usable.push({
      ...vendor,
      status: stored.status,
      rate_tier: stored.rateTier,
      api_keys: apiKeys,
      ...(vendor.publishable_keys !== undefined && { publishable_keys: publishableKeys }),
    });
  }
  return usable;
}
