import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { App, type Stack, aws_sqs as sqs, Validations } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SERVICE_NAME } from '../../../../lambda/domain/service/limits';
import { SettingError } from '../../../../lambda/domain/settings/errors';
import { BEARER_HEADER_PATTERN } from '../../../../lambda/functions/authorizer/bearer';
import { GATEWAY_RESPONSES } from '../../../../lambda/platform/http/gateway-responses';
import { checkSettingNames, DEFAULT_SETTINGS, readSettings } from '../../../../lib/settings';
import { VacancyApiStack } from '../../../../lib/stack/vacancy-api-stack';
import { recordServedEmptyPage } from '../../../../testkit/listing';
import {
  alarmsByName,
  CDK_CONTEXT,
  changeWritesMapping,
  PRIVATE_BUCKET,
  stackTemplate,
  templateResources,
} from '../../../../testkit/stack';
import { sharedStackTemplate } from '../../../../testkit/synth-server';

type Statement = { Action: string | string[]; Effect: string; Resource: unknown; Condition?: unknown };

/** The statements of the stack's policies; of those attached to one role, given its logical id. */
function statements(template: Template, roleId?: string): Statement[] {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(
      (policy) =>
        roleId === undefined || JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]),
    )
    .flatMap((policy) => (policy.Properties.PolicyDocument.Statement as Statement[]) ?? []);
}
const actionsOf = (statement: Statement) => [statement.Action].flat();

/** The logical id of the stack's table whose id starts with `prefix`. */
const tableId = (template: Template, prefix: string) =>
  Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) => id.startsWith(prefix)) ?? prefix;

