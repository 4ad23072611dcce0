import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { afterEach, describe, expect, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { SERVICE_DEFAULTS } from '../../lambda/config/defaults';
import { describeStack, resolveTarget, UserError } from '../../lib/ops/target';

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

  it('reads the table names and the service time zone from the stack outputs', async () => {
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
    });
  });

  it('explains a missing stack, or a stack without the outputs, as a user error', async () => {
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'Missing' })
      .rejects(Object.assign(new Error('Stack with id Missing does not exist'), { name: 'ValidationError' }));
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Other' }).resolves(stack('Other', []));
    const client = new CloudFormationClient({ region: 'eu-central-1' });
    await expect(describeStack(client, 'Missing')).rejects.toThrow(
      new UserError('Stack "Missing" does not exist in this account and region.'),
    );
    await expect(describeStack(client, 'Other')).rejects.toThrow(
      /has no VacanciesTableName\/VendorsTableName outputs/,
    );
  });

  it("imports into a stack in the stack's own time zone, and refuses a --time-zone that contradicts it", async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stack('VendorVacancyApi', OUTPUTS));
    const target = await resolveTarget({ stack: 'VendorVacancyApi', region: 'eu-central-1' }, {});
    expect(target.clock?.zone).toBe('Europe/Berlin');
    expect(target.tables.vacancies).toBe('VendorVacancyApi-DataVacancies-ABC');
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

  it("uses a local endpoint with the local table names and the local server's zone, unless told otherwise", async () => {
    const target = await resolveTarget({}, { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' });
    expect(target).toMatchObject({ local: true, tables: { vacancies: 'Vacancies', vendors: 'Vendors' } });
    expect(target.clock?.zone).toBe(SERVICE_DEFAULTS.timeZone);
    // A local engine: the tiers of this project's settings, and no API Gateway keys to manage.
    expect(target.rateTiers.defaultTier).toBe('standard');
    expect(target.usageKeys).toBeUndefined();
    target.close();
    const other = await resolveTarget({ timeZone: 'UTC' }, { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' });
    expect(other.clock?.zone).toBe('UTC');
    other.close();
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
      '--time-zone "+04:00" is not an IANA time zone.',
    );
    await expect(resolveTarget({}, {})).rejects.toThrow(UserError);
  });
});
