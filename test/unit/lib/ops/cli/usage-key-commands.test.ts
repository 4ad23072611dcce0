/**
 * `vacancy-admin usage-keys remove --stack X`, the teardown of what `cdk destroy` leaves in API Gateway: run as the
 * CLI runs it, in this process, with every CloudFormation and API Gateway client of the process mocked (there is no
 * control plane to run here).
 */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import {
  CloudFormationClient,
  CloudFormationServiceException,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { createProgram, runProgram } from '../../../../../lib/ops/cli/program';
import { addUsageKeyCommands } from '../../../../../lib/ops/cli/usage-key-commands';
import { fakeApiGateway } from '../../../../../testkit/api-gateway';

const cloudFormation = mockClient(CloudFormationClient);
const apiGateway = fakeApiGateway(APIGatewayClient, { now: () => performance.now() });

/** Runs `vacancy-admin <args>` and returns what it printed and its exit code. */
async function admin(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => err.push(line));
  process.exitCode = 0;
  try {
    const program = createProgram();
    addUsageKeyCommands(program);
    await runProgram(program, ['node', 'vacancy-admin', ...args]);
    return { code: process.exitCode, stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    process.exitCode = 0;
  }
}

const stackGone = () =>
  new CloudFormationServiceException({
    name: 'ValidationError',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message: 'Stack with id VendorVacancyApi does not exist',
  });

describe('vacancy-admin usage-keys remove', () => {
  beforeEach(() => {
    apiGateway.keys.clear();
    for (const [id, name, stack] of [
      ['k1', 'VendorVacancyApi.acme.standard', 'VendorVacancyApi'],
      ['k2', 'VendorVacancyApi.globex.partner', 'VendorVacancyApi'],
      ['k3', 'VendorVacancyApi-dev.acme.standard', 'VendorVacancyApi-dev'],
    ] as const) {
      apiGateway.keys.set(id, { id, name, value: `value-${id}`, tags: { stack } });
    }
  });
  afterEach(() => {
    cloudFormation.reset();
  });
  afterAll(() => cloudFormation.restore());

  it("refuses while the stack still exists (its vendors' requests need the keys), deleting nothing", async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'VendorVacancyApi', StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date() }],
    });
    expect(
      await admin('--region', 'eu-central-1', 'usage-keys', 'remove', '--stack', 'VendorVacancyApi'),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: stack VendorVacancyApi in eu-central-1 still exists, and its vendors\' requests need these keys.\nhint: run it after "cdk destroy", or give --force.',
    });
    expect(apiGateway.keys.size).toBe(3);
  });

  it("deletes the destroyed stack's keys, and no other stack's", async () => {
    cloudFormation.on(DescribeStacksCommand).rejects(stackGone());
    const run = await admin(
      '--region',
      'eu-central-1',
      'usage-keys',
      'remove',
      '--stack',
      'VendorVacancyApi',
    );
    expect(run).toEqual({
      code: 0,
      stdout: [
        'deleted API key k1 (VendorVacancyApi.acme.standard)',
        'deleted API key k2 (VendorVacancyApi.globex.partner)',
        '2 usage keys of stack VendorVacancyApi in eu-central-1 deleted',
      ].join('\n'),
      stderr: '',
    });
    expect([...apiGateway.keys.keys()]).toEqual(['k3']);
  });

  it('deletes them while the stack exists only with --force', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'VendorVacancyApi', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() }],
    });
    const run = await admin(
      '--json',
      '--region',
      'eu-central-1',
      'usage-keys',
      'remove',
      '--stack',
      'VendorVacancyApi',
      '--force',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      stack: 'VendorVacancyApi',
      region: 'eu-central-1',
      deleted: [
        { id: 'k1', name: 'VendorVacancyApi.acme.standard' },
        { id: 'k2', name: 'VendorVacancyApi.globex.partner' },
      ],
    });
  });

  it('asks for --stack, as a usage error', async () => {
    expect(await admin('--region', 'eu-central-1', 'usage-keys', 'remove')).toMatchObject({
      code: 2,
      stderr: 'error: usage-keys remove needs --stack <name>: the stack whose keys to remove.',
    });
  });
});