/** The logical id of a function's role. */
const roleOf = (template: Template, description: string) =>
  (lambdaFunction(template, description).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

/** A function's grants of DynamoDB: each statement's actions and resources (and condition, if any). */
function dynamodbGrants(template: Template, description: string) {
  return statements(template, roleOf(template, description))
    .filter((statement) => actionsOf(statement).some((a) => a.startsWith('dynamodb:')))
    .map((statement) => [
      actionsOf(statement),
      JSON.stringify(statement.Resource),
      ...(statement.Condition ? [statement.Condition] : []),
    ]);
}

/** The function whose Description starts with `prefix`. */
function lambdaFunction(template: Template, description: string) {
  const [resource] = Object.values(
    template.findResources('AWS::Lambda::Function', {
      Properties: { Description: Match.stringLikeRegexp(description) },
    }),
  );
  if (!resource) throw new Error(`No function described "${description}"`);
  return resource.Properties;
}

/** The default settings' template, and the detailed monitoring profile's: the run's, synthesized once for every file. */
const defaults = await sharedStackTemplate();
const detailedTemplate = await sharedStackTemplate({ monitoring: 'detailed' });

/** The headers a mock integration of `methods` answers `status` with (the 405, the preflight's 204). */
// biome-ignore lint/suspicious/noExplicitAny: a template's method properties, as findResources gives them.
const mockedHeaders = (methods: any[], status: string) =>
  methods.find((method) => method.Integration.IntegrationResponses?.[0]?.StatusCode === status)?.Integration
    .IntegrationResponses[0].ResponseParameters;

describe('the stack, with default settings', () => {
  const template = defaults;

  describe('functions', () => {
    it.each([
      ['resolves a Bearer API key', 256, 5],
      ['GET /vendor/vacancies', 512, 10],
    ])(
      '%s: Node.js 24 on arm64, JSON logs in its own group, traced, source maps on',
      (description, memory, timeout) => {
        const properties = lambdaFunction(template, description);
        expect(properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          MemorySize: memory,
          Timeout: timeout,
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
        });
        // No `--enable-source-maps`, which indexes the whole source map at every cold start: the bundle maps a
        // stack trace itself when one is read (lambda/platform/observability/stack-traces.ts).
        expect(properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
        // Well inside API Gateway's 29-second integration limit.
        expect(properties.Timeout).toBeLessThan(29);
      },
    );

    it('configures the listing through its environment, with no secret in it', () => {
      const variables = lambdaFunction(template, 'GET /vendor/vacancies').Environment.Variables;
      expect(variables).toMatchObject({
        VACANCIES_TABLE: { Ref: expect.stringMatching(/^DataVacancies/) },
        DEFAULT_LOCALE: 'az',
        SERVICE_TIMEZONE: 'Asia/Baku',
        DEFAULT_PER_PAGE: '15',
      });
      expect(variables).not.toHaveProperty('PUBLIC_BASE_URL');
      expect(JSON.stringify(variables)).not.toMatch(/vvk_|secret|password/i);
    });

    it('keeps every log group for 30 days', () => {
      template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, 8);
    });

    it('runs the expiry job at five past every hour of the service time zone, once, without retries', () => {
      const expiry = lambdaFunction(template, 'records expired vacancies');
      expect(expiry).toMatchObject({
        MemorySize: 256,
        Timeout: 300,
        Environment: {
          Variables: expect.objectContaining({
            VACANCIES_TABLE: { Ref: expect.stringMatching(/^DataVacancies/) },
            VENDORS_TABLE: { Ref: expect.stringMatching(/^DataVendors/) },
            SERVICE_TIMEZONE: 'Asia/Baku',
          }),
        },
      });
      template.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: 'cron(5 * * * ? *)',
        ScheduleExpressionTimezone: 'Asia/Baku',
        State: 'ENABLED',
        Target: {
          Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FunctionsExpiry'), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        },
      });
    });
  });

  describe('least privilege', () => {
    const all = statements(template);

    it("grants no wildcard action and no Scan anywhere, and no write but the expiry job's, the inbox's, the webhooks' and the feeds' own", () => {
      for (const action of all.flatMap(actionsOf)) {
        expect(action).not.toContain('*');
        expect(action).not.toMatch(/^dynamodb:(Delete|BatchWrite|TransactWrite|Scan|Create|Restore|Import)/);
      }
      const writers = all.filter((statement) =>
        actionsOf(statement).some((action) => /^dynamodb:(Put|Update)/.test(action)),
      );
      const expiry = statements(template, roleOf(template, 'records expired vacancies'));
      const inbox = statements(template, roleOf(template, 'imports the files'));
      const webhooks = statements(template, roleOf(template, 'webhook events'));
      const feeds = statements(template, roleOf(template, 'builds vendors. feeds'));
      expect(writers).toHaveLength(6);
      for (const statement of writers)
        expect([...expiry, ...inbox, ...webhooks, ...feeds]).toContainEqual(statement);
      // The feeds' builder records its builds on the feeds' items, nothing else.
      expect(feeds.filter((statement) => writers.includes(statement))).toEqual([
        expect.objectContaining({
          Action: 'dynamodb:UpdateItem',
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['feed#*'] } },
        }),
      ]);
      // The webhook dispatch writes its endpoints' items (positions, leases), nothing else.
      expect(webhooks.filter((statement) => writers.includes(statement))).toEqual([
        expect.objectContaining({
          Action: 'dynamodb:UpdateItem',
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['webhook#*'] } },
        }),
      ]);
    });

    it("lets the listing Query only the active and search indexes, BatchGetItem only the vacancies table, and read only the vendors' summaries", () => {
      const grants = dynamodbGrants(template, 'GET /vendor/vacancies');
      expect(grants).toHaveLength(3);
      const index = (name: string) =>
        `\\{"Fn::Join":\\["",\\[\\{"Fn::GetAtt":\\["DataVacancies\\w+","Arn"\\]\\},"\\/index\\/${name}"\\]\\]\\}`;
      expect(grants).toContainEqual([
        ['dynamodb:Query'],
        expect.stringMatching(
          new RegExp(`^\\[${index('active-by-vendor')},${index('search-by-vendor')}\\]$`),
        ),
      ]);
      expect(grants).toContainEqual([
        ['dynamodb:BatchGetItem'],
        expect.stringMatching(/^\{"Fn::GetAtt":\["DataVacancies\w+","Arn"\]\}$/),
      ]);
      expect(grants).toContainEqual([
        ['dynamodb:GetItem'],
        expect.stringMatching(/^\{"Fn::GetAtt":\["DataVendors\w+","Arn"\]\}$/),
        { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['summary#*'] } },
      ]);
    });

    it('lets the authorizer GetItem the vendors table, nothing more', () => {
      expect(dynamodbGrants(template, 'resolves a Bearer API key')).toEqual([
        [['dynamodb:GetItem'], expect.stringMatching(/^\{"Fn::GetAtt":\["DataVendors\w+","Arn"\]\}$/)],
      ]);
    });

    it('lets the expiry job find by key, write vacancies by id, list vendors and keep summaries — no key item', () => {
      const grants = dynamodbGrants(template, 'records expired vacancies');
      const indexArn = (table: string, index: string) =>
        JSON.stringify({
          'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(template, table), 'Arn'] }, `/index/${index}`]],
        });
      expect(grants).toEqual([
        [
          ['dynamodb:Query'],
          `[${indexArn('DataVacancies', 'active-by-vendor')},${indexArn('DataVacancies', 'expiring')},${indexArn('DataVendors', 'by-kind')}]`,
        ],
        [
          ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
          expect.stringMatching(/^\{"Fn::GetAtt":\["DataVacancies\w+","Arn"\]\}$/),
        ],
        [
          ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          expect.stringMatching(/^\{"Fn::GetAtt":\["DataVendors\w+","Arn"\]\}$/),
          { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['summary#*'] } },
        ],
      ]);
    });

    it("lets each schedule role invoke its one function (the expiry job and the summaries' guards, the webhook dispatch, the feeds' builds), for this account only", () => {
      const roles = template.findResources('AWS::IAM::Role', {
        Properties: {
          AssumeRolePolicyDocument: {
            Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })],
          },
        },
      });
      expect(Object.keys(roles).sort()).toEqual([
        expect.stringMatching(/^ExpiryRole/),
        expect.stringMatching(/^FeedsSchedulerRole/),
        expect.stringMatching(/^SummaryGuardsSchedulerRole/),
        expect.stringMatching(/^WebhooksSchedulerRole/),
      ]);
      for (const [roleId, role] of Object.entries(roles)) {
        expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('aws:SourceAccount');
        expect(statements(template, roleId)).toEqual([
          {
            Action: 'lambda:InvokeFunction',
            Effect: 'Allow',
            Resource: {
              'Fn::GetAtt': [
                expect.stringMatching(
                  roleId.startsWith('Webhooks')
                    ? /^FunctionsWebhooks/
                    : roleId.startsWith('Feeds')
                      ? /^FunctionsFeeds/
                      : /^FunctionsExpiry/,
                ),
                'Arn',
              ],
            },
          },
        ]);
      }
    });

    it('attaches no AWS managed policy to the function roles', () => {
      const roles = Object.values(template.findResources('AWS::IAM::Role'));
      // Not CDK's own handler of bucket notifications, which runs at deployment only (lib/stack/inbox.ts).
      const lambdaRoles = roles.filter(
        (role) =>
          JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com') &&
          String(role.Properties.Description).startsWith('Vendor Vacancy API'),
      );
      expect(lambdaRoles).toHaveLength(7);
      for (const role of lambdaRoles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    });
  });

  describe('the webhook dispatch', () => {
    it("is woken by the vacancies table's stream, filtered to change writes, never by a timer", () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      });
      template.hasResourceProperties(
        'AWS::Lambda::EventSourceMapping',
        changeWritesMapping({ Ref: Match.stringLikeRegexp('^FunctionsWebhooksFunction') }),
      );
      // The only schedule is the hourly expiry job's: nothing runs per minute or per vendor (retries are one-time
      // schedules the function makes when one is due, and which delete themselves).
      expect(Object.keys(template.findResources('AWS::Scheduler::Schedule'))).toEqual([
        expect.stringMatching(/^Expiry/),
      ]);
      template.resourceCountIs('AWS::Events::Rule', 0);
      template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'VendorVacancyApi-webhooks' });
    });

    it('may create and delete schedules in its own group only, and hand them the role that invokes it', () => {
      const granted = statements(template, roleOf(template, 'webhook events'));
      expect(granted).toContainEqual(
        expect.objectContaining({
          Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
          Resource: 'arn:aws:scheduler:eu-central-1:123456789012:schedule/VendorVacancyApi-webhooks/*',
        }),
      );
      expect(granted).toContainEqual(
        expect.objectContaining({
          Action: 'iam:PassRole',
          Resource: { 'Fn::GetAtt': [expect.stringMatching(/^WebhooksSchedulerRole/), 'Arn'] },
        }),
      );
    });
  });

  describe("the summaries' guards", () => {
    it('are one-time schedules the writers may create and delete in their own group only, run by a role that invokes the expiry job', () => {
      template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', {
        Name: 'VendorVacancyApi-summary-guards',
      });
      for (const writer of ['imports the files', 'records expired vacancies']) {
        const granted = statements(template, roleOf(template, writer));
        expect(granted).toContainEqual(
          expect.objectContaining({
            Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
            Resource: {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':scheduler:',
                  { Ref: 'AWS::Region' },
                  ':',
                  { Ref: 'AWS::AccountId' },
                  ':schedule/VendorVacancyApi-summary-guards/*',
                ],
              ],
            },
          }),
        );
        expect(granted).toContainEqual(
          expect.objectContaining({
            Action: 'iam:PassRole',
            Resource: { 'Fn::GetAtt': [expect.stringMatching(/^SummaryGuardsSchedulerRole/), 'Arn'] },
          }),
        );
      }
    });
  });

  describe('the inbox', () => {
    const bucket = () =>
      Object.entries(template.findResources('AWS::S3::Bucket')).filter(([id]) => id.startsWith('Inbox'));

    it('is one private bucket: encrypted, TLS only, no public access, not versioned, handled files and reports expiring', () => {
      expect(bucket()).toHaveLength(1);
      template.hasResourceProperties('AWS::S3::Bucket', {
        ...PRIVATE_BUCKET,
        VersioningConfiguration: Match.absent(),
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'done/', ExpirationInDays: 30, Status: 'Enabled' }),
            Match.objectLike({ Prefix: 'reports/', ExpirationInDays: 90, Status: 'Enabled' }),
          ]),
        },
      });
      const [[bucketId]] = bucket() as [[string, unknown]];
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
        Bucket: { Ref: bucketId },
      });
      template.hasOutput('InboxBucket', { Value: { Ref: bucketId } });
    });

    it('invokes the import function for objects created under incoming/ only, retried twice, then to a dead-letter queue', () => {
      const functionArn = { 'Fn::GetAtt': [Match.stringLikeRegexp('^FunctionsInbox'), 'Arn'] };
      template.hasResourceProperties('Custom::S3BucketNotifications', {
        NotificationConfiguration: {
          LambdaFunctionConfigurations: [
            {
              Events: ['s3:ObjectCreated:*'],
              Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'incoming/' }] } },
              LambdaFunctionArn: functionArn,
            },
          ],
        },
      });
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        MaximumRetryAttempts: 2,
        DestinationConfig: {
          OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^InboxDeadLetters'), 'Arn'] } },
        },
      });
      template.hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp('imports the files'),
        Timeout: 900,
        MemorySize: 3072,
      });
    });

    it("lets the import function read and delete only incoming/, write only done/, failed/, held/ and reports/, and the tables as the CLI's import does", () => {
      const grants = statements(template, roleOf(template, 'imports the files'));
      const s3 = grants.filter((statement) => actionsOf(statement).some((a) => a.startsWith('s3:')));
      const objectsOf = (statement: Statement) =>
        [statement.Resource]
          .flat()
          .map((resource) => JSON.stringify(resource).match(/"\/([a-z]+\/)\*"/)?.[1] ?? 'bucket');
      expect(s3.map((statement) => [actionsOf(statement), objectsOf(statement)])).toEqual([
        [['s3:ListBucket'], ['bucket']],
        [['s3:DeleteObject', 's3:GetObject'], ['incoming/']],
        [['s3:PutObject'], ['done/', 'failed/', 'held/', 'reports/']],
      ]);
      const dynamodb = dynamodbGrants(template, 'imports the files');
      expect(dynamodb.flatMap(([actions]) => actions as string[]).sort()).toEqual(
        [
          'dynamodb:BatchGetItem',
          'dynamodb:GetItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:PutItem',
          'dynamodb:Query',
          'dynamodb:UpdateItem',
        ].sort(),
      );
      expect(dynamodb).toContainEqual([
        ['dynamodb:Query'],
        expect.stringMatching(/"\/index\/changes-by-vendor"/),
      ]);
      // The vendors table: vendor items and summaries only, never a key; writes to summaries only.
      for (const [actions, , condition] of dynamodb.filter(([, resource]) =>
        /DataVendors/.test(String(resource)),
      )) {
        const leading = (condition as { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': string[] } })[
          'ForAllValues:StringLike'
        ]['dynamodb:LeadingKeys'];
        expect(leading).not.toContain('key#*');
        if ((actions as string[]).some((a) => /Put|Update/.test(a))) expect(leading).toEqual(['summary#*']);
      }
    });
  });

  describe('REST API', () => {
    it('is regional, with the TOKEN authorizer on the Authorization header, validated and cached 300 s', () => {
      template.hasResourceProperties('AWS::ApiGateway::RestApi', {
        EndpointConfiguration: { Types: ['REGIONAL'] },
      });
      template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
        Type: 'TOKEN',
        IdentitySource: 'method.request.header.Authorization',
        IdentityValidationExpression: BEARER_HEADER_PATTERN,
        AuthorizerResultTtlInSeconds: 300,
      });
    });

    it('puts GET /vendor/vacancies and GET /vendor/vacancies/{id} behind the authorizer, proxied to the listing function', () => {
      const resources = template.findResources('AWS::ApiGateway::Resource');
      const pathPart = (id: string) => resources[id]?.Properties.PathPart;
      const gets = Object.values(template.findResources('AWS::ApiGateway::Method'))
        .map((method) => method.Properties)
        .filter((method) => method.HttpMethod === 'GET');
      expect(gets.map((method) => pathPart(method.ResourceId.Ref)).sort()).toEqual(['vacancies', '{id}']);
      const listingFunction = Object.keys(template.findResources('AWS::Lambda::Function')).find((id) =>
        id.startsWith('FunctionsListing'),
      );
      for (const get of gets) {
        expect(get).toMatchObject({
          AuthorizationType: 'CUSTOM',
          AuthorizerId: { Ref: expect.stringMatching(/KeyAuthorizer/) },
          ApiKeyRequired: true,
          Integration: { Type: 'AWS_PROXY' },
        });
        expect(JSON.stringify(get.Integration.Uri)).toContain(listingFunction);
      }
    });

    it('puts POST /mcp behind the same authorizer and key, proxied to the MCP function, with a preflight and a 405 of its own', () => {
      const resources = template.findResources('AWS::ApiGateway::Resource');
      const mcp = Object.keys(resources).find((id) => resources[id]?.Properties.PathPart === 'mcp');
      const methods = Object.values(template.findResources('AWS::ApiGateway::Method'))
        .map((method) => method.Properties)
        .filter((method) => method.ResourceId.Ref === mcp);
      expect(methods.map((method) => method.HttpMethod).sort()).toEqual(['ANY', 'OPTIONS', 'POST']);
      const mcpFunction = Object.keys(template.findResources('AWS::Lambda::Function')).find((id) =>
        id.startsWith('FunctionsMcp'),
      );
      const post = methods.find((method) => method.HttpMethod === 'POST');
      expect(post).toMatchObject({
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: expect.stringMatching(/KeyAuthorizer/) },
        ApiKeyRequired: true,
        Integration: { Type: 'AWS_PROXY' },
      });
      expect(JSON.stringify(post?.Integration.Uri)).toContain(mcpFunction);
      const mocked = (status: string) => mockedHeaders(methods, status);
      expect(mocked('405')).toMatchObject({ 'method.response.header.Allow': "'POST, OPTIONS'" });
      expect(mocked('204')).toMatchObject({
        'method.response.header.Access-Control-Allow-Methods': "'POST, OPTIONS'",
        'method.response.header.Access-Control-Allow-Headers':
          "'Authorization, Accept, Accept-Language, Content-Type, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id'",
      });
    });

    it("puts POST /mcp/{token} behind a REQUEST authorizer of its own, on the path's token alone, cached 300 s per token, proxied to the MCP function", () => {
      const resources = template.findResources('AWS::ApiGateway::Resource');
      const mcp = Object.keys(resources).find((id) => resources[id]?.Properties.PathPart === 'mcp');
      const token = Object.keys(resources).find(
        (id) =>
          resources[id]?.Properties.PathPart === '{token}' && resources[id]?.Properties.ParentId.Ref === mcp,
      );
      expect(token).toBeDefined();
      const methods = Object.values(template.findResources('AWS::ApiGateway::Method'))
        .map((method) => method.Properties)
        .filter((method) => method.ResourceId.Ref === token);
      expect(methods.map((method) => method.HttpMethod).sort()).toEqual(['ANY', 'OPTIONS', 'POST']);
      const authorizers = template.findResources('AWS::ApiGateway::Authorizer');
      const agentAuthorizer = Object.keys(authorizers).find((id) => /AgentAuthorizer/.test(id)) as string;
      // The cache key is the token: the same token is the same answer for 300 s (a removal takes that long), and no
      // header of the request takes part in it.
      expect(authorizers[agentAuthorizer]?.Properties).toMatchObject({
        Type: 'REQUEST',
        IdentitySource: 'method.request.path.token',
        AuthorizerResultTtlInSeconds: 300,
      });
      expect(authorizers[agentAuthorizer]?.Properties.IdentityValidationExpression).toBeUndefined();
      // The same function as the keys' authorizer.
      const keyAuthorizer = Object.keys(authorizers).find((id) => /KeyAuthorizer/.test(id)) as string;
      expect(JSON.stringify(authorizers[agentAuthorizer]?.Properties.AuthorizerUri)).toBe(
        JSON.stringify(authorizers[keyAuthorizer]?.Properties.AuthorizerUri),
      );
      const mcpFunction = Object.keys(template.findResources('AWS::Lambda::Function')).find((id) =>
        id.startsWith('FunctionsMcp'),
      );
      const post = methods.find((method) => method.HttpMethod === 'POST');
      expect(post).toMatchObject({
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: agentAuthorizer },
        ApiKeyRequired: true,
        RequestParameters: { 'method.request.path.token': true },
        Integration: { Type: 'AWS_PROXY' },
      });
      expect(JSON.stringify(post?.Integration.Uri)).toContain(mcpFunction);
      const mocked = (status: string) => mockedHeaders(methods, status);
      expect(mocked('405')).toMatchObject({ 'method.response.header.Allow': "'POST, OPTIONS'" });
      // From any origin, without credentials: no Authorization to allow, none to send.
      expect(mocked('204')).toMatchObject({
        'method.response.header.Access-Control-Allow-Methods': "'POST, OPTIONS'",
        'method.response.header.Access-Control-Allow-Headers':
          "'Accept, Accept-Language, Content-Type, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id'",
      });
      expect(mocked('204')).not.toHaveProperty('method.response.header.Access-Control-Allow-Credentials');
    });

    it('counts every token that is no endpoint under one API key of the agent plan, the one the authorizer names', () => {
      const keys = template.findResources('AWS::ApiGateway::ApiKey');
      const [notFound, ...others] = Object.keys(keys).filter((id) => /AgentNotFoundKey/.test(id));
      expect(others).toEqual([]);
      expect(JSON.stringify(keys[notFound as string]?.Properties.Value)).toMatch(
        /^\{"Fn::Join":\["",\[\{"Ref":"DataVendors\w+"\},"\.agent-not-found"\]\]\}$/,
      );
      const plans = template.findResources('AWS::ApiGateway::UsagePlan');
      const agentPlan = Object.keys(plans).find((id) =>
        plans[id]?.Properties.UsagePlanName.endsWith('-agent'),
      );
      template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', {
        KeyId: { Ref: notFound },
        KeyType: 'API_KEY',
        UsagePlanId: { Ref: agentPlan },
      });
    });

    it('answers any other method with a 405 mock (Allow: GET, OPTIONS) and OPTIONS with a preflight mock: the only methods without the authorizer', () => {
      const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).map(
        (method) => method.Properties,
      );
      // One of each on each route; none carries the authorizer (CDK has copied it onto OPTIONS before:
      // aws/aws-cdk#8615, #21419).
      const open = methods.filter((method) => method.AuthorizationType !== 'CUSTOM');
      expect(open.map((method) => method.HttpMethod).sort()).toEqual([
        'ANY',
        'ANY',
        'ANY',
        'ANY',
        'OPTIONS',
        'OPTIONS',
        'OPTIONS',
        'OPTIONS',
      ]);
      for (const method of open) {
        expect(method.AuthorizationType).toBe('NONE');
        expect(method.AuthorizerId).toBeUndefined();
        expect(method.ApiKeyRequired).toBeUndefined();
      }
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'OPTIONS',
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'MOCK',
          IntegrationResponses: [
            {
              StatusCode: '204',
              // The origin is echoed by the template: an integration response cannot map a request header.
              ResponseTemplates: {
                'application/json': Match.stringLikeRegexp(
                  '\\$context\\.responseOverride\\.header\\.Access-Control-Allow-Origin = \\$origin',
                ),
              },
              ResponseParameters: Match.objectLike({
                'method.response.header.Access-Control-Allow-Methods': "'GET, OPTIONS'",
                'method.response.header.Access-Control-Allow-Headers':
                  "'Authorization, Accept, Accept-Language, If-None-Match'",
                'method.response.header.Access-Control-Max-Age': "'7200'",
                'method.response.header.Vary': "'Origin'",
              }),
            },
          ],
        },
      });
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'ANY',
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'MOCK',
          IntegrationResponses: [
            {
              StatusCode: '405',
              ResponseParameters: Match.objectLike({ 'method.response.header.Allow': "'GET, OPTIONS'" }),
              ResponseTemplates: {
                'application/json': Match.stringLikeRegexp(
                  'responseOverride\\.header\\.Access-Control-Allow-Origin[\\s\\S]*\\n\\{"status":"error","message":"Method Not Allowed\\.","request_id":"\\$context\\.requestId"\\}$',
                ),
              },
            },
          ],
        },
      });
    });

    it.each(Object.entries(GATEWAY_RESPONSES))('answers %s in the contract envelope', (type, definition) => {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ...(definition.statusCode ? { StatusCode: String(definition.statusCode) } : {}),
        ResponseParameters: Match.objectLike({
          'gatewayresponse.header.Content-Type': "'application/json; charset=utf-8'",
          'gatewayresponse.header.Cache-Control': "'no-store'",
          'gatewayresponse.header.X-Request-Id': 'context.requestId',
          // A page can read why (docs/api.md#from-a-web-page).
          'gatewayresponse.header.Access-Control-Allow-Origin': 'method.request.header.Origin',
          'gatewayresponse.header.Vary': "'Origin'",
          ...Object.fromEntries(
            Object.entries(definition.headers ?? {}).map(([name, value]) => [
              `gatewayresponse.header.${name}`,
              `'${value}'`,
            ]),
          ),
        }),
        ResponseTemplates: {
          'application/json': `{"status":"error","message":"${definition.message}","request_id":"$context.requestId"}`,
        },
      });
    });

    it('gives 401 its WWW-Authenticate, 429 its Retry-After, and an unknown path 404', () => {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: 'UNAUTHORIZED',
        StatusCode: '401',
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.WWW-Authenticate': "'Bearer'" }),
      });
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: 'THROTTLED',
        StatusCode: '429',
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      });
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
        StatusCode: '404',
      });
    });

    it.each(['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'])(
      'answers %s — a key that could not be checked — with 503 and Retry-After, never 401 or 500',
      (type) => {
        template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
          ResponseType: type,
          StatusCode: '503',
          ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
          ResponseTemplates: {
            'application/json':
              '{"status":"error","message":"Service Unavailable.","request_id":"$context.requestId"}',
          },
        });
      },
    );

    it('runs the stage throttled, traced, with JSON access logs and ERROR execution logs without data trace', () => {
      template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: 'prod',
        TracingEnabled: true,
        MethodSettings: [
          {
            HttpMethod: '*',
            ResourcePath: '/*',
            LoggingLevel: 'ERROR',
            DataTraceEnabled: false,
            ThrottlingRateLimit: DEFAULT_SETTINGS.throttlingRateLimit,
            ThrottlingBurstLimit: DEFAULT_SETTINGS.throttlingBurstLimit,
          },
        ],
        AccessLogSetting: { Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
      });
      const format = JSON.parse(
        Object.values(template.findResources('AWS::ApiGateway::Stage'))[0]?.Properties.AccessLogSetting
          .Format,
      );
      expect(Object.keys(format)).toEqual(
        expect.arrayContaining(['requestId', 'status', 'latency', 'vendorId']),
      );
      expect(JSON.stringify(format)).not.toMatch(/authorization|header/i);
    });
  });

  describe('tables', () => {
    it('are on-demand, recoverable, protected and retained', () => {
      template.allResourcesProperties('AWS::DynamoDB::Table', {
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      });
      template.allResources('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    });
  });

  describe('outputs', () => {
    it('outputs the API URL, the stage, the table names and the service time zone (the dashboard only when detailed)', () => {
      expect(Object.keys(template.findOutputs('DashboardUrl'))).toEqual([]);
      detailedTemplate.hasOutput('DashboardUrl', {});
      for (const name of [
        'ApiUrl',
        'ListingUrl',
        'StageName',
        'VacanciesTableName',
        'VendorsTableName',
        'AlarmTopicArn',
      ]) {
        template.hasOutput(name, {});
      }
      // The ops CLI reads created_at without an offset in this zone (--stack).
      template.hasOutput('ServiceTimeZone', { Value: DEFAULT_SETTINGS.serviceTimeZone });
    });
  });

  describe('monitoring, in the default profile', () => {
    const { ofType } = templateResources(template);
    const alarms = alarmsByName(template);

    it('keeps the alarms that protect data, tenants and availability, on metrics AWS publishes (a log filter where none is)', () => {
      expect([...alarms.keys()].sort()).toEqual(
        [
          'AuthorizerFailing',
          'DynamoDBThrottling',
          'ExpiryFailing',
          'ImportFailing',
          'IsolationBreach',
          'LatencyP99',
          'ServerErrorRate',
          'WebhookEndpointDisabled',
        ].sort(),
      );
      const uses = (name: string) => JSON.stringify(alarms.get(name));
      expect(uses('ServerErrorRate')).toContain('"Namespace":"AWS/ApiGateway"');
      expect(uses('LatencyP99')).toContain('"Namespace":"AWS/ApiGateway"');
      expect(uses('ExpiryFailing')).toContain('"Namespace":"AWS/Lambda"');
      expect(uses('ImportFailing')).toContain('"Namespace":"AWS/Lambda"');
      // A run that disabled an endpoint fails on purpose (lambda/functions/webhooks/handler.ts): the free Errors metric says so.
      expect(uses('WebhookEndpointDisabled')).toContain('"Namespace":"AWS/Lambda"');
      expect(uses('WebhookEndpointDisabled')).toContain('"MetricName":"Errors"');
      expect(uses('DynamoDBThrottling')).toContain('"Namespace":"AWS/DynamoDB"');
      // Where AWS publishes nothing: the access log's failed key checks, the listing's line about another vendor's items.
      expect(
        ofType('AWS::Logs::MetricFilter')
          .map(([, filter]) => filter.Properties.FilterPattern)
          .sort(),
      ).toEqual([
        // The listing's log group and the MCP function's, into one metric.
        '{ $.foreignItems > 0 }',
        '{ $.foreignItems > 0 }',
        '{ ($.error = "AUTHORIZER_FAILURE") || ($.error = "AUTHORIZER_CONFIGURATION_ERROR") }',
      ]);
      expect(uses('IsolationBreach')).toContain('"MetricName":"ForeignItemsLogged"');
    });

    it('counts items of another vendor from the very line the listing logs about them', () => {
      const lines: Record<string, unknown>[] = [];
      const logger = new Logger({ serviceName: SERVICE_NAME });
      jest.spyOn(logger, 'error').mockImplementation((message, ...extra) => {
        lines.push({ message, ...(extra[0] as object) });
      });
      jest.spyOn(logger, 'info').mockImplementation(() => {});
      recordServedEmptyPage(logger, { readUnits: 1, foreignItems: 2 });
      const [filter] = ofType('AWS::Logs::MetricFilter').filter(([id]) => id.includes('ForeignItems'));
      expect(filter?.[1].Properties.MetricTransformations).toEqual([
        expect.objectContaining({ MetricValue: '$.foreignItems', DefaultValue: 0 }),
      ]);
      expect(lines).toEqual([expect.objectContaining({ foreignItems: 2 })]);
    });

    it('has no dashboard, no Contributor Insights rule, and the functions emit no metrics', () => {
      expect(ofType('AWS::CloudWatch::Dashboard')).toEqual([]);
      expect(ofType('AWS::CloudWatch::InsightRule')).toEqual([]);
      const functions = ofType('AWS::Lambda::Function').filter(([id]) => id.startsWith('Functions'));
      expect(functions).toHaveLength(7);
      for (const [, fn] of functions) {
        expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables).toMatchObject({
          POWERTOOLS_METRICS_DISABLED: 'true',
        });
      }
    });
  });

  it("keeps, for an update of the first version, the logical ids of what holds data, an address or the vendors' plans", () => {
    const { resources } = templateResources(template);
    // Tables, the REST API and its stage (its URL), the usage plan (the vendors' keys in it), the alarm topic (its
    // subscriptions), the access log group: replacing any of these on update would lose something.
    for (const [type, id] of [
      ['AWS::DynamoDB::Table', 'DataVacancies21D4FDF0'],
      ['AWS::DynamoDB::Table', 'DataVendors8B837E99'],
      ['AWS::ApiGateway::RestApi', 'ApiF70053CD'],
      ['AWS::ApiGateway::Stage', 'ApiDeploymentStageprod3EB9684E'],
      ['AWS::ApiGateway::UsagePlan', 'ApiRateTierstandard2DF4F56C'],
      ['AWS::SNS::Topic', 'Alarms04B5A0BF'],
      ['AWS::Logs::LogGroup', 'AccessLogs8B620ECA'],
    ]) {
      expect(resources[id as string]?.Type).toBe(type);
    }
  });
});

