/**
 * A seed file's vendors (docs/operating.md#seed-files) are checked and stored as the ops CLI stores them: the website
 * and logo normalized by the one URL rule, each publishable key's origins without their default ports; what breaks a
 * rule is a problem naming its place in the file. In tables that already hold data, only the seed's keys still stored
 * for their vendor and not revoked are usable again.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InvalidSeedError } from '../../../../lib/local/errors';
import { loadSeed, parseSeed, usableSeedKeys } from '../../../../lib/local/seed';
import { issueApiKey, listApiKeys, revokeApiKey, storeApiKey } from '../../../../lib/ops/api-keys';
import { setVendorStatus } from '../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../testkit/dynamodb';
import { CLOCK } from '../../../../testkit/vacancies';

const RULES = { clock: CLOCK, rateTiers: ['standard'] };

/** A seed of one vendor with `fields`, and no vacancies. */
const seedOf = (fields: Record<string, unknown>) => ({
  vendors: [{ id: 'acme', company: 'Acme', status: 'active', api_keys: ['local-key-acme'], ...fields }],
  vacancies: [],
});

/** The problems of a seed that must be refused. */
function problemsOf(fields: Record<string, unknown>): readonly string[] {
  try {
    parseSeed(seedOf(fields), RULES);
  } catch (error) {
    if (error instanceof InvalidSeedError) return error.problems;
    throw error;
  }
  throw new Error('The seed was accepted');
}

describe('a seed file’s vendor', () => {
  it('keeps its website and logo normalized, and its origins without default ports', () => {
    const seed = parseSeed(
      seedOf({
        website: 'HTTPS://Acme.Example:443',
        logo: 'https://acme.example/"></script><script>alert(1)</script>.png',
        publishable_keys: [
          {
            key: 'local-page-key',
            origins: [
              'https://careers.acme.example:443',
              'https://careers.acme.example',
              'http://localhost:80',
            ],
          },
        ],
      }),
      RULES,
    );
    expect(seed.vendors[0]).toMatchObject({
      website: 'https://acme.example/',
      logo: 'https://acme.example/%22%3E%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E.png',
      publishable_keys: [
        { key: 'local-page-key', origins: ['https://careers.acme.example', 'http://localhost'] },
      ],
    });
  });

  it.each([
    [{ website: 'http://acme.example' }, 'vendors[0].website must be an absolute https URL'],
    [
      { logo: 'https://user:pw@acme.example/logo.png' },
      'vendors[0].logo must not contain a user name or password',
    ],
    [{ logo: 42 }, 'vendors[0].logo must be an absolute https URL'],
  ])('refuses %p in one line naming the field', (fields, problem) => {
    expect(problemsOf(fields)).toEqual([problem]);
  });
});

describe('a seed’s keys in tables that already hold data', () => {
  let tables: TestTables;
  const seed = parseSeed(
    {
      vendors: [
        { id: 'acme', company: 'Acme', status: 'active', api_keys: ['local-key-acme-1', 'local-key-acme-2'] },
        { id: 'globex', company: 'Globex', status: 'active', api_keys: ['local-key-globex'] },
        { id: 'initech', company: 'Initech', status: 'active', api_keys: ['local-key-initech'] },
        { id: 'absent', company: 'Absent', status: 'active', api_keys: ['local-key-absent'] },
      ],
      vacancies: [],
    },
    RULES,
  );
  beforeAll(async () => {
    tables = await createTestTables();
    // The last vendor never stored: its key is no more usable than a key the tables never held.
    await loadSeed(tables.documentClient, tables.names, { vendors: seed.vendors.slice(0, 3), vacancies: [] });
  });
  afterAll(async () => tables.drop());

  it('are those still stored for their vendor and not revoked, with the vendor as stored now; no other key', async () => {
    const { documentClient, names } = tables;
    const keys = await listApiKeys(documentClient, names.vendors, 'acme');
    const first = keys.find((key) => key.label === 'seed key 1');
    await revokeApiKey(documentClient, names.vendors, first?.keyId as string);
    await setVendorStatus(documentClient, names.vendors, 'globex', 'suspended');
    // Initech's seed key now stored for another vendor; a key issued since is known only by its hash.
    await storeApiKey(
      documentClient,
      names.vendors,
      { apiKey: 'local-key-initech', vendorId: 'acme', label: 'moved' },
      { replace: true },
    );
    const issued = await issueApiKey(documentClient, names.vendors, 'acme', 'issued since');

    const usable = await usableSeedKeys(documentClient, names, seed);
    expect(usable.map(({ id, status, api_keys }) => ({ id, status, api_keys }))).toEqual([
      { id: 'acme', status: 'active', api_keys: ['local-key-acme-2'] },
      { id: 'globex', status: 'suspended', api_keys: ['local-key-globex'] },
    ]);
    expect(JSON.stringify(usable)).not.toContain(issued?.apiKey);
  });
});
