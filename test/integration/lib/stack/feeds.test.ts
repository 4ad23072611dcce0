/**
 * The feeds on AWS (`lib/stack/feeds.ts`), read off the synthesized stack: a private bucket only CloudFront's Origin
 * Access Control may read, a distribution of GET and HEAD serving the files as stored — each in the encoding asked for,
 * by the function whose code `feed-requests.property.test.ts` proves, and §15's one 404 from the object the deployment
 * puts, by a handler that may put only that object — the feeds function woken by the
 * filtered stream and by its own group's schedules, its builds retried then kept, its permissions exactly the feeds'
 * objects, and the outputs the ops CLI reads.
 */
import { describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { FEED_NOT_FOUND_TEXT } from '../../../../lambda/domain/feed-registry/feed';
import { STACK_OUTPUTS } from '../../../../lib/deployment/stack-outputs';
import { feedRequestCode } from '../../../../lib/stack/feed-requests';
import { changeWritesMapping, PRIVATE_BUCKET, templateResources } from '../../../../testkit/stack';
import { sharedStackTemplate } from '../../../../testkit/synth-server';

const template = await sharedStackTemplate();
const { ofType, logicalIdOf } = templateResources(template);
const bucketId = logicalIdOf('AWS::S3::Bucket', 'FeedsBucket');
const distributionId = logicalIdOf('AWS::CloudFront::Distribution', 'FeedsDistribution');
const functionId = logicalIdOf('AWS::Lambda::Function', 'FunctionsFeedsFunction');
const roleId = logicalIdOf('AWS::IAM::Role', 'FunctionsFeedsRole');

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown; Principal?: unknown };