describe('the stack, with settings from context', () => {
  it('applies every setting', async () => {
    const template = await sharedStackTemplate({
      stageName: 'dev',
      destroyOnRemoval: 'true',
      authorizerCacheSeconds: '0',
      throttlingRateLimit: 5,
      throttlingBurstLimit: '10',
      rateTiers: '{"basic":{"rate":2,"burst":4},"partner":{"rate":5,"burst":10}}',
      defaultRateTier: 'basic',
      wafRateLimit: '500',
      tracing: false,
      logRetentionDays: '7',
      defaultLocale: 'en',
      serviceTimeZone: 'Europe/Berlin',
      defaultPerPage: '25',
      publicBaseUrl: 'https://jobs.example.com',
      alarmEmail: 'ops@example.com',
    });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: false,
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 })],
    });
    // Both authorizers: the keys' and the public endpoints'.
    template.resourcePropertiesCountIs('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 0 }, 2);
    template.allResources('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
    template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
    template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 7 }, 8);
    template.hasResourceProperties('AWS::Lambda::Function', {
      TracingConfig: Match.absent(),
      Environment: {
        Variables: Match.objectLike({
          DEFAULT_LOCALE: 'en',
          SERVICE_TIMEZONE: 'Europe/Berlin',
          DEFAULT_PER_PAGE: '25',
          PUBLIC_BASE_URL: 'https://jobs.example.com',
        }),
      },
    });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    template.hasOutput('ServiceTimeZone', { Value: 'Europe/Berlin' });
    // And the browser tier of publishable keys and the agent tier of public endpoints, their defaults capped to the
    // stage's limits.
    template.resourceCountIs('AWS::ApiGateway::UsagePlan', 4);
    template.resourcePropertiesCountIs(
      'AWS::ApiGateway::UsagePlan',
      { Throttle: { RateLimit: 5, BurstLimit: 10 } },
      3,
    );
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 2, BurstLimit: 4 },
    });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 5, BurstLimit: 10 },
    });
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      Rules: [
        Match.objectLike({
          Statement: { RateBasedStatement: { Limit: 500, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } },
          Action: {
            Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'tooManyRequests' } },
          },
        }),
      ],
      CustomResponseBodies: {
        tooManyRequests: {
          ContentType: 'APPLICATION_JSON',
          Content: '{"status":"error","message":"Too Many Requests.","request_id":""}',
        },
      },
    });
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      ResourceArn: Match.anyValue(),
      WebACLArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('PerIpLimit'), 'Arn'] },
    });
  });

  it('takes time zone names in any case, and deploys the canonical one', async () => {
    const template = await sharedStackTemplate({ serviceTimeZone: 'asia/tokyo' });
    template.hasOutput('ServiceTimeZone', { Value: 'Asia/Tokyo' });
  });

  it('keys vacancies by id alone, with a binary order key on the active index', () => {
    const template = defaults;
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: Match.arrayWith([{ AttributeName: 'o', AttributeType: 'B' }]),
    });
  });

  it.each([
    ['defaultLocale', 'fr', 'az or en'],
    ['serviceTimeZone', 'Mars/Olympus', 'an IANA time zone name'],
    ['serviceTimeZone', '+04:00', 'an IANA time zone name'],
    ['defaultPerPage', '500', 'a whole number from 1 to 100'],
    ['logRetentionDays', '8', 'a retention CloudWatch Logs accepts: 1, 3, 5, 7, 14'],
    ['tracing', 'yes', 'true or false'],
    ['publicBaseUrl', 'ftp://x', 'empty, or an absolute http(s) URL without query or fragment'],
    ['publicBaseUrl', 'https://x.example/?q', 'empty, or an absolute http(s) URL without query or fragment'],
    ['stageName', 'pro d', 'an API Gateway stage name'],
    ['rateTiers', '{}', 'an object of tiers'],
    ['rateTiers', '{"Gold":{"rate":1,"burst":1}}', 'an object of tiers'],
    ['rateTiers', '{"gold":{"rate":0,"burst":1}}', 'an object of tiers'],
    ['rateTiers', '{"gold":{"rate":1.5,"burst":3}}', 'an object of tiers'],
    ['rateTiers', 'not json', 'an object of tiers'],
    ['wafRateLimit', '5', "0 (off), or a whole number of requests per 5 minutes from 10 (AWS WAF's least)"],
  ])(
    'refuses an invalid %s (%p) in one line: the setting, the value, what is allowed',
    (key, value, allowed) => {
      const app = new App({ context: { [key]: value } });
      const read = () => readSettings((key) => app.node.tryGetContext(key));
      expect(read).toThrow(SettingError);
      expect(read).toThrow(`${key} = ${JSON.stringify(value)} is not allowed: ${allowed}`);
    },
  );

  it('stops `cdk synth` with that one line, and no stack trace', async () => {
    const synth = (context: Record<string, unknown>) =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', new URL('../../../../bin/app.ts', import.meta.url).pathname],
          // How the CDK CLI hands `-c name=value` to the app.
          { env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: tmpdir() } },
          (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
        );
      });
    expect(await synth({ wafRateLimit: '5' })).toEqual({
      code: 1,
      stderr:
        'Invalid setting: wafRateLimit = "5" is not allowed: 0 (off), or a whole number of requests per 5 minutes from 10 (AWS WAF\'s least) to 2000000000.\n',
    });
    expect(await synth({ stackNme: 'Other' })).toEqual({
      code: 1,
      stderr: 'Invalid setting: stackNme is not a setting: did you mean stackName?\n',
    });
  });

  it('refuses a would-be setting that is none, naming the nearest setting', () => {
    expect(() => checkSettingNames(['@aws-cdk/core:checkSecretUsage', 'stackNme'])).toThrow(
      new SettingError('stackNme is not a setting: did you mean stackName?'),
    );
    expect(() => checkSettingNames(['defaultperpage'])).toThrow('did you mean defaultPerPage?');
    // CDK's own keys (feature flags, lookups) are never taken for settings.
    expect(() =>
      checkSettingNames(['@aws-cdk/core:target-partitions', 'availability-zones:account=1:region=x']),
    ).not.toThrow();
  });
});

