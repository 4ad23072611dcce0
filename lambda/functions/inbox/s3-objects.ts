/**
 * The inbox's objects in an S3 bucket (`inbox.ts`). A move is a copy then a delete: S3 has no rename. An object
 * that is not there (another delivery of the same event moved it) is told apart from a failure by S3's own error
 * name, never by its message.
 */

import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { InboxObjects } from './inbox';

/** Whether S3 said the object (the source of a copy, too) is not there. */
function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

/** A key as `CopySource` takes it: each segment URL-encoded, the slashes kept. */
const copySource = (bucket: string, key: string) =>
  `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The objects of one bucket. `sequencer`, the S3 event's, tells one put of a key from another (the same for every
 * delivery of the same event); the bucket is not versioned, and the time an object was last modified is to the second.
 */
export function s3Objects(client: S3Client, bucket: string, sequencer = ''): InboxObjects {
  return {
    async open(key) {
      let output: GetObjectCommandOutput;
      try {
        output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      // In Node.js the body is a stream of the response: read as it arrives, never held whole.
      const body = output.Body as unknown as Readable | undefined;
      return {
        body: body ?? (async function* () {})(),
        version: `${sequencer} ${output.ETag ?? ''} ${output.LastModified?.toISOString() ?? ''}`,
        close: async () => {
          body?.destroy();
        },
      };
    },
    async write(key, body) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json' }),
      );
    },
    async move(from, to) {
      try {
        await client.send(
          new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: copySource(bucket, from) }),
        );
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from }));
      return true;
    },
  };
}

/**
 * The key of an S3 event record as S3 writes it: URL-encoded, spaces as `+` (a file named `my file.ndjson`
 * arrives as `my+file.ndjson`).
 */
export const eventKey = (encoded: string) => decodeURIComponent(encoded.replace(/\+/g, ' '));
