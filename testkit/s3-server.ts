/**
 * A real S3-compatible server for the inbox's tests and benchmark (`s3rver`, on a free loopback port, over a temporary folder) and
 * the S3 event of each object put under `incoming/`, in the shape S3 delivers to Lambda: s3rver emits the event, and
 * its key is encoded here as S3 encodes it (URL-encoded, spaces as `+`), which s3rver does not do.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';

const S3rver = createRequire(import.meta.url)('s3rver') as new (
  options: Record<string, unknown>,
) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  on(event: 'event', listener: (event: S3Event) => void): void;
};

/** A running server with one bucket. */
export interface TestS3 {
  readonly client: S3Client;
  readonly bucket: string;
  /** Each S3 event of an object created under `incoming/`, in order, as S3 would deliver it. */
  readonly events: S3Event[];
  put(key: string, body: string | Uint8Array): Promise<void>;
  /** An object's text; undefined when there is none. */
  text(key: string): Promise<string | undefined>;
  /** Every key, sorted. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

/** How S3 writes a key in an event: `encodeURIComponent`, but a space is `+` and a slash stays. */
export const s3EventKey = (key: string) =>
  key
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/%20/g, '+'))
    .join('/');

/** Starts a server with the bucket `inbox`. */
export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const bucket = 'inbox';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    vhostBuckets: false,
  });
  const { port } = await server.run();
  const events: S3Event[] = [];
  server.on('event', (event) => {
    for (const record of event.Records) {
      if (!record.eventName.startsWith('ObjectCreated:') || !record.s3.object.key.startsWith('incoming/'))
        continue;
      const s3 = { ...record.s3, object: { ...record.s3.object, key: s3EventKey(record.s3.object.key) } };
      events.push({ Records: [{ ...record, eventVersion: '2.1', s3 }] });
    }
  });
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    client,
    bucket,
    events,
    async put(key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.from(body) }));
    },
    async text(key) {
      try {
        const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await output.Body?.transformToString();
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async keys() {
      const output = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (output.Contents ?? []).map(({ Key }) => Key as string).sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