describe('rate tiers', () => {
  const template = defaults;

  it('takes API keys only from the authorizer, and requires one on the listing (not on the 405 mock)', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.hasResourceProperties('AWS::ApiGateway::Method', { HttpMethod: 'GET', ApiKeyRequired: true });
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'ANY',
      ApiKeyRequired: Match.absent(),
      AuthorizationType: 'NONE',
    });
  });

  it('has one usage plan per tier, with its throttle, on the stage; the stage keeps its own limit as the ceiling', () => {
    const plans = Object.values(template.findResources('AWS::ApiGateway::UsagePlan'));
    // The settings' tiers and the public endpoints' agent tier.
    expect(plans.map((plan) => plan.Properties.UsagePlanName).sort()).toEqual(
      [...Object.keys(DEFAULT_SETTINGS.rateTiers), 'agent'].map((tier) => `VendorVacancyApi-${tier}`).sort(),
    );
    // Its throttle is a public endpoint's: each endpoint has an API key of its own in the plan.
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      UsagePlanName: 'VendorVacancyApi-agent',
      Description: 'Rate tier "agent": 5 requests/s, burst 10, per public agent endpoint',
      Throttle: { RateLimit: 5, BurstLimit: 10 },
    });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 10, BurstLimit: 20 },
      ApiStages: [
        {
          ApiId: { Ref: Match.stringLikeRegexp('^Api') },
          Stage: { Ref: Match.stringLikeRegexp('^ApiDeploymentStage') },
        },
      ],
    });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 })],
    });
  });

  it("publishes the default tier and each tier's usage plan id for the ops CLI", () => {
    const output = template.findOutputs('RateTiers').RateTiers ?? {};
    expect(JSON.stringify(output.Value)).toMatch(/default.*standard.*plans.*standard/);
    expect(JSON.stringify(output.Value)).toContain('RateTierstandard');
  });

  it('answers INVALID_API_KEY with the 500, never a 403, and (detailed) alarms on it from the access log', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'INVALID_API_KEY',
      StatusCode: '500',
    });
    const detailed = detailedTemplate;
    detailed.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ $.error = "INVALID_API_KEY" }',
      LogGroupName: { Ref: Match.stringLikeRegexp('^AccessLogs') },
    });
    detailed.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('usage key is in no usage plan'),
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('gives the listing the tiers, so each 200 can state its RateLimit-Policy', () => {
    const variables = lambdaFunction(template, 'GET /vendor/vacancies').Environment.Variables;
    expect(JSON.parse(variables.RATE_TIERS)).toEqual({
      ...DEFAULT_SETTINGS.rateTiers,
      agent: { rate: 5, burst: 10 },
    });
  });

  it('adds no WAF web ACL unless wafRateLimit is set', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
  });

  it('refuses a default tier that is not a tier, and a tier faster than the stage', () => {
    const settings = (context: Record<string, unknown>) => () =>
      readSettings((key) => new App({ context }).node.tryGetContext(key));
    // The tiers it may be: a vendor's own, never the browser's or the agent's (which every deployment has).
    expect(settings({ defaultRateTier: 'gold' })).toThrow(
      'defaultRateTier = "gold" is not allowed: one of the rateTiers: standard.',
    );
    for (const tier of ['browser', 'agent'])
      expect(settings({ defaultRateTier: tier })).toThrow(
        `defaultRateTier = "${tier}" is not allowed: a tier of secret keys: "browser" is the tier of every vendor's publishable keys and "agent" that of its public agent endpoints, not a vendor's own tier.`,
      );
    expect(settings({ rateTiers: { fast: { rate: 60, burst: 20 } }, defaultRateTier: 'fast' })).toThrow(
      'no tier faster than the stage (throttlingRateLimit 50/s, throttlingBurstLimit 100); tier "fast" is 60/s, burst 20',
    );
  });
});

