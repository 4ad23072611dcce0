import {
  CloudFormationClient,
  CloudFormationServiceException,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { recordLocalDeployment } from '../../../../lib/deployment/local-deployment';
import { UsageError, UserError } from '../../../../lib/ops/errors';
import { describeStack, resolveTarget } from '../../../../lib/ops/target';
import { settingsOfCdkJson } from '../../../../lib/settings';
import { createTestTables } from '../../../../testkit/dynamodb';

const OUTPUTS = [
  { OutputKey: 'ApiUrl', OutputValue: 'https://x.execute-api.eu-central-1.amazonaws.com/prod/' },
  { OutputKey: 'VacanciesTableName', OutputValue: 'VendorVacancyApi-DataVacancies-ABC' },
  { OutputKey: 'VendorsTableName', OutputValue: 'VendorVacancyApi-DataVendors-DEF' },
  { OutputKey: 'ServiceTimeZone', OutputValue: 'Europe/Berlin' },
  { OutputKey: 'RateTiers', OutputValue: '{"default":"standard","plans":{"standard":"p1","partner":"p2"}}' },
];
const stack = (StackName: string, Outputs: typeof OUTPUTS) => ({
  Stacks: [{ StackName, CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE' as const, Outputs }],
});

describe('ops CLI targets', () => {
  const cloudFormation = mockClient(CloudFormationClient);
  afterEach(() => {
    cloudFormation.reset();
  });

  it('reads the table names, the service time zone and the API URL from the stack outputs', async () => {
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'VendorVacancyApi' })
      .resolves(stack('VendorVacancyApi', OUTPUTS));
    await expect(
      describeStack(new CloudFormationClient({ region: 'eu-central-1' }), 'VendorVacancyApi'),
    ).resolves.toEqual({
      tables: {
        vacancies: 'VendorVacancyApi-DataVacancies-ABC',
        vendors: 'VendorVacancyApi-DataVendors-DEF',
      },
      timeZone: 'Europe/Berlin',
      rateTiers: { default: 'standard', plans: { standard: 'p1', partner: 'p2' } },
      apiUrl: 'https://x.execute-api.eu-central-1.amazonaws.com/prod',
    });
  });

  /** DescribeStacks' answer for a stack that does not exist, as the SDK raises it. */
  const noSuchStack = (name: string) =>
    new CloudFormationServiceException({
      name: 'ValidationError',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message: `Stack with id ${name} does not exist`,
    });

  it('explains a missing stack, or a stack without the outputs, as a user error', async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Missing' }).rejects(noSuchStack('Missing'));
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Other' }).resolves(stack('Other', []));
    const client = new CloudFormationClient({ region: 'eu-central-1' });
    await expect(describeStack(client, 'Missing')).rejects.toThrow(
      new UserError('Stack "Missing" does not exist in eu-central-1.'),
    );
    await expect(describeStack(client, 'Other')).rejects.toThrow(
      /has no VacanciesTableName\/VendorsTableName outputs/,
    );
  });

  describe('without a region given', () => {
    const saved = { ...process.env };
    beforeEach(() => {
      // No region anywhere: not in the environment, not in a profile.
      for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AMAZON_REGION', 'AMAZON_DEFAULT_REGION']) {
        delete process.env[name];
      }
      process.env.AWS_CONFIG_FILE = '/nonexistent/aws-config';
    });
    afterEach(() => {
      process.env = { ...saved };
    });

    it('looks for a stack where the CDK deploys without a region, and says so when it is not there', async () => {
      cloudFormation.on(DescribeStacksCommand).rejects(noSuchStack('VendorVacancyApi'));
      const failure = resolveTarget({ stack: 'VendorVacancyApi' }, {});
      await expect(failure).rejects.toThrow(
        'Stack "VendorVacancyApi" does not exist in us-east-1 (no region is configured: the CDK deploys there).',
      );
      await expect(failure).rejects.toMatchObject({
        hint: 'give --region (or set AWS_REGION) with the region the stack was deployed to.',
      });
      cloudFormation.reset();
      cloudFormation.on(DescribeStacksCommand).resolves(stack('VendorVacancyApi', OUTPUTS));
      const found = await resolveTarget({ stack: 'VendorVacancyApi' }, {});
      expect(found.description).toBe('stack VendorVacancyApi in us-east-1');
      found.close();
    });

    it('names the region it tried, and how to set one, when AWS cannot be reached there', async () => {
      const offline = Object.assign(
        new Error('getaddrinfo ENOTFOUND cloudformation.us-east-1.amazonaws.com'),
        {
          code: 'ENOTFOUND',
        },
      );
      cloudFormation.on(DescribeStacksCommand).rejects(offline);
      const failure = resolveTarget({ stack: 'VendorVacancyApi' }, {});
      await expect(failure).rejects.toThrow(
        "cannot reach AWS in us-east-1 (ENOTFOUND); no region is configured, so the CDK's default was tried.",
      );
      await expect(failure).rejects.toMatchObject({
        hint: 'give --region <region>, or set AWS_REGION, with the region the stack was deployed to; check the network.',
      });
      await expect(resolveTarget({ stack: 'VendorVacancyApi', region: 'eu-central-1' }, {})).rejects.toThrow(
        'cannot reach AWS in eu-central-1 (ENOTFOUND).',
      );
    });

    it("takes the region from where the CDK finds it, AWS_DEFAULT_REGION included (the SDK's own chain skips it)", async () => {
      cloudFormation.on(DescribeStacksCommand).resolves(stack('VendorVacancyApi', OUTPUTS));
      const target = await resolveTarget({ stack: 'VendorVacancyApi' }, { AWS_DEFAULT_REGION: 'eu-west-1' });
      expect(target.description).toBe('stack VendorVacancyApi in eu-west-1');
      target.close();
    });

    it('asks for a region for explicit tables, as a usage error', async () => {
      const failure = resolveTarget({ vacanciesTable: 'v', vendorsTable: 'w' }, {});
      await expect(failure).rejects.toThrow(UsageError);
      await expect(failure).rejects.toThrow(
        'no AWS region: give --region <region>, or set AWS_REGION (or a region in your AWS profile).',
      );
    });
  });

  it("imports into a stack in the stack's own time zone, and refuses a --time-zone that contradicts it", async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stack('VendorVacancyApi', OUTPUTS));
    const target = await resolveTarget({ stack: 'VendorVacancyApi', region: 'eu-central-1' }, {});
    expect(target.clock?.zone).toBe('Europe/Berlin');
    expect(target.tables.vacancies).toBe('VendorVacancyApi-DataVacancies-ABC');
    // What `smoke --stack` checks when no --api-url is given.
    expect(target.apiUrl).toBe('https://x.execute-api.eu-central-1.amazonaws.com/prod');
    // The stack's tiers and usage plans: vendor keys are managed in API Gateway.
    expect(target.rateTiers).toEqual({ names: ['standard', 'partner'], defaultTier: 'standard' });
    expect(target.usageKeys?.usagePlans).toEqual({
      stackName: 'VendorVacancyApi',
      plans: { standard: 'p1', partner: 'p2' },
    });
    target.close();
    await expect(
      resolveTarget({ stack: 'VendorVacancyApi', region: 'eu-central-1', timeZone: 'Asia/Baku' }, {}),
    ).rejects.toThrow(
      '--time-zone Asia/Baku contradicts the service time zone of stack VendorVacancyApi, Europe/Berlin.',
    );
    const agreeing = await resolveTarget(
      { stack: 'VendorVacancyApi', region: 'eu-central-1', timeZone: 'europe/berlin' },
      {},
    );
    expect(agreeing.clock?.zone).toBe('Europe/Berlin');
    agreeing.close();
  });

  it("finds a stack's feed base in its FeedBaseUrl output, and says in words when it has none", async () => {
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'WithFeeds' })
      .resolves(
        stack('WithFeeds', [
          ...OUTPUTS,
          { OutputKey: 'FeedBaseUrl', OutputValue: 'https://feeds.example.az/' },
        ]),
      );
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'VendorVacancyApi' })
      .resolves(stack('VendorVacancyApi', OUTPUTS));
    const withFeeds = await resolveTarget({ stack: 'WithFeeds', region: 'eu-central-1' }, {});
    // A stack from before the feeds' bucket was an output: only the base.
    expect(withFeeds.feeds).toEqual({ base: 'https://feeds.example.az' });
    expect(withFeeds.defaultLocale).toBe(settingsOfCdkJson().defaultLocale);
    withFeeds.close();
    const without = await resolveTarget({ stack: 'VendorVacancyApi', region: 'eu-central-1' }, {});
    expect(without.feeds).toEqual({
      missing:
        'stack VendorVacancyApi has no FeedBaseUrl output: it serves no feeds (deploy a version that does)',
    });
    without.close();
    const explicit = await resolveTarget(
      { vacanciesTable: 'a', vendorsTable: 'b', region: 'eu-central-1' },
      {},
    );
    expect(explicit.feeds).toEqual({ missing: expect.stringContaining('give --stack <name>') });
    explicit.close();
  });

  it("asks the stack's feeds function for a vendor's build at once, asynchronously; a stack without it is not asked", async () => {
    const lambda = mockClient(LambdaClient);
    try {
      const arn = 'arn:aws:lambda:eu-central-1:123456789012:function:VendorVacancyApi-Feeds';
      cloudFormation
        .on(DescribeStacksCommand, { StackName: 'WithFeeds' })
        .resolves(stack('WithFeeds', [...OUTPUTS, { OutputKey: 'FeedFunctionArn', OutputValue: arn }]));
      cloudFormation.on(DescribeStacksCommand, { StackName: 'Older' }).resolves(stack('Older', OUTPUTS));
      lambda.on(InvokeCommand).resolves({ StatusCode: 202 });

      const target = await resolveTarget({ stack: 'WithFeeds', region: 'eu-central-1' }, {});
      await target.buildFeeds?.('caspian');
      target.close();
      const calls = lambda.commandCalls(InvokeCommand).map((call) => call.args[0].input);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ FunctionName: arn, InvocationType: 'Event' });
      expect(JSON.parse(String(calls[0]?.Payload))).toEqual({ build: 'caspian' });

      const older = await resolveTarget({ stack: 'Older', region: 'eu-central-1' }, {});
      expect(older.buildFeeds).toBeUndefined();
      older.close();
    } finally {
      lambda.restore();
    }
  });

  it("deletes a removed feed's files in the stack's FeedBucket, by the feed's prefix", async () => {
    const s3 = mockClient(S3Client);
    try {
      cloudFormation
        .on(DescribeStacksCommand, { StackName: 'WithBucket' })
        .resolves(
          stack('WithBucket', [
            ...OUTPUTS,
            { OutputKey: 'FeedBaseUrl', OutputValue: 'https://d1234.cloudfront.net' },
            { OutputKey: 'FeedBucket', OutputValue: 'vva-feeds-bucket' },
          ]),
        );
      const token = 'A'.repeat(32);
      s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: `feeds/${token}/indeed.xml` }] });
      s3.on(DeleteObjectCommand).resolves({});
      const target = await resolveTarget({ stack: 'WithBucket', region: 'eu-central-1' }, {});
      if (!('base' in target.feeds) || !target.feeds.files) throw new Error('no files of the feeds');
      await target.feeds.files.remove(token);
      target.close();
      expect(s3.commandCalls(ListObjectsV2Command)[0]?.args[0].input).toMatchObject({
        Bucket: 'vva-feeds-bucket',
        Prefix: `feeds/${token}/`,
      });
      expect(s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input)).toEqual([
        { Bucket: 'vva-feeds-bucket', Key: `feeds/${token}/indeed.xml` },
      ]);
    } finally {
      s3.restore();
    }
  });

  it("uses a local endpoint with the local table names and the local server's settings, unless told otherwise", async () => {
    const tables = await createTestTables();
    try {
      const local = {
        endpoint: tables.endpoint,
        vacanciesTable: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      };
      // No local server has run on these tables: cdk.json's settings, as the server would use them.
      const before = await resolveTarget(local, {});
      expect(before).toMatchObject({ local: true, tables: tables.names });
      expect(before.clock?.zone).toBe(settingsOfCdkJson().serviceTimeZone);
      expect(before.rateTiers.defaultTier).toBe(settingsOfCdkJson().defaultRateTier);
      // A local engine has no API Gateway keys to manage.
      expect(before.usageKeys).toBeUndefined();
      expect(before.apiUrl).toBeUndefined();
      before.close();
      // A local server started with other settings recorded them: the CLI works in its zone and tiers.
      await recordLocalDeployment(tables.documentClient, tables.names.vendors, {
        serviceTimeZone: 'America/New_York',
        rateTiers: { basic: { rate: 1, burst: 2 } },
        defaultRateTier: 'basic',
      });
      const after = await resolveTarget(local, {});
      expect(after.clock?.zone).toBe('America/New_York');
      expect(after.rateTiers).toEqual({ names: ['basic'], defaultTier: 'basic' });
      // A server from before feeds recorded neither its language nor its feeds.
      expect(after.defaultLocale).toBe(settingsOfCdkJson().defaultLocale);
      expect(after.feeds).toEqual({
        missing: expect.stringContaining('start npm start on them, or restart it'),
      });
      after.close();
      await recordLocalDeployment(tables.documentClient, tables.names.vendors, {
        serviceTimeZone: 'America/New_York',
        rateTiers: { basic: { rate: 1, burst: 2 } },
        defaultRateTier: 'basic',
        defaultLocale: 'en',
        feeds: { base: 'http://127.0.0.1:3999', folder: '/tmp/feeds-of-a-server' },
      });
      const withFeeds = await resolveTarget(local, {});
      expect(withFeeds.defaultLocale).toBe('en');
      expect(withFeeds.feeds).toEqual({ base: 'http://127.0.0.1:3999', files: expect.any(Object) });
      withFeeds.close();
      const other = await resolveTarget({ ...local, timeZone: 'UTC' }, {});
      expect(other.clock?.zone).toBe('UTC');
      other.close();
    } finally {
      await tables.drop();
    }
  });

  it('refuses an endpoint that is not a URL, from --endpoint or DYNAMODB_ENDPOINT, as a usage error', async () => {
    await expect(resolveTarget({ endpoint: 'not a url' }, {})).rejects.toThrow(
      new UsageError('--endpoint must be an http(s) URL such as http://127.0.0.1:8000, not "not a url".'),
    );
    await expect(resolveTarget({}, { DYNAMODB_ENDPOINT: 'localhost:8000' })).rejects.toThrow(
      'DYNAMODB_ENDPOINT must be an http(s) URL such as http://127.0.0.1:8000, not "localhost:8000".',
    );
  });

  it('knows no time zone for explicit tables in AWS unless --time-zone gives one, and refuses a bad one', async () => {
    const tables = { vacanciesTable: 'v', vendorsTable: 'w', region: 'eu-central-1' };
    const unknown = await resolveTarget(tables, {});
    expect(unknown.clock).toBeUndefined();
    unknown.close();
    const given = await resolveTarget({ ...tables, timeZone: 'Asia/Baku' }, {});
    expect(given.clock?.zone).toBe('Asia/Baku');
    given.close();
    await expect(resolveTarget({ ...tables, timeZone: '+04:00' }, {})).rejects.toThrow(
      new UsageError('--time-zone "+04:00" is not an IANA time zone, such as Asia/Baku.'),
    );
    await expect(resolveTarget({}, {})).rejects.toThrow(UsageError);
  });
});
