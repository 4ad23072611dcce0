import {
  aws_cloudfront as cloudfront,
  Duration,
  aws_lambda_destinations as destinations,
  type aws_dynamodb as dynamodb,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_cloudfront_origins as origins,
  type RemovalPolicy,
  custom_resources as resources,
  Stack,
  type aws_s3 as s3,
  aws_scheduler as scheduler,
  type aws_sqs as sqs,
  Validations,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { FEED_NOT_FOUND_TEXT } from '../../lambda/domain/feed-registry/feed';
import { FEED_VARIABLES } from '../../lambda/domain/settings/environment';
import { FEED_OBJECTS_PREFIX } from '../../lambda/functions/feeds/s3-feed-files';
import { subscribeToChanges } from './change-stream';
import { deadLetterQueue } from './dead-letters';
import { feedRequestCode } from './feed-requests';
import { acknowledgeWildcardResources } from './nag';
import { privateBucket } from './private-bucket';

/** The object CloudFront answers with, as a 404, for a feed's path S3 has nothing at (an unknown token or file). */
const NOT_FOUND_KEY = 'errors/not-found';

/** What the feeds are built from. */
export interface FeedHostingProps {
  /** The feeds function (`lambda/functions/feeds/handler.ts`). */
  readonly function: lambda.Function;
  /** The vacancies table, whose stream wakes the function. */
  readonly vacancies: dynamodb.Table;
  /** The schedule group's name: unique in the account and region. */
  readonly scheduleGroupName: string;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The feeds on AWS (docs/design.md#feeds): a private bucket of their files — S3-managed encryption, TLS only, no public
 * access, not versioned (each build replaces a file whole, and the table rebuilds any of them: versions would only
 * keep every build) — behind a CloudFront distribution that alone may read it (Origin Access Control), GET and HEAD
 * only, serving the files as stored, each in the encoding the client takes (a viewer-request function picks the
 * object, `feed-requests.ts`; CloudFront's own compression off, `Vary: Accept-Encoding` added) and §15's 404 for
 * anything else: the function's own for a path that is no feed's, and S3's refusal of a missing object (403: the
 * distribution may not list the bucket) turned into that 404, the same bytes, from one object the deployment puts
 * there. The feeds function is woken by the
 * vacancies table's stream (filtered as the webhooks' is) and schedules each changed vendor's build as a one-time
 * schedule in a group of its own, run by a role that may invoke this one function; a build that fails is retried
 * twice by Lambda, then kept in a queue. An idle vendor has no stream record, hence no invocation, no read.
 */
export class FeedHosting extends Construct {
  public readonly bucket: s3.Bucket;
  public readonly distribution: cloudfront.Distribution;
  public readonly deadLetters: sqs.Queue;
  /** The base of the feeds' URLs: `https://<the distribution's domain>`. */
  public readonly baseUrl: string;

  constructor(scope: Construct, id: string, props: FeedHostingProps) {
    super(scope, id);
    const fn = props.function;
    const stack = Stack.of(this);

    // A put killed midway leaves its parts, gone after a day: the file before it is still served.
    this.bucket = privateBucket(this, 'Bucket', {
      removalPolicy: props.removalPolicy,
      whyNoAccessLogs:
        "Only the feeds function writes the bucket and only CloudFront reads it: each build is a log line of the function, and CloudFront's metrics count the reads.",
    });

    const requests = new cloudfront.Function(this, 'Requests', {
      comment: "Vendor Vacancy API: a feed's object in the client's encoding, or the feeds' 404",
      code: cloudfront.FunctionCode.fromInline(feedRequestCode()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Vendor Vacancy API: the feeds for job boards and search engines',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ],
        }),
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Stored in both encodings, served as stored: the function picks the object by the client's Accept-Encoding
        // (the URI it rewrites is the cache key, so each encoding is cached on its own).
        compress: false,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        functionAssociations: [
          { function: requests, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
          comment: "Vendor Vacancy API: a feed's answer depends on the client's Accept-Encoding",
          customHeadersBehavior: {
            customHeaders: [{ header: 'Vary', value: 'Accept-Encoding', override: true }],
          },
        }),
      },
      // A missing object (S3 says 403 to a reader that may not list) is §15's 404, one body whatever the path.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 404,
        responsePagePath: `/${NOT_FOUND_KEY}`,
        ttl: Duration.seconds(10),
      })),
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    // The 404's one object, put at deployment by one SDK call, the only object its handler may write.
    const notFound = new resources.AwsCustomResource(this, 'NotFound', {
      onUpdate: {
        service: 'S3',
        action: 'putObject',
        parameters: {
          Bucket: this.bucket.bucketName,
          Key: NOT_FOUND_KEY,
          Body: FEED_NOT_FOUND_TEXT,
          ContentType: 'text/plain; charset=utf-8',
          CacheControl: 'no-cache',
        },
        physicalResourceId: resources.PhysicalResourceId.of(NOT_FOUND_KEY),
      },
      policy: resources.AwsCustomResourcePolicy.fromStatements([
        new iam.PolicyStatement({
          actions: ['s3:PutObject'],
          resources: [this.bucket.arnForObjects(NOT_FOUND_KEY)],
        }),
      ]),
      installLatestAwsSdk: false,
    });
    // CDK's handler of such calls (one per stack, run at deployment) only writes its logs besides that object.
    const provider = stack.node.tryFindChild(
      `AWS${resources.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`,
    );
    if (provider) {
      Validations.of(provider).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's handler of the call that puts the feeds' 404 object (a custom resource run at deployment) writes its logs with the basic execution role; the stack does not build it.",
      });
    }
    notFound.node.addDependency(this.bucket);
    this.baseUrl = `https://${this.distribution.distributionDomainName}`;
    const distributionFindings: [string, string][] = [
      [
        'AwsSolutions-CFR1',
        'A feed is public by design (job boards and search engines anywhere fetch it): no country is refused.',
      ],
      [
        'AwsSolutions-CFR2',
        'The distribution serves static files, GET and HEAD only, cached: AWS WAF would cost more every month than every fetch of them.',
      ],
      [
        'AwsSolutions-CFR3',
        "CloudFront's metrics count the fetches; access logs of unlisted public files would be a cost with no reader.",
      ],
      [
        'AwsSolutions-CFR4',
        "The distribution's own domain (*.cloudfront.net) has CloudFront's default certificate, whose minimum protocol version cannot be set; a custom domain for the feeds sets it (docs/operating.md#feeds).",
      ],
    ];
    for (const [findingId, reason] of distributionFindings)
      Validations.of(this.distribution).acknowledge({ id: findingId, reason });

    // Exactly the feeds' objects: put (a multipart upload, and its abort), delete, and list them by their prefix.
    const objects = this.bucket.arnForObjects(`${FEED_OBJECTS_PREFIX}*`);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'],
        resources: [objects],
      }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${FEED_OBJECTS_PREFIX}*`] } },
      }),
    );
    acknowledgeWildcardResources(
      fn,
      [objects],
      "A feed's files are named by its random token, made at run time: the feeds' folder is the narrowest resource.",
    );

    this.deadLetters = deadLetterQueue(this, 'DeadLetters', "the feeds' stream and builds");
    // A build is minutes away: a longer wait makes fewer runs of a busy import, each with more vendors.
    subscribeToChanges(fn, props.vacancies, this.deadLetters, Duration.seconds(5));
    // A build that fails (an error, its timeout, its machine gone) is retried by Lambda, a minute and then two later;
    // what still fails is kept in the queue. Builds are idempotent: a retry writes what the tables hold then.
    new lambda.EventInvokeConfig(this, 'Builds', {
      function: fn,
      retryAttempts: 2,
      maxEventAge: Duration.hours(1),
      onFailure: new destinations.SqsDestination(this.deadLetters),
    });

    const group = new scheduler.CfnScheduleGroup(this, 'Schedules', { name: props.scheduleGroupName });
    const role = new iam.Role(this, 'SchedulerRole', {
      description: 'Vendor Vacancy API: lets EventBridge Scheduler wake the feeds function, nothing else',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    });
    role.addToPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
    );
    // The function makes its builds' schedules in its group, and hands them that role; they delete themselves.
    const schedules = stack.formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${props.scheduleGroupName}/*`,
    });
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['scheduler:CreateSchedule'], resources: [schedules] }),
    );
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: [role.roleArn] }));
    acknowledgeWildcardResources(
      fn,
      [schedules],
      "The function names each build's schedule at run time (by vendor and window): it may create them in its own group only.",
    );
    fn.node.addDependency(group);

    fn.addEnvironment(FEED_VARIABLES.bucket, this.bucket.bucketName);
    fn.addEnvironment(FEED_VARIABLES.base, this.baseUrl);
    fn.addEnvironment(FEED_VARIABLES.scheduleGroup, props.scheduleGroupName);
    fn.addEnvironment(FEED_VARIABLES.roleArn, role.roleArn);
  }
}
