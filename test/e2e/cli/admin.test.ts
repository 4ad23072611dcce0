/** The ops CLI as an operator runs it: a separate process, against the embedded DynamoDB. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { type AuthorizedVendor, authorizedVendor } from '../../../lambda/domain/keys/context';
import { checkKeyUse } from '../../../lambda/domain/keys/key-use';
import { createAuthorizerHandler } from '../../../lambda/functions/authorizer/factory';
import { type AdminRun, cliTarget, runAdmin } from '../../../testkit/admin-cli';
import { createTestTables, type TestTables } from '../../../testkit/dynamodb';
import { type FaultProxy, startFaultProxy } from '../../../testkit/fault-proxy';
import { lambdaContext, silentLogger, testMetrics } from '../../../testkit/lambda';
import { vacancyRecord } from '../../../testkit/vacancies';

describe('vacancy-admin', () => {
  let tables: TestTables;
  let folder: string;
  let authorize: (key: string) => Promise<APIGatewayAuthorizerResult>;

  const admin = (
    args: string[],
    env: Record<string, string> = {},
    endpoint = tables.endpoint,
  ): Promise<AdminRun> =>
    runAdmin([...(env.NO_TARGET ? [] : cliTarget(endpoint, tables.names)), ...args], env);

  beforeAll(async () => {
    tables = await createTestTables();
    folder = await mkdtemp(join(tmpdir(), 'vacancy-admin-'));
    const handler = createAuthorizerHandler({
      client: tables.client,
      vendorsTable: tables.names.vendors,
      logger: silentLogger(),
      metrics: testMetrics('authorizer'),
    });
    authorize = (key) =>
      handler(
        {
          type: 'TOKEN',
          authorizationToken: `Bearer ${key}`,
          methodArn: 'arn:aws:execute-api:r:1:api/prod/GET/vendor/vacancies',
        },
        lambdaContext('authorizer'),
      );
  });
  afterAll(async () => {
    await tables.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('creates a vendor, issues a key that authenticates, revokes it, suspends the vendor', async () => {
    expect(await admin(['vendor', 'put', 'acme', '--company', 'Acme LLC'])).toMatchObject({
      code: 0,
      stdout: 'vendor acme "Acme LLC" (active, tier standard)\n',
    });

    const issued = await admin(['--json', 'key', 'issue', 'acme', '--label', 'career page']);
    expect(issued.code).toBe(0);
    const { apiKey, keyId } = JSON.parse(issued.stdout) as { apiKey: string; keyId: string };
    expect(apiKey).toMatch(/^vvk_/);
    expect((await authorize(apiKey)).context).toEqual({
      vendorId: 'acme',
      company: 'Acme LLC',
      rateTier: 'standard',
      keyKind: 'secret',
    });

    const second = JSON.parse((await admin(['--json', 'key', 'issue', 'acme'])).stdout) as { apiKey: string };
    const listed = await admin(['key', 'list', 'acme']);
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).not.toContain(apiKey);

    expect(await admin(['key', 'revoke', keyId])).toMatchObject({
      code: 0,
      stdout: `key ${keyId} of acme revoked\n`,
    });
    await expect(authorize(apiKey)).rejects.toThrow(/^Unauthorized$/);
    expect((await authorize(second.apiKey)).context).toEqual({
      vendorId: 'acme',
      company: 'Acme LLC',
      rateTier: 'standard',
      keyKind: 'secret',
    });

    expect((await admin(['vendor', 'suspend', 'acme'])).code).toBe(0);
    expect((await authorize(second.apiKey)).policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect((await admin(['vendor', 'activate', 'acme'])).code).toBe(0);
    expect((await authorize(second.apiKey)).policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
  });

  it('issues a publishable key for its origins, lists them, and refuses an origin that is not one in one line', async () => {
    const issued = await admin([
      'key',
      'issue',
      'acme',
      '--label',
      'career page',
      '--publishable',
      '--origin',
      'https://careers.acme.example',
      '--origin',
      'http://localhost:8080',
    ]);
    expect(issued.code).toBe(0);
    const [first, , key] = issued.stdout.split('\n');
    expect(first).toMatch(
      /^publishable key key_[0-9a-f]{12} issued for acme \(career page\), for https:\/\/careers\.acme\.example, http:\/\/localhost:8080:$/,
    );
    expect(key?.trim()).toMatch(/^vvp_[A-Za-z0-9_-]{43}$/);
    expect((await authorize(key?.trim() ?? '')).context).toMatchObject({
      keyKind: 'publishable',
      origins: 'https://careers.acme.example http://localhost:8080',
      rateTier: 'browser',
    });
    expect((await admin(['key', 'list', 'acme'])).stdout).toContain(
      'publishable: https://careers.acme.example http://localhost:8080',
    );
    for (const [args, message] of [
      [['--publishable'], 'error: a publishable key needs at least one --origin'],
      [['--origin', 'https://a.example'], 'error: --origin is for a publishable key: add --publishable.'],
      [
        ['--publishable', '--origin', 'https://A.example'],
        'error: --origin "https://A.example" is not allowed',
      ],
      [
        ['--publishable', '--origin', 'https://a.example/jobs'],
        'error: --origin "https://a.example/jobs" is not allowed',
      ],
      [
        ['--publishable', '--origin', 'https://a.example/?x=1'],
        'error: --origin "https://a.example/?x=1" is not allowed',
      ],
      [
        ['--publishable', '--origin', 'https://a.example//'],
        'error: --origin "https://a.example//" is not allowed',
      ],
      [
        ['--publishable', '--origin', 'https://*.example'],
        'error: --origin "https://*.example" is not allowed',
      ],
      [
        ['--publishable', '--origin', 'http://a.example'],
        'error: --origin "http://a.example" is not allowed',
      ],
      [
        [
          '--publishable',
          ...Array.from({ length: 11 }, (_, i) => ['--origin', `https://p${i}.example`]).flat(),
        ],
        'error: a publishable key takes at most 10 origins; 11 given.',
      ],
    ] as const) {
      const run = await admin(['key', 'issue', 'acme', ...args]);
      expect([args, run.code]).toEqual([args, 1]);
      expect(run.stderr).toContain(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('stores a publishable key’s origins without their default ports, so that the key works from them', async () => {
    const issued = await admin([
      'key',
      'issue',
      'acme',
      '--publishable',
      '--origin',
      'https://careers.acme.example:443',
      '--origin',
      'https://careers.acme.example',
      '--origin',
      'http://localhost:80',
      '--origin',
      'https://careers.acme.example:8443',
      // As copied from an address bar: the bare trailing / names the same origin.
      '--origin',
      'http://localhost:4320/',
      '--origin',
      'https://careers.acme.example/',
    ]);
    expect(issued.code).toBe(0);
    expect(issued.stdout.split('\n')[0]).toMatch(
      /, for https:\/\/careers\.acme\.example, http:\/\/localhost, https:\/\/careers\.acme\.example:8443, http:\/\/localhost:4320:$/,
    );
    const key = issued.stdout.split('\n')[2]?.trim() ?? '';
    const vendor = authorizedVendor((await authorize(key)).context);
    expect(vendor?.origins).toEqual([
      'https://careers.acme.example',
      'http://localhost',
      'https://careers.acme.example:8443',
      'http://localhost:4320',
    ]);
    // What a browser sends as `Origin` for https://careers.acme.example:443/jobs.
    expect(() =>
      checkKeyUse(vendor as AuthorizedVendor, 'https://careers.acme.example', false),
    ).not.toThrow();
    const tooHigh = await admin([
      'key',
      'issue',
      'acme',
      '--publishable',
      '--origin',
      'https://a.example:65536',
    ]);
    expect([tooHigh.code, tooHigh.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: --origin "https:\/\/a\.example:65536" is not allowed: [^\n]*\n$/),
    ]);
  });

  it('stores a vendor’s website and logo normalized, and refuses one that breaks the URL rule in one line', async () => {
    const put = await admin([
      '--json',
      'vendor',
      'put',
      'linked',
      '--company',
      'Linked',
      '--website',
      'HTTPS://Linked.Example:443',
      '--logo',
      'https://linked.example/"></script><script>alert(1)</script>.png',
    ]);
    expect(put.code).toBe(0);
    expect(JSON.parse(put.stdout)).toMatchObject({
      website: 'https://linked.example/',
      logo: 'https://linked.example/%22%3E%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E.png',
    });
    for (const [option, value, message] of [
      ['--website', 'http://linked.example', '--website must be an absolute https URL.'],
      ['--logo', 'javascript:alert(1)', '--logo must be an absolute https URL.'],
      [
        '--logo',
        'https://user:pw@linked.example/logo.png',
        '--logo must not contain a user name or password.',
      ],
      [
        '--website',
        `https://linked.example/${'a'.repeat(2048)}`,
        '--website must be at most 2048 characters.',
      ],
    ] as const) {
      const run = await admin(['vendor', 'put', 'linked', '--company', 'Linked', option, value]);
      expect([value, run.code, run.stderr]).toEqual([value, 1, `error: ${message}\n`]);
    }
    // Nothing of a refused command was written.
    const listed = JSON.parse((await admin(['--json', 'vendor', 'list'])).stdout) as Record<
      string,
      unknown
    >[];
    expect(listed.find((vendor) => vendor.vendorId === 'linked')).toMatchObject({
      website: 'https://linked.example/',
    });
  });

  it('imports a file, reports rejected lines, and exits non-zero when anything was rejected', async () => {
    const file = join(folder, 'vacancies.ndjson');
    await writeFile(
      file,
      [JSON.stringify(vacancyRecord({ id: 10, vendor_id: 'acme' })), '{"id": 11}'].join('\n'),
    );
    const run = await admin(['vacancies', 'import', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^line 2: .*vendor_id is not valid/m);
    expect(run.stdout).toMatch(/^imported 1, rejected 1, unchanged 0$/m);
    const again = await admin(['--json', 'vacancies', 'import', '--dry-run', file]);
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, unchanged: 1, dryRun: true });
  });

  it('reads the file as bytes: a line that is not UTF-8 is refused with its number, the others imported', async () => {
    const file = join(folder, 'latin1.ndjson');
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from(`${JSON.stringify(vacancyRecord({ id: 12, vendor_id: 'acme' }))}\n`),
        // "Bakı" written in Latin-1 by a spreadsheet: 0xFD is never UTF-8.
        Buffer.from(
          `${JSON.stringify(vacancyRecord({ id: 13, vendor_id: 'acme', title: 'Bak_' }))}\n`,
          'latin1',
        ).map((byte) => (byte === 0x5f ? 0xfd : byte)),
      ]),
    );
    const run = await admin(['vacancies', 'import', file]);
    expect(run).toMatchObject({
      code: 1,
      stdout:
        'line 2: not valid UTF-8 (bytes that are not UTF-8 text)\nimported 1, rejected 1, unchanged 0\n',
    });
  });

  it('refuses a file that is not NDJSON in one line, writing nothing', async () => {
    const readme = new URL('../../../README.md', import.meta.url).pathname;
    const run = await admin(['vacancies', 'import', readme]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^error: ${readme}: not NDJSON: \\d+ of its \\d+ lines of text are not JSON objects\\.\n$`),
    );
  });

  it('gives a contested new id to exactly one of two imports started at the same moment', async () => {
    await admin(['vendor', 'put', 'globex', '--company', 'Globex']);
    for (let round = 0; round < 3; round += 1) {
      const id = 7_000 + round;
      const files = await Promise.all(
        ['acme', 'globex'].map(async (vendor) => {
          const path = join(folder, `race-${round}-${vendor}.ndjson`);
          const records = [
            id + 100 * (vendor === 'acme' ? 1 : 2),
            id + 100 * (vendor === 'acme' ? 3 : 4),
            id,
          ];
          await writeFile(
            path,
            records
              .map((recordId) => JSON.stringify(vacancyRecord({ id: recordId, vendor_id: vendor })))
              .join('\n'),
          );
          return path;
        }),
      );
      const [acme, globex] = await Promise.all(files.map((file) => admin(['vacancies', 'import', file])));
      const runs = [acme, globex] as AdminRun[];
      const winners = runs.filter((run) => run.code === 0);
      expect(winners).toHaveLength(1);
      const winner = acme?.code === 0 ? 'acme' : 'globex';
      const loser = runs.find((run) => run.code === 1);
      expect(loser?.stdout).toContain(`line 3: id ${id} belongs to vendor ${winner}`);
      expect(loser?.stdout).toMatch(/^imported 2, rejected 1, unchanged 0$/m);
      const { Item } = await tables.documentClient.send(
        new GetCommand({ TableName: tables.names.vacancies, Key: { id } }),
      );
      expect(Item?.v).toBe(winner);
    }
  });

  it('reads no whole table: every command addresses what it touches (no Scan reaches the engine)', async () => {
    const proxy: FaultProxy = await startFaultProxy(tables.endpoint);
    try {
      const file = join(folder, 'no-scan.ndjson');
      await writeFile(file, JSON.stringify(vacancyRecord({ id: 8_001, vendor_id: 'acme' })));
      const key = JSON.parse(
        (await admin(['--json', 'key', 'issue', 'acme'], {}, proxy.endpoint)).stdout,
      ) as { keyId: string };
      for (const [args, stderr] of [
        [['vendor', 'put', 'acme', '--company', 'Acme LLC'], ''],
        [['vendor', 'list'], ''],
        [['vendor', 'suspend', 'acme'], ''],
        [['vendor', 'activate', 'acme'], ''],
        [['key', 'list', 'acme'], ''],
        [['key', 'revoke', key.keyId], ''],
        [['vacancies', 'import', file], ''],
        [['vacancies', 'import', '--dry-run', file], ''],
        [['vacancies', 'set-status', '8001', 'closed'], ''],
        [['vacancies', 'set-status', '8001', 'active', '--vendor', 'acme'], ''],
        [['vacancies', 'delete', '8001', '--vendor', 'acme'], ''],
        [['vacancies', 'delete', '8001'], 'error: vacancy 8001 does not exist.\n'],
        [['vacancies', 'expire'], ''],
        [
          ['vacancies', 'recount', '--vendor', 'acme'],
          'waiting 5 s for the latest writes to reach the index, then counting…\n',
        ],
      ] as const) {
        const run = await admin([...args], {}, proxy.endpoint);
        expect([args.join(' '), run.stderr]).toEqual([args.join(' '), stderr]);
      }
      // The tombstone the deletion left, purged as of now.
      const purged = await admin(
        ['vacancies', 'purge', '--before', new Date().toISOString(), '--vendor', 'acme'],
        {},
        proxy.endpoint,
      );
      expect(purged.stdout).toContain('acme: removed 1 tombstones');
      // A horizon before 1970 is refused in one line, before anything is written.
      const seen = proxy.operations.length;
      expect(
        await admin(
          ['vacancies', 'purge', '--before', '1960-01-01T00:00:00Z', '--vendor', 'acme'],
          {},
          proxy.endpoint,
        ),
      ).toMatchObject({
        code: 1,
        stderr:
          'error: --before 1960-01-01T00:00:00Z is not after 1970-01-01T00:00:00Z: there is nothing before it.\n',
      });
      expect(
        proxy.operations.slice(seen).filter((operation) => /Put|Update|Delete|Write/.test(operation)),
      ).toEqual([]);
      expect(new Set(proxy.operations)).not.toContain('Scan');
      expect(proxy.operations).toEqual(
        expect.arrayContaining(['Query', 'GetItem', 'PutItem', 'BatchGetItem', 'DeleteItem']),
      );
    } finally {
      await proxy.stop();
    }
  });

  it("shows each vendor's tier, moves a vendor between the tiers of the settings, and keeps usage keys for --stack", async () => {
    const listed = await admin(['vendor', 'list']);
    expect(listed.stdout).toMatch(/^acme\s+active\s+standard\s+Acme LLC$/m);
    // The tiers of this project's settings (cdk.json): only "standard" unless an operator adds more.
    expect(await admin(['vendor', 'tier', 'acme', 'gold'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('error: "gold" is not a rate tier of local DynamoDB at'),
    });
    expect(await admin(['vendor', 'tier', 'acme', 'standard'])).toMatchObject({
      code: 0,
      stdout: 'vendor acme moved from tier standard to standard\n',
    });
    expect(await admin(['vendor', 'sync-usage-keys'])).toMatchObject({
      code: 1,
      stderr: 'error: usage keys live in API Gateway: give --stack <name> of a deployed stack.\n',
    });
    const json = JSON.parse((await admin(['--json', 'vendor', 'list'])).stdout) as Record<string, unknown>[];
    for (const vendor of json) expect(vendor).not.toHaveProperty('usageKey');
  });

  it('answers user errors with one line and exit code 1, never a stack trace', async () => {
    for (const [args, message] of [
      [['key', 'issue', 'nobody'], 'error: vendor "nobody" does not exist'],
      [['key', 'revoke', 'key_000000000000'], 'error: key "key_000000000000" does not exist.'],
      [['vacancies', 'set-status', '999', 'closed'], 'error: vacancy 999 does not exist.'],
      [
        ['vacancies', 'import', 'docs/examples/acme-vacancy.ndjson'],
        'error: cannot read docs/examples/acme-vacancy.ndjson: no such file (ENOENT).',
      ],
      [['vacancies', 'import', 'docs'], 'error: cannot read docs: it is a folder, not a file (EISDIR).'],
      [
        ['vacancies', 'set-status', '10', 'closed', '--vendor', 'globex'],
        'error: vacancy 10 is not a vacancy of globex.',
      ],
    ] as const) {
      const run = await admin([...args]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const missing = await admin(['vendor', 'list', '--vendors-table', 'NoSuchTable']);
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error: a table does not exist \(local DynamoDB at [^\n]*\n$/),
    });
  });

  it('answers usage errors with one line, one hint and exit code 2, never the whole usage', async () => {
    const hint = 'hint: add --help to the command for its usage.';
    for (const [args, message] of [
      [['vacancies', 'set-status', '1', 'archived'], "error: command-argument value 'archived' is invalid"],
      [['vendor', 'put', 'Bad Id', '--company', 'x'], "error: command-argument value 'Bad Id' is invalid"],
      [
        ['vacancies', 'delete', '10', '--vendor', ''],
        "error: option '--vendor <vendorId>' argument '' is invalid",
      ],
      [['vacancies', 'set-status', '0', 'closed'], "error: command-argument value '0' is invalid"],
      [['key', 'list', ''], "error: command-argument value '' is invalid"],
      [['vendor', 'lsit'], "error: unknown command 'lsit'"],
      [['vendor', 'list', '--jsno'], "error: unknown option '--jsno'"],
    ] as const) {
      const run = await admin([...args]);
      expect(run.code).toBe(2);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toEqual([expect.stringContaining(message), hint]);
    }
    const notAUrl = await admin(['--endpoint', 'not a url', 'vendor', 'list'], { NO_TARGET: '1' });
    expect(notAUrl).toMatchObject({
      code: 2,
      stderr: `error: option '--endpoint <url>' argument 'not a url' is invalid. Not an http(s) URL such as http://127.0.0.1:8000.\n${hint}\n`,
    });
    const noTarget = await admin(['vendor', 'list'], { NO_TARGET: '1' });
    expect(noTarget).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: no target: give --endpoint [^\n]*\n$/),
    });
    const noRegion = await admin(['--vacancies-table', 'a', '--vendors-table', 'b', 'vendor', 'list'], {
      NO_TARGET: '1',
      AWS_REGION: '',
      AWS_DEFAULT_REGION: '',
      AWS_CONFIG_FILE: '/nonexistent/aws-config',
    });
    expect(noRegion).toMatchObject({
      code: 2,
      stderr:
        'error: no AWS region: give --region <region>, or set AWS_REGION (or a region in your AWS profile).\n',
    });
  });

  it('points a newcomer to the command they meant: a misspelt one, a verb that is a status, a key for its id', async () => {
    const hint = 'hint: add --help to the command for its usage.';
    for (const [args, message] of [
      [['vendor', 'lst'], "error: unknown command 'lst' (did you mean list?)"],
      [['vendr', 'list'], "error: unknown command 'vendr' (did you mean vendor?)"],
      [
        ['vacancies', 'close', '1001'],
        'error: there is no "vacancies close": close a vacancy with "vacancies set-status <id> closed".',
      ],
      [
        ['vacancies', 'remove', '1001'],
        'error: there is no "vacancies remove": delete a vacancy with "vacancies delete <id>".',
      ],
    ] as const) {
      const run = await admin([...args]);
      expect(run).toMatchObject({ code: 2, stderr: `${message}\n${hint}\n` });
    }
    const issued = JSON.parse((await admin(['--json', 'key', 'issue', 'acme'])).stdout) as { apiKey: string };
    const byKey = await admin(['key', 'revoke', issued.apiKey]);
    expect(byKey).toMatchObject({
      code: 1,
      stderr:
        'error: "vvk_…" is a key itself, not a key\'s id: keys are revoked by id.\n' +
        'hint: "key list <vendor>" shows each key\'s id (key_…); then "key revoke <id>".\n',
    });
    // The key is not in the message: a pasted secret is not printed back to a terminal or a log.
    expect(byKey.stderr).not.toContain(issued.apiKey.slice(4));
    expect(await authorize(issued.apiKey)).toMatchObject({ principalId: 'acme' });
  });

  it('names the region it tried on AWS, and --region / AWS_REGION, when it cannot reach AWS there', async () => {
    const offline = await admin(['--stack', 'VendorVacancyApi', 'vendor', 'list'], {
      NO_TARGET: '1',
      AWS_REGION: '',
      AWS_DEFAULT_REGION: '',
      AWS_CONFIG_FILE: '/nonexistent/aws-config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'not-a-secret',
      // Nothing listens there: the answer a machine without a route to AWS gets, at once.
      AWS_ENDPOINT_URL_CLOUDFORMATION: 'http://127.0.0.1:9',
    });
    expect(offline).toMatchObject({
      code: 1,
      stderr:
        "error: cannot reach AWS in us-east-1 (ECONNREFUSED); no region is configured, so the CDK's default was tried.\n" +
        'hint: give --region <region>, or set AWS_REGION, with the region the stack was deployed to; check the network.\n',
    });
  });

  it('creates tables only on a local engine', async () => {
    const local = await admin(['tables', 'create']);
    expect(local).toMatchObject({ code: 0, stdout: expect.stringMatching(/^tables ready: /) });
    const aws = await admin(
      ['--vacancies-table', 'a', '--vendors-table', 'b', '--region', 'eu-central-1', 'tables', 'create'],
      {
        NO_TARGET: '1',
      },
    );
    expect(aws).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('"tables create" is for a local --endpoint'),
    });
  });
});