/** Every statement of the feeds function's role, its default policy and the function's own. */
const functionStatements = () =>
  ofType('AWS::IAM::Policy')
    .filter(([, policy]) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap(
      ([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement ?? [],
    );

describe('the feeds', () => {
  it('keep their files in a private bucket: encrypted, TLS only, no public access, not versioned, parts aborted', () => {
    const [, bucket] = ofType('AWS::S3::Bucket').find(([id]) => id === bucketId) ?? [];
    expect(bucket?.Properties).toMatchObject({
      ...PRIVATE_BUCKET,
      LifecycleConfiguration: {
        Rules: [{ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }],
      },
    });
    expect(bucket?.Properties.VersioningConfiguration).toBeUndefined();
  });

  it("lets only this distribution's Origin Access Control read the bucket, and nobody without TLS", () => {
    const [[, policy] = []] = ofType('AWS::S3::BucketPolicy').filter(
      ([, resource]) => JSON.stringify(resource.Properties.Bucket) === JSON.stringify({ Ref: bucketId }),
    );
    if (!policy) throw new Error('no policy of the feeds bucket');
    const statements = (policy.Properties.PolicyDocument as { Statement: (Statement & { Effect: string })[] })
      .Statement;
    const allowed = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allowed).toEqual([
      expect.objectContaining({
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': ['', expect.arrayContaining([':distribution/', { Ref: distributionId }])],
            },
          },
        },
      }),
    ]);
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
  });

  it('serve GET and HEAD through CloudFront over HTTPS, as stored (no compression of their own)', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        DefaultCacheBehavior: {
          AllowedMethods: ['GET', 'HEAD'],
          Compress: false,
          ViewerProtocolPolicy: 'redirect-to-https',
        },
        Origins: [
          Match.objectLike({
            DomainName: { 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] },
            OriginAccessControlId: Match.anyValue(),
          }),
        ],
      },
    });
  });

  it('pick the encoding by a viewer-request function, say so by Vary, and answer a missing object with one 404', () => {
    const [[functionLogicalId]] = ofType('AWS::CloudFront::Function') as [[string, unknown]];
    template.hasResourceProperties('AWS::CloudFront::Function', {
      AutoPublish: true,
      FunctionCode: feedRequestCode(),
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        CustomHeadersConfig: { Items: [{ Header: 'Vary', Value: 'Accept-Encoding', Override: true }] },
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          FunctionAssociations: [
            {
              EventType: 'viewer-request',
              FunctionARN: { 'Fn::GetAtt': [functionLogicalId, 'FunctionARN'] },
            },
          ],
          ResponseHeadersPolicyId: Match.anyValue(),
        }),
        CustomErrorResponses: [403, 404].map((ErrorCode) => ({
          ErrorCode,
          ResponseCode: 404,
          ResponsePagePath: '/errors/not-found',
          ErrorCachingMinTTL: 10,
        })),
      }),
    });
    // The object, put at deployment; the handler's policy names that object alone.
    const [[, notFound]] = ofType('Custom::AWS') as unknown as [
      [string, { Properties: { Update: { 'Fn::Join': [string, unknown[]] } } }],
    ];
    // The call as its handler reads it, the bucket's name standing for its reference.
    const [, pieces] = notFound.Properties.Update['Fn::Join'];
    const call = JSON.parse(
      pieces
        .map((piece) => (typeof piece === 'string' ? piece : JSON.stringify(piece).replace(/"/g, '')))
        .join(''),
    );
    expect(call).toEqual({
      service: 'S3',
      action: 'putObject',
      parameters: {
        Bucket: `{Ref:${bucketId}}`,
        Key: 'errors/not-found',
        Body: FEED_NOT_FOUND_TEXT,
        ContentType: 'text/plain; charset=utf-8',
        CacheControl: 'no-cache',
      },
      physicalResourceId: { id: 'errors/not-found' },
    });
    const policies = ofType('AWS::IAM::Policy').filter(([id]) => id.startsWith('FeedsNotFound'));
    expect(policies).toHaveLength(1);
    expect(policies[0]?.[1].Properties.PolicyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Action: 's3:PutObject',
          Effect: 'Allow',
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/errors/not-found']] },
        },
      ],
    });
  });

  it("are built by a function woken by the vacancies table's stream, filtered to change writes, and its own schedules", () => {
    template.hasResourceProperties(
      'AWS::Lambda::EventSourceMapping',
      changeWritesMapping({ Ref: functionId }),
    );
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'VendorVacancyApi-feeds' });
    // A failed build is retried twice by Lambda, then kept in the dead-letter queue.
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId },
      MaximumRetryAttempts: 2,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FeedsDeadLetters'), 'Arn'] } },
      },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 1024,
      Timeout: 300,
      Environment: {
        Variables: Match.objectLike({
          FEED_BUCKET: { Ref: bucketId },
          FEED_SCHEDULE_GROUP: 'VendorVacancyApi-feeds',
          FEED_BASE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] },
        }),
      },
    });
  });

  it("may write only the feeds' objects, create schedules only in its group, and read and record no more than a build needs", () => {
    const statements = functionStatements();
    const s3 = statements.filter((statement) => [statement.Action].flat().some((a) => a.startsWith('s3:')));
    expect(s3).toEqual([
      expect.objectContaining({
        Action: ['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:PutObject'],
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/feeds/*']] },
      }),
      expect.objectContaining({
        Action: 's3:ListBucket',
        Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] },
        Condition: { StringLike: { 's3:prefix': ['feeds/*'] } },
      }),
    ]);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: 'scheduler:CreateSchedule',
        Resource: 'arn:aws:scheduler:eu-central-1:123456789012:schedule/VendorVacancyApi-feeds/*',
      }),
    );
    const dynamodb = statements
      .filter((statement) => [statement.Action].flat().some((a) => a.startsWith('dynamodb:')))
      .map((statement) => [statement.Action, statement.Condition ?? null]);
    expect(dynamodb).toEqual([
      ['dynamodb:Query', null],
      ['dynamodb:BatchGetItem', null],
      ['dynamodb:GetItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['vendor#*', 'feed#*'] } }],
      ['dynamodb:UpdateItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['feed#*'] } }],
      ['dynamodb:ListStreams', null],
      [['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'], null],
    ]);
  });

  it('output their base URL and their bucket for the ops CLI', () => {
    template.hasOutput(STACK_OUTPUTS.feedBaseUrl, {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] },
    });
    template.hasOutput(STACK_OUTPUTS.feedBucket, { Value: { Ref: bucketId } });
  });
});
