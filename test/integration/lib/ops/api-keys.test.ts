import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { findApiKey, hashApiKey } from '../../../../lambda/functions/authorizer/key-lookup';
import { getVendor } from '../../../../lambda/functions/authorizer/vendor-lookup';
import {
  API_KEY_PREFIX,
  generateApiKey,
  issueApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../../../lib/ops/api-keys';
import { listVendors, putVendor, setVendorStatus } from '../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../testkit/dynamodb';

describe('API keys', () => {
  it('are prefixed for secret scanners and carry 256 random bits', () => {
    const keys = Array.from({ length: 50 }, generateApiKey);
    for (const key of keys) {
      expect(key).toMatch(/^vvk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('are stored as their SHA-256', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('key and vendor stores on the embedded DynamoDB', () => {
  let tables: TestTables;
  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme LLC' });
  });
  afterAll(async () => tables.drop());

  it('issue a key only for an existing vendor and never store the key itself', async () => {
    const { documentClient, names } = tables;
    expect(await issueApiKey(documentClient, names.vendors, 'nobody', 'x')).toBeUndefined();
    const issued = await issueApiKey(documentClient, names.vendors, 'acme', 'career page');
    expect(issued).toMatchObject({
      vendorId: 'acme',
      label: 'career page',
      keyId: expect.stringMatching(/^key_[0-9a-f]{12}$/),
    });
    const found = await findApiKey(documentClient, names.vendors, hashApiKey(issued?.apiKey ?? ''));
    expect(found).toMatchObject({ keyId: issued?.keyId, vendorId: 'acme' });
    const { Items = [] } = await documentClient.send(new ScanCommand({ TableName: names.vendors }));
    expect(JSON.stringify(Items)).not.toContain(issued?.apiKey);
  });

  it('hold several live keys per vendor; list ids and labels only; revoke one by id', async () => {
    const { documentClient, names } = tables;
    const second = await issueApiKey(documentClient, names.vendors, 'acme', 'sync job');
    const listed = await listApiKeys(documentClient, names.vendors, 'acme');
    expect(listed.map((key) => key.label)).toEqual(['career page', 'sync job']);
    expect(JSON.stringify(listed)).not.toMatch(/vvk_/);

    expect(await revokeApiKey(documentClient, names.vendors, second?.keyId ?? '')).toMatchObject({
      revoked: { keyId: second?.keyId, revokedAt: expect.any(String) },
    });
    expect(await revokeApiKey(documentClient, names.vendors, second?.keyId ?? '')).toMatchObject({
      alreadyRevoked: {},
    });
    expect(await revokeApiKey(documentClient, names.vendors, 'key_000000000000')).toEqual({ notFound: true });
    const after = await listApiKeys(documentClient, names.vendors, 'acme');
    expect(after.filter((key) => key.revokedAt).map((key) => key.keyId)).toEqual([second?.keyId]);
  });

  it('keep vendors: rename keeps status, suspend and activate, list', async () => {
    const { documentClient, names } = tables;
    await setVendorStatus(documentClient, names.vendors, 'acme', 'suspended');
    await putVendor(documentClient, names.vendors, { vendorId: 'acme', company: 'Acme Holdings' });
    expect(await getVendor(documentClient, names.vendors, 'acme')).toMatchObject({
      company: 'Acme Holdings',
      status: 'suspended',
    });
    expect(await setVendorStatus(documentClient, names.vendors, 'nobody', 'active')).toBe(false);
    await putVendor(documentClient, names.vendors, { vendorId: 'beta', company: 'Beta' });
    expect((await listVendors(documentClient, names.vendors)).map((vendor) => vendor.vendorId)).toEqual([
      'acme',
      'beta',
    ]);
  });
});
