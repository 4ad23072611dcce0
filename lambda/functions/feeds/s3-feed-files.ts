/**
 * A feed's files in S3 (docs/design.md#feeds): the `FeedFiles` of AWS — the feeds function builds into it, CloudFront
 * serves it, and `feed remove --stack` deletes through it. A file is the object `feeds/<token>/<file>`, stored as
 * built: gzipped, with `Content-Encoding: gzip`, `Content-Type: application/xml; charset=utf-8`, a short
 * `Cache-Control` (what CloudFront and a board may keep without asking again) and the build's time in its metadata.
 * A put streams: a file that ends within one part is one PutObject, a larger one a multipart upload of parts of
 * `partBytes`, aborted on failure — either way S3 makes the object appear whole when it is complete, so a reader gets
 * the old file or the new one. Tokens and names are checked against the record's patterns before a key is made.
 */
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { FEED_FILE, FEED_TOKEN } from '../../domain/feed-registry/feed';
import type { FeedFiles, OpenFeedFile, StoredFeedFile } from '../../domain/feed-registry/feed-files';

/** Where every feed's files are, in the bucket: what CloudFront serves under `/feeds/`. */
export const FEED_OBJECTS_PREFIX = 'feeds/';

/** The headers every file is stored with, which S3 and CloudFront serve it with. */
export const FEED_OBJECT_HEADERS = {
  ContentType: 'application/xml; charset=utf-8',
  ContentEncoding: 'gzip',
  // What CloudFront (and a board) may serve without asking again: a minute, so that a build is served soon after it
  // is stored (a change reaches a feed within 15 minutes); asking again is answered 304 by the ETag.
  CacheControl: 'public, max-age=60',
} as const;

/** The metadata key of a file's build time (ms): S3 serves it as `x-amz-meta-built-at`. */
const BUILT_AT = 'built-at';

/** S3's smallest part but the last (5 MiB); a part here is larger, so that a file of 100,000 jobs is few parts. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

const isToken = (token: string) => FEED_TOKEN.test(token);
const isFile = (file: string) => FEED_FILE.test(file);
const keyOf = (token: string, file: string) => `${FEED_OBJECTS_PREFIX}${token}/${file}`;

/** Whether S3 said the object is not there. */
function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

/** The parts of a stream of bytes, each `partBytes` long but the last, which may be shorter (or empty). */
async function* partsOf(source: AsyncIterable<Uint8Array>, partBytes: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (size + rest.length >= partBytes) {
      const take = partBytes - size;
      chunks.push(rest.subarray(0, take));
      yield Buffer.concat(chunks);
      chunks = [];
      size = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      // Copied: a stream may reuse the memory of a chunk it has handed out.
      chunks.push(Buffer.from(rest));
      size += rest.length;
    }
  }
  yield Buffer.concat(chunks);
}

/** The feed files kept in `bucket`; `partBytes` (at least S3's 5 MiB) only for a test's sake. */
export function s3FeedFiles(
  client: Pick<S3Client, 'send'>,
  bucket: string,
  partBytes: number = DEFAULT_PART_BYTES,
): FeedFiles {
  if (partBytes < MIN_PART_BYTES) throw new Error(`a part of ${partBytes} bytes is below S3's 5 MiB`);

  const keysOf = async (token: string): Promise<string[]> => {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: keyOf(token, ''), ContinuationToken }),
      );
      for (const { Key } of page.Contents ?? []) if (Key) keys.push(Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  };
  const deleteAll = (keys: readonly string[]) =>
    Promise.all(keys.map((Key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))));

  return {
    async put(token, file, gzipped, builtAt): Promise<StoredFeedFile> {
      if (!isToken(token) || !isFile(file)) throw new Error(`not a feed's file: ${token}/${file}`);
      const Key = keyOf(token, file);
      const stored = {
        Bucket: bucket,
        Key,
        ...FEED_OBJECT_HEADERS,
        Metadata: { [BUILT_AT]: String(builtAt) },
      };
      const parts = partsOf(gzipped, partBytes);
      let uploadId: string | undefined;
      try {
        const completed: { PartNumber: number; ETag: string | undefined }[] = [];
        let size = 0;
        let last: Buffer | undefined;
        // A part is uploaded once the next one has begun, so a file that fits in one is one PutObject.
        for await (const part of parts) {
          if (last) {
            if (uploadId === undefined) {
              ({ UploadId: uploadId } = await client.send(new CreateMultipartUploadCommand(stored)));
            }
            const PartNumber = completed.length + 1;
            const { ETag } = await client.send(
              new UploadPartCommand({ Bucket: bucket, Key, UploadId: uploadId, PartNumber, Body: last }),
            );
            completed.push({ PartNumber, ETag });
          }
          size += part.length;
          last = part;
        }
        const body = last ?? Buffer.alloc(0);
        if (uploadId === undefined) {
          const { ETag } = await client.send(new PutObjectCommand({ ...stored, Body: body }));
          return { etag: ETag ?? '', builtAt, size };
        }
        // The last part (it may be empty only when it is the first, which is never the case here).
        if (body.length > 0) {
          const PartNumber = completed.length + 1;
          const { ETag } = await client.send(
            new UploadPartCommand({ Bucket: bucket, Key, UploadId: uploadId, PartNumber, Body: body }),
          );
          completed.push({ PartNumber, ETag });
        }
        const { ETag } = await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key,
            UploadId: uploadId,
            MultipartUpload: { Parts: completed },
          }),
        );
        return { etag: ETag ?? '', builtAt, size };
      } catch (error) {
        // Stop the source with the error, so that a writer waiting to write more is told rather than left waiting;
        // and leave no parts behind to be billed (the bucket's lifecycle aborts what a killed upload left, after a day).
        const source = gzipped as Partial<Pick<Readable, 'destroy'>>;
        if (typeof source.destroy === 'function') source.destroy(error as Error);
        await parts.return(undefined);
        if (uploadId !== undefined) {
          await client
            .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId: uploadId }))
            .catch(() => undefined);
        }
        throw error;
      }
    },

    async get(token, file): Promise<OpenFeedFile | undefined> {
      if (!isToken(token) || !isFile(file)) return undefined;
      let output: GetObjectCommandOutput;
      try {
        output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(token, file) }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const builtAt = Number(output.Metadata?.[BUILT_AT] ?? output.LastModified?.getTime() ?? 0);
      return {
        // S3's own tag, as CloudFront serves it: strong, since the gzipped bytes are the only ones served.
        etag: output.ETag ?? '',
        builtAt,
        size: output.ContentLength ?? 0,
        // In Node.js the body is a stream of the response: read as it arrives, never held whole.
        gzipped: output.Body as unknown as Readable,
      };
    },

    async remove(token) {
      if (!isToken(token)) throw new Error(`not a feed's token: ${token}`);
      await deleteAll(await keysOf(token));
    },

    async keepOnly(token, files) {
      if (!isToken(token)) throw new Error(`not a feed's token: ${token}`);
      const kept = new Set(files.map((file) => keyOf(token, file)));
      await deleteAll((await keysOf(token)).filter((key) => !kept.has(key)));
    },
  };
}
