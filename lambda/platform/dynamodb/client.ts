/**
 * The DynamoDB client the functions and the tools make: where DynamoDB is (AWS, or a local engine, signed with
 * dummy credentials), how many attempts a call gets and in which retry mode, and the time limits of one attempt.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** How to reach DynamoDB. */
export interface DynamoDBConnection {
  /** A non-AWS endpoint (the embedded engine, DynamoDB Local); AWS itself when absent. */
  readonly endpoint?: string | undefined;
  /** Attempts per call, including the first (the SDK retries throttling and 5xx with backoff). */
  readonly maxAttempts?: number;
  /** AWS region; the SDK's default chain (AWS_REGION, profile) when absent. */
  readonly region?: string | undefined;
  /**
   * `adaptive` adds client-side rate limiting to the retries: for bulk writers (the import), which should slow
   * down rather than fail when DynamoDB throttles. Default `standard`.
   */
  readonly retryMode?: 'standard' | 'adaptive';
  /** Limits of one attempt: to open a connection, and of silence on it once open. */
  readonly connectionTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** Added to the requests' user agent: tells this client's writes apart (a local process's, say). */
  readonly customUserAgent?: string;
}

/**
 * A DynamoDB client for the given connection. Against a local endpoint it signs with fixed dummy
 * credentials, so nothing probes the AWS credential chain (and no real credentials are sent to it).
 */
export function createDynamoDBClient(connection: DynamoDBConnection = {}): DynamoDBClient {
  const { endpoint, maxAttempts = 3, region, retryMode } = connection;
  return new DynamoDBClient({
    maxAttempts,
    ...(retryMode && { retryMode }),
    ...(connection.customUserAgent && { customUserAgent: connection.customUserAgent }),
    ...(region && { region }),
    // A stuck attempt must fail, and be retried, within the function's budget (FUNCTION_LIMITS). Without
    // `throwOnRequestTimeout` the SDK would only log a warning when an attempt runs past its timeout.
    requestHandler: {
      connectionTimeout: connection.connectionTimeoutMs ?? 1_000,
      requestTimeout: connection.requestTimeoutMs ?? 3_000,
      throwOnRequestTimeout: true,
    },
    ...(endpoint && {
      endpoint,
      region: process.env.AWS_REGION ?? 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
}
