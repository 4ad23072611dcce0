import { Duration, type RemovalPolicy, aws_s3 as s3, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** What a private bucket is made with. */
export interface PrivateBucketProps {
  readonly removalPolicy: RemovalPolicy;
  /** Its own rules; the parts of a put killed midway are gone after a day in every bucket. */
  readonly lifecycleRules?: readonly s3.LifecycleRule[];
  /** Why it keeps no server access logs: who writes and reads it, and where that is recorded instead. */
  readonly whyNoAccessLogs: string;
}

/**
 * A bucket only the stack's own functions and services reach (the inbox's, the feeds'): encrypted, TLS only, no
 * public access, no ACLs, not versioned, and no server access logs — for the reason it is given.
 */
export function privateBucket(scope: Construct, id: string, props: PrivateBucketProps): s3.Bucket {
  const bucket = new s3.Bucket(scope, id, {
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    versioned: false,
    removalPolicy: props.removalPolicy,
    lifecycleRules: [
      ...(props.lifecycleRules ?? []),
      { abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
  });
  Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: props.whyNoAccessLogs });
  return bucket;
}