describe('a custom domain', () => {
  const CERTIFICATE =
    'arn:aws:acm:eu-central-1:123456789012:certificate/0b6e7c55-6f3c-4b7a-9d5e-1f2a3b4c5d6e';
  const DOMAIN = { domainName: 'api.example.az', certificateArn: CERTIFICATE };

  it('is not there without domainName: no domain, mapping, record or target; the stage URL is the API URL', () => {
    const template = defaults;
    for (const type of [
      'AWS::ApiGateway::DomainName',
      'AWS::ApiGateway::BasePathMapping',
      'AWS::Route53::RecordSet',
    ]) {
      template.resourceCountIs(type, 0);
    }
    expect(Object.keys(template.findOutputs('DomainTarget'))).toEqual([]);
    const stageUrl = template.findOutputs('StageUrl').StageUrl?.Value;
    expect(template.findOutputs('ApiUrl').ApiUrl?.Value).toEqual(stageUrl);
    expect(lambdaFunction(template, 'GET /vendor/vacancies').Environment.Variables).not.toHaveProperty(
      'PUBLIC_BASE_URL',
    );
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: false });
  });

  it('maps a regional TLS 1.2 domain to the stage, derives the links from it, and outputs where to point DNS', async () => {
    const template = await sharedStackTemplate({ ...DOMAIN, basePath: 'v1' });
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'api.example.az',
      RegionalCertificateArn: CERTIFICATE,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    template.hasResourceProperties('AWS::ApiGateway::BasePathMapping', {
      BasePath: 'v1',
      DomainName: { Ref: Match.stringLikeRegexp('^Domain') },
      RestApiId: { Ref: Match.stringLikeRegexp('^Api') },
      Stage: { Ref: Match.stringLikeRegexp('^ApiDeploymentStage') },
    });
    expect(lambdaFunction(template, 'GET /vendor/vacancies').Environment.Variables.PUBLIC_BASE_URL).toBe(
      'https://api.example.az/v1',
    );
    template.hasOutput('ApiUrl', { Value: 'https://api.example.az/v1/' });
    template.hasOutput('ListingUrl', { Value: 'https://api.example.az/v1/vendor/vacancies' });
    template.hasOutput('DomainTarget', {
      Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Domain'), 'RegionalDomainName'] },
    });
    template.hasOutput('DomainTargetHostedZoneId', {
      Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Domain'), 'RegionalHostedZoneId'] },
    });
    // No hosted zone given: the operator points the name in their own DNS.
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
    // The stage's own URL still works, and is an output of its own.
    template.hasOutput('StageUrl', {});
  });

  it('adds a Route 53 alias record with hostedZoneId, and makes the domain the only way in with disableExecuteApiEndpoint', async () => {
    const template = await sharedStackTemplate({
      ...DOMAIN,
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
      disableExecuteApiEndpoint: 'true',
    });
    template.hasResourceProperties('AWS::Route53::RecordSet', {
      HostedZoneId: 'Z0123456789ABCDEFGHIJ',
      Name: 'api.example.az',
      Type: 'A',
      AliasTarget: {
        DNSName: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Domain'), 'RegionalDomainName'] },
        HostedZoneId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Domain'), 'RegionalHostedZoneId'] },
      },
    });
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
    template.hasResourceProperties('AWS::ApiGateway::BasePathMapping', { BasePath: Match.absent() });
    template.hasOutput('ApiUrl', { Value: 'https://api.example.az/' });
    expect(Object.keys(template.findOutputs('StageUrl'))).toEqual([]);
  });

  it('leaves the links to publicBaseUrl when one is set (a domain managed elsewhere, behind CloudFront say)', async () => {
    const template = await sharedStackTemplate({ ...DOMAIN, publicBaseUrl: 'https://jobs.example.az' });
    expect(lambdaFunction(template, 'GET /vendor/vacancies').Environment.Variables.PUBLIC_BASE_URL).toBe(
      'https://jobs.example.az',
    );
  });

  it.each([
    [
      { domainName: 'api.example.az' },
      'domainName = "api.example.az" needs certificateArn: the ARN of an ACM certificate for that name, in the stack\'s region.',
    ],
    [
      { certificateArn: CERTIFICATE },
      'certificateArn is for a custom domain: give domainName too, or leave certificateArn out.',
    ],
    [{ basePath: 'v1' }, 'basePath is for a custom domain: give domainName too, or leave basePath out.'],
    [
      { disableExecuteApiEndpoint: 'true' },
      'disableExecuteApiEndpoint is for a custom domain: give domainName too, or leave disableExecuteApiEndpoint out.',
    ],
    [{ ...DOMAIN, domainName: 'API.example.az' }, 'domainName = "API.example.az" is not allowed'],
    [{ ...DOMAIN, basePath: 'v1/extra' }, 'basePath = "v1/extra" is not allowed'],
  ])('refuses %p in one line', (context, message) => {
    expect(() => stackTemplate(context)).toThrow(new SettingError(message).message);
  });

  it("refuses a certificate of another region than the stack's", () => {
    const elsewhere = CERTIFICATE.replace('eu-central-1', 'us-east-1');
    expect(() => stackTemplate({ ...DOMAIN, certificateArn: elsewhere })).toThrow(
      new SettingError(
        "certificateArn is in us-east-1, the stack in eu-central-1: a regional custom domain needs a certificate of the stack's region.",
      ),
    );
  });
});

