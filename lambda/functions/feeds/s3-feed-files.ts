/**
 * A feed's files in S3 (docs/design.md#feeds): the `FeedFiles` of AWS — the feeds function builds into it, CloudFront
 * serves it, and `feed remove --stack` deletes through it. A file is two objects, one per encoding CloudFront serves
 * (its viewer-request function picks one by `Accept-Encoding`, `lib/stack/feed-requests.ts`): `feeds/<token>/<file>`,
 * the XML, and `feeds/<token>/<file>.gz`, the same gzipped with `Content-Encoding: gzip` — both
 * `Content-Type: application/xml; charset=utf-8`, a short `Cache-Control` (what CloudFront and a board may keep
 * without asking again) and the build's time in their metadata. A put streams the built gzip into both at once (the
 * XML unzipped on the way): an object that ends within one part is one PutObject, a larger one a multipart upload of
 * parts of `partBytes`, aborted on failure — either way S3 makes it appear whole when it is complete, so a reader gets
 * the old file or the new one. Tokens and names are checked against the record's patterns before a key is made.
 */
import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { FEED_FILE, FEED_TOKEN } from '../../domain/feed-registry/feed';
import type { FeedFiles, OpenFeedFile, StoredFeedFile } from '../../domain/feed-registry/feed-files';

/** Where every feed's files are, in the bucket: what CloudFront serves under `/feeds/`. */
export const FEED_OBJECTS_PREFIX = 'feeds/';

/** What the gzipped object of a file adds to the file's name: `indeed.xml.gz`. */
export const GZIPPED_SUFFIX = '.gz';

/** The headers every object is stored with, which S3 and CloudFront serve it with. */
export const FEED_OBJECT_HEADERS = {
  ContentType: 'application/xml; charset=utf-8',
  // What CloudFront (and a board) may serve without asking again: a minute, so that a build is served soon after it
  // is stored (a change reaches a feed within 15 minutes); asking again is answered 304 by the ETag.
  CacheControl: 'public, max-age=60',
} as const;

/** What the gzipped object adds to them. */
export const GZIPPED_OBJECT_HEADERS = { ...FEED_OBJECT_HEADERS, ContentEncoding: 'gzip' } as const;

/** The metadata key of a file's build time (ms): S3 serves it as `x-amz-meta-built-at`. */
const BUILT_AT = 'built-at';

/** S3's smallest part but the last (5 MiB); a part here is larger, so that a file of 100,000 jobs is few parts. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

const isToken = (token: string) => FEED_TOKEN.test(token);
const isFile = (file: string) => FEED_FILE.test(file);
const keyOf = (token: string, file: string) => `${FEED_OBJECTS_PREFIX}${token}/${file}`;
const gzippedKeyOf = (token: string, file: string) => `${keyOf(token, file)}${GZIPPED_SUFFIX}`;

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

  /**
   * Stores one object from a stream, never held whole: one PutObject when it ends within a part, else a multipart
   * upload, aborted (its parts not left to be billed) when the stream or S3 fails.
   */
  const upload = async (
    stored: Omit<PutObjectCommandInput, 'Bucket' | 'Body'> & { Key: string },
    body: AsyncIterable<Uint8Array>,
  ): Promise<{ etag: string; size: number }> => {
    const { Key } = stored;
    const parts = partsOf(body, partBytes);
    let uploadId: string | undefined;
    try {
      const completed: { PartNumber: number; ETag: string | undefined }[] = [];
      let size = 0;
      let last: Buffer | undefined;
      // A part is uploaded once the next one has begun, so a file that fits in one is one PutObject.
      for await (const part of parts) {
        if (last) {
          if (uploadId === undefined) {
            ({ UploadId: uploadId } = await client.send(
              new CreateMultipartUploadCommand({ Bucket: bucket, ...stored }),
            ));
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
      const lastPart = last ?? Buffer.alloc(0);
      if (uploadId === undefined) {
        const { ETag } = await client.send(
          new PutObjectCommand({ Bucket: bucket, ...stored, Body: lastPart }),
        );
        return { etag: ETag ?? '', size };
      }
      // The last part (it may be empty only when it is the first, which is never the case here).
      if (lastPart.length > 0) {
        const PartNumber = completed.length + 1;
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket: bucket, Key, UploadId: uploadId, PartNumber, Body: lastPart }),
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
      return { etag: ETag ?? '', size };
    } catch (error) {
      await parts.return(undefined);
      if (uploadId !== undefined) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw error;
    }
  };

  return {
    async put(token, file, gzipped, builtAt): Promise<StoredFeedFile> {
      if (!isToken(token) || !isFile(file)) throw new Error(`not a feed's file: ${token}/${file}`);
      const Metadata = { [BUILT_AT]: String(builtAt) };
      // One source, two streams: its gzip as it comes, and unzipped. `pipe` waits for the slower of the two.
      const source = gzipped instanceof Readable ? gzipped : Readable.from(gzipped);
      const asIs = new PassThrough();
      const xml = createGunzip();
      const stop = (error: Error) => {
        source.destroy(error);
        asIs.destroy(error);
        xml.destroy(error);
      };
      source.once('error', stop);
      source.pipe(asIs);
      source.pipe(xml);
      const uploads = await Promise.allSettled([
        upload({ Key: gzippedKeyOf(token, file), ...GZIPPED_OBJECT_HEADERS, Metadata }, asIs).catch(
          (error: Error) => {
            stop(error);
            throw error;
          },
        ),
        upload({ Key: keyOf(token, file), ...FEED_OBJECT_HEADERS, Metadata }, xml).catch((error: Error) => {
          stop(error);
          throw error;
        }),
      ]);
      const failed = uploads.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      const [zipped] = uploads as PromiseFulfilledResult<{ etag: string; size: number }>[];
      return { etag: zipped?.value.etag ?? '', builtAt, size: zipped?.value.size ?? 0 };
    },

    async get(token, file): Promise<OpenFeedFile | undefined> {
      if (!isToken(token) || !isFile(file)) return undefined;
      let output: GetObjectCommandOutput;
      try {
        output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: gzippedKeyOf(token, file) }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const builtAt = Number(output.Metadata?.[BUILT_AT] ?? output.LastModified?.getTime() ?? 0);
      return {
        // S3's own tag of the gzipped object, as CloudFront serves it (the XML's object has its own).
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
      const kept = new Set(files.flatMap((file) => [keyOf(token, file), gzippedKeyOf(token, file)]));
      await deleteAll((await keysOf(token)).filter((key) => !kept.has(key)));
    },
  };
}
