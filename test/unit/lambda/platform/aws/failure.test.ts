/**
 * What `awsFailure` makes of the errors the AWS SDK really raises: a DynamoDB client calls a small HTTP server that
 * answers each shape — DynamoDB's own errors, an HTML page, a body that is not JSON or is cut short, a 5xx without
 * an error type — or does not answer at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UnavailableError } from '../../../../../lambda/platform/aws/errors';
import { type AwsFailure, awsFailure } from '../../../../../lambda/platform/aws/failure';

type Answer = (response: ServerResponse) => void;

const AWS_JSON = 'application/x-amz-json-1.0';
const typed =
  (status: number, type: string): Answer =>
  (response) => {
    response.writeHead(status, { 'Content-Type': AWS_JSON });
    response.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: 'detail' }));
  };
const raw =
  (status: number, contentType: string, body: string): Answer =>
  (response) => {
    response.writeHead(status, { 'Content-Type': contentType });
    response.end(body);
  };

const CASES: [string, Answer, AwsFailure][] = [
  ['a failed condition', typed(400, 'ConditionalCheckFailedException'), 'condition-failed'],
  ['throttling', typed(400, 'ProvisionedThroughputExceededException'), 'unavailable'],
  ['a server error', typed(500, 'InternalServerError'), 'unavailable'],
  ['a missing table', typed(400, 'ResourceNotFoundException'), 'not-found'],
  ['credentials that may not', typed(400, 'AccessDeniedException'), 'denied'],
  ['an unknown key id', typed(400, 'UnrecognizedClientException'), 'denied'],
  ['a request DynamoDB refuses', typed(400, 'ValidationException'), 'refused'],
  ['an HTML 502 page', raw(502, 'text/html', '<html><body>Bad Gateway</body></html>'), 'unavailable'],
  ['an HTML 503 page', raw(503, 'text/html', '<html>unavailable</html>'), 'unavailable'],
  ["a proxy's HTML 403 page", raw(403, 'text/html', '<html>forbidden</html>'), 'unavailable'],
  ['a 200 that is not JSON', raw(200, AWS_JSON, 'this is not json'), 'unavailable'],
  ['a 200 cut short', raw(200, AWS_JSON, '{"Item":{"id":{"N":"1"}},"Consu'), 'unavailable'],
  ['a 504 without an error type', raw(504, 'application/json', '{"message":"timeout"}'), 'unavailable'],
  ['an empty 500', raw(500, 'text/plain', ''), 'unavailable'],
  ['a 400 without an error type', raw(400, 'application/json', '{"message":"weird"}'), 'unavailable'],
  [
    'a body shorter than its length',
    (response) => {
      response.writeHead(200, { 'Content-Type': AWS_JSON, 'Content-Length': '100' });
      response.write('{"Item":');
      setTimeout(() => response.socket?.destroy(), 20);
    },
    'unavailable',
  ],
  ['no answer in time', () => undefined, 'unavailable'],
];

describe('awsFailure, on what the SDK raises', () => {
  let server: Server;
  let endpoint: string;
  let answer: Answer = typed(400, 'ValidationException');

  const client = (options: { endpoint?: string } = {}) =>
    new DynamoDBClient({
      endpoint: options.endpoint ?? endpoint,
      region: 'local',
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts: 1,
      requestHandler: { requestTimeout: 300, throwOnRequestTimeout: true },
    });
  const failureOf = async (dynamodb: DynamoDBClient, signal?: AbortSignal) => {
    try {
      await dynamodb.send(
        new GetItemCommand({ TableName: 't', Key: { id: { N: '1' } } }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (error) {
      return error;
    } finally {
      dynamodb.destroy();
    }
    throw new Error('The call succeeded');
  };

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      request.on('end', () => answer(response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(CASES)('classifies %s', async (_case, given, expected) => {
    answer = given;
    expect(awsFailure(await failureOf(client()))).toBe(expected);
  });

  it('classifies a refused connection, an aborted call and our own bounded retries as unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(awsFailure(await failureOf(client({ endpoint: `http://127.0.0.1:${port}` })))).toBe('unavailable');

    answer = () => undefined;
    expect(awsFailure(await failureOf(client(), AbortSignal.timeout(20)))).toBe('unavailable');
    expect(awsFailure(new UnavailableError('BatchGetItem left keys unprocessed'))).toBe('unavailable');
  });

  it('calls anything else unexpected, whatever its message says', () => {
    for (const error of [
      new TypeError('Service Unavailable'),
      new Error('ThrottlingException'),
      'a string',
      undefined,
    ]) {
      expect(awsFailure(error)).toBe('unexpected');
    }
  });
});
