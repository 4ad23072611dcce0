import { readFile } from 'node:fs/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { storeApiKey } from '../../lambda/auth/key-store';
import type { VendorStatus } from '../../lambda/auth/types';
import { putVendor } from '../../lambda/auth/vendor-store';
import { isVendorId, VENDOR_ID_RULE } from '../../lambda/shared/vendor-id';
import { validateVacancyRecord } from '../../lambda/vacancies/record';
import type { VacancyRecord } from '../../lambda/vacancies/types';
import type { TableNames } from '../create-tables';
import { putVacancyRecords } from '../ops/vacancies';

/** A vendor of a seed file, with its API keys in plain text (local use only; they are hashed on load). */
export interface SeedVendor {
  readonly id: string;
  readonly company: string;
  readonly status: VendorStatus;
  readonly api_keys: readonly string[];
}

/** A validated seed file (CONTRACT §4). */
export interface Seed {
  readonly vendors: readonly SeedVendor[];
  readonly vacancies: readonly VacancyRecord[];
}

/** A seed file that breaks the format: every problem, each with where it is. */
export class InvalidSeedError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid seed file:\n  ${problems.join('\n  ')}`);
  }
}

function parseVendor(input: unknown, where: string, problems: string[]): SeedVendor | undefined {
  const vendor = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const before = problems.length;
  if (!isVendorId(vendor.id)) problems.push(`${where}.id: ${VENDOR_ID_RULE}`);
  if (typeof vendor.company !== 'string' || vendor.company.trim() === '') {
    problems.push(`${where}.company must be a non-empty string`);
  }
  if (vendor.status !== 'active' && vendor.status !== 'suspended') {
    problems.push(`${where}.status must be active or suspended`);
  }
  const keys = vendor.api_keys;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' && key.length >= 8)) {
    problems.push(`${where}.api_keys must be a list of keys of at least 8 characters`);
  }
  return problems.length === before ? (vendor as unknown as SeedVendor) : undefined;
}

/** Checks a parsed seed file: vendors, unique ids and keys, and every vacancy against CONTRACT §4. */
export function parseSeed(input: unknown, timeZone: string): Seed {
  const seed = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (!Array.isArray(seed.vendors)) problems.push('vendors must be a list');
  if (!Array.isArray(seed.vacancies)) problems.push('vacancies must be a list');
  if (problems.length > 0) throw new InvalidSeedError(problems);

  const vendors = (seed.vendors as unknown[]).flatMap(
    (input, i) => parseVendor(input, `vendors[${i}]`, problems) ?? [],
  );
  const vendorIds = new Set<string>();
  const keys = new Set<string>();
  for (const vendor of vendors) {
    if (vendorIds.has(vendor.id)) problems.push(`vendor ${vendor.id} is listed twice`);
    vendorIds.add(vendor.id);
    for (const key of vendor.api_keys) {
      if (keys.has(key)) problems.push(`an API key of vendor ${vendor.id} is used twice`);
      keys.add(key);
    }
  }

  const vacancyIds = new Set<number>();
  const vacancies = (seed.vacancies as unknown[]).flatMap((input, i) => {
    const result = validateVacancyRecord(input, timeZone);
    if (!result.ok) {
      problems.push(`vacancies[${i}]: ${result.reasons.join('; ')}`);
      return [];
    }
    const { record } = result;
    if (!vendorIds.has(record.vendor_id))
      problems.push(`vacancies[${i}]: vendor ${record.vendor_id} is not in vendors`);
    if (vacancyIds.has(record.id)) problems.push(`vacancies[${i}]: id ${record.id} is used twice`);
    vacancyIds.add(record.id);
    return [record];
  });

  if (problems.length > 0) throw new InvalidSeedError(problems);
  return { vendors, vacancies };
}

/** Reads and checks a seed file. */
export async function readSeedFile(path: string, timeZone: string): Promise<Seed> {
  return parseSeed(JSON.parse(await readFile(path, 'utf8')), timeZone);
}

/** What a seed load wrote. */
export interface SeedSummary {
  readonly vendors: number;
  readonly apiKeys: number;
  readonly vacancies: number;
}

/** Writes a seed into the tables: vendors, their keys (hashed; loading again is harmless), vacancies (upserted). */
export async function loadSeed(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  seed: Seed,
): Promise<SeedSummary> {
  let apiKeys = 0;
  for (const vendor of seed.vendors) {
    await putVendor(client, tables.vendors, {
      vendorId: vendor.id,
      company: vendor.company,
      status: vendor.status,
    });
    for (const [i, apiKey] of vendor.api_keys.entries()) {
      await storeApiKey(
        client,
        tables.vendors,
        { apiKey, vendorId: vendor.id, label: `seed key ${i + 1}` },
        { replace: true },
      );
      apiKeys += 1;
    }
  }
  await putVacancyRecords(client, tables.vacancies, seed.vacancies);
  return { vendors: seed.vendors.length, apiKeys, vacancies: seed.vacancies.length };
}