describe('cdk-nag (AWS Solutions)', () => {
  const outdirs: string[] = [];
  afterAll(() => {
    for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
  });

  function synthWithChecks(
    addResources?: (stack: Stack) => void,
    context: Record<string, unknown> = {},
    env?: { account: string; region: string },
  ) {
    const outdir = mkdtempSync(join(tmpdir(), 'cdk-nag-'));
    outdirs.push(outdir);
    // No bundles (cdk-nag reads the template, not the code; `npm run synth` bundles, test/e2e/cdk/synth-cli.test.ts)
    // and no CloudFormation validation (the app's, run there too): each costs seconds of CPU a synth.
    const app = new App({
      outdir,
      context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] },
      builtinCloudFormationValidation: false,
    });
    const stack = new VacancyApiStack(app, 'Nag', {
      settings: readSettings((key) => app.node.tryGetContext(key)),
      ...(env && { env }),
    });
    addResources?.(stack);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    return () => app.synth();
  }

  it('finds nothing unacknowledged in the stack', () => {
    expect(synthWithChecks()).not.toThrow();
  });

  it('finds nothing unacknowledged in a stack on a custom domain, its endpoint disabled', () => {
    const context = {
      domainName: 'api.example.az',
      certificateArn:
        'arn:aws:acm:eu-central-1:123456789012:certificate/0b6e7c55-6f3c-4b7a-9d5e-1f2a3b4c5d6e',
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
      disableExecuteApiEndpoint: true,
    };
    expect(synthWithChecks(undefined, context)).not.toThrow();
  });

  it('finds nothing unacknowledged with an account and a region, as `cdk deploy` synthesizes (ARNs concrete)', () => {
    const env = { account: '123456789012', region: 'ap-southeast-2' };
    expect(synthWithChecks(undefined, {}, env)).not.toThrow();
  });

  it('would fail the synth on a finding nobody acknowledged', () => {
    // A queue that accepts plain-HTTP requests: AwsSolutions-SQS4, an error-level rule.
    const withFinding = synthWithChecks((stack) => {
      new sqs.Queue(stack, 'Unprotected');
    });
    expect(withFinding).toThrow(/AwsSolutions-SQS4/);
  });
});
