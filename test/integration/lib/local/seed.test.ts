/**
 * A seed file's vendors (docs/operating.md#seed-files) are checked and stored as the ops CLI stores them: the website
 * and logo normalized by the one URL rule, each publishable key's origins without their default ports; what breaks a
 * rule is a problem naming its place in the file. In tables that already hold data, only the seed's keys still stored
 * for their vendor and not revoked are usable again. A vacancy may say when the seed's story last changed it
 * (`updated_at`): it is loaded as written then — a closed one closed then, one past its deadline expired then — and
 * the demo seed's closed vacancies have dates of its story, not the moment it is loaded.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InvalidSeedError } from '../../../../lib/local/errors';
import { DEMO_SEED_FILE } from '../../../../lib/local/local-api';
import { loadSeed, parseSeed, readSeedFile, usableSeedKeys } from '../../../../lib/local/seed';
import { issueApiKey, listApiKeys, revokeApiKey, storeApiKey } from '../../../../lib/ops/api-keys';
import { setVendorStatus } from '../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../testkit/dynamodb';
import { CLOCK, vacancyRecord } from '../../../../testkit/vacancies';

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

describe('a seed’s vacancies with a moment of the story', () => {
  let tables: TestTables;
  const vendor = { id: 'acme', company: 'Acme', status: 'active', api_keys: ['local-key-acme'] };
  const stored = async (id: number) =>
    (
      await tables.documentClient.send(
        new GetCommand({ TableName: tables.names.vacancies, Key: { id }, ConsistentRead: true }),
      )
    ).Item;
  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables.drop());

  it('writes a vacancy as the story last changed it: closed then, expired when its deadline passed, the rest now', async () => {
    const seed = parseSeed(
      {
        vendors: [vendor],
        vacancies: [
          { ...vacancyRecord({ id: 1, status: 'closed' }), updated_at: '2026-05-14T11:20:00+04:00' },
          {
            ...vacancyRecord({ id: 2, deadline: '2025-10-31', created_at: '2025-09-15 10:00:00' }),
            updated_at: '2025-10-31T20:00:00Z',
          },
          vacancyRecord({ id: 3 }),
        ],
      },
      RULES,
    );
    const before = Date.now();
    expect(await loadSeed(tables.documentClient, tables.names, seed, undefined, CLOCK)).toMatchObject({
      vacancies: 3,
    });
    expect(await stored(1)).toMatchObject({
      status: 'closed',
      updated_at: Date.parse('2026-05-14T07:20:00Z'),
    });
    expect(await stored(2)).toMatchObject({
      status: 'expired',
      updated_at: Date.parse('2025-10-31T20:00:00Z'),
    });
    // Now, by the writers' clock: DynamoDB's as this machine bounds it, at most about a second behind.
    expect((await stored(3))?.updated_at).toBeGreaterThan(before - 2_000);
  });

  it.each([
    ['not a time', 'vacancies[0].updated_at must be an RFC 3339 time with an offset'],
    ['2026-05-14 11:20:00', 'vacancies[0].updated_at must be an RFC 3339 time with an offset'],
    ['2026-02-30T10:00:00Z', 'vacancies[0].updated_at must be an RFC 3339 time with an offset'],
    ['2026-01-10T05:29:59Z', 'vacancies[0].updated_at must not be before its created_at'],
    ['2999-01-01T00:00:00Z', 'vacancies[0].updated_at must not be after the seed is loaded'],
  ])('refuses the updated_at %p in one line naming it', (updatedAt, problem) => {
    expect(() =>
      parseSeed(
        { vendors: [vendor], vacancies: [{ ...vacancyRecord({ id: 1 }), updated_at: updatedAt }] },
        RULES,
      ),
    ).toThrow(expect.objectContaining({ problems: [problem] }));
  });

  it('gives the demo seed’s closed vacancies dates of its story, not the moment it is loaded', async () => {
    const demo = await readSeedFile(DEMO_SEED_FILE, RULES);
    const story = await createTestTables();
    try {
      await loadSeed(story.documentClient, story.names, demo, undefined, CLOCK);
      const closed = [];
      for (const id of [1004, 1023, 1036, 1042]) {
        const item = (
          await story.documentClient.send(
            new GetCommand({ TableName: story.names.vacancies, Key: { id }, ConsistentRead: true }),
          )
        ).Item;
        if (item?.status === 'closed' || item?.status === 'expired')
          closed.push({ id, status: item.status, closedAt: new Date(item.updated_at).toISOString() });
      }
      expect(closed).toEqual([
        { id: 1004, status: 'expired', closedAt: '2025-10-31T20:00:00.000Z' },
        { id: 1023, status: 'expired', closedAt: '2026-06-30T20:00:00.000Z' },
        { id: 1036, status: 'closed', closedAt: '2026-05-14T07:20:00.000Z' },
        { id: 1042, status: 'expired', closedAt: '2026-08-31T20:00:00.000Z' },
      ]);
    } finally {
      await story.drop();
    }
  });
});
