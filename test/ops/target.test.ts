import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { resolveTarget, tablesFromStack, UserError } from '../../lib/ops/target';

describe('ops CLI targets', () => {
  it('reads the table names from the stack outputs', async () => {
    const cloudFormation = new CloudFormationClient({
      region: 'eu-central-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    const mock = mockClient(cloudFormation);
    mock.on(DescribeStacksCommand, { StackName: 'VendorVacancyApi' }).resolves({
      Stacks: [
        {
          StackName: 'VendorVacancyApi',
          CreationTime: new Date(),
          StackStatus: 'CREATE_COMPLETE',
          Outputs: [
            { OutputKey: 'ApiUrl', OutputValue: 'https://x.execute-api.eu-central-1.amazonaws.com/prod/' },
            { OutputKey: 'VacanciesTableName', OutputValue: 'VendorVacancyApi-DataVacancies-ABC' },
            { OutputKey: 'VendorsTableName', OutputValue: 'VendorVacancyApi-DataVendors-DEF' },
          ],
        },
      ],
    });
    await expect(tablesFromStack(cloudFormation, 'VendorVacancyApi')).resolves.toEqual({
      vacancies: 'VendorVacancyApi-DataVacancies-ABC',
      vendors: 'VendorVacancyApi-DataVendors-DEF',
    });
  });

  it('explains a missing stack, or a stack without the outputs, as a user error', async () => {
    const cloudFormation = new CloudFormationClient({
      region: 'eu-central-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    const mock = mockClient(cloudFormation);
    mock
      .on(DescribeStacksCommand, { StackName: 'Missing' })
      .rejects(Object.assign(new Error('Stack with id Missing does not exist'), { name: 'ValidationError' }));
    mock.on(DescribeStacksCommand, { StackName: 'Other' }).resolves({
      Stacks: [{ StackName: 'Other', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [] }],
    });
    await expect(tablesFromStack(cloudFormation, 'Missing')).rejects.toThrow(
      new UserError('Stack "Missing" does not exist in this account and region.'),
    );
    await expect(tablesFromStack(cloudFormation, 'Other')).rejects.toThrow(
      /has no VacanciesTableName\/VendorsTableName outputs/,
    );
  });

  it('uses a local endpoint with the local table names, or asks for a target', async () => {
    const target = await resolveTarget({}, { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' });
    expect(target).toMatchObject({ local: true, tables: { vacancies: 'Vacancies', vendors: 'Vendors' } });
    target.close();
    await expect(resolveTarget({}, {})).rejects.toThrow(UserError);
  });
});
