/**
 * The feeds' files in S3 through a real S3-compatible server (s3rver) and the real S3 client: a small file is two
 * objects, the XML and its gzip, with the headers CloudFront serves; a file past a part is a multipart upload of each
 * that reads back whole; a failed upload — of either object, or of the writer — leaves the last file served and tells
 * the writer; remove and keepOnly delete by the feed's prefix only.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newFeedToken } from '../../../../../lambda/domain/feed-registry/feed';
import { s3FeedFiles } from '../../../../../lambda/functions/feeds/s3-feed-files';
import { startTestS3, type TestS3 } from '../../../../../testkit/s3-server';

const PART = 5 * 1024 * 1024;
let s3: TestS3;

beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3.stop();
});

async function* chunksOf(bytes: Buffer, size = 64 * 1024) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('s3FeedFiles', () => {
  it('stores a small file as two objects, the XML and its gzip, with the headers CloudFront serves', async () => {
    const files = s3FeedFiles(s3.client, s3.bucket);
    const token = newFeedToken();
    const xml = '<?xml version="1.0" encoding="utf-8"?><source></source>';
    const stored = await files.put(token, 'indeed.xml', chunksOf(gzipSync(xml)), 1_780_000_000_123);
    expect(stored.builtAt).toBe(1_780_000_000_123);

    const head = await (s3.client as S3Client).send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: `feeds/${token}/indeed.xml.gz` }),
    );
    expect(head.ContentType).toBe('application/xml; charset=utf-8');
    expect(head.ContentEncoding).toBe('gzip');
    expect(head.CacheControl).toBe('public, max-age=60');
    expect(head.Metadata?.['built-at']).toBe('1780000000123');
    const plain = await (s3.client as S3Client).send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: `feeds/${token}/indeed.xml` }),
    );
    expect(plain.ContentType).toBe('application/xml; charset=utf-8');
    expect(plain.ContentEncoding).toBeUndefined();
    expect(plain.CacheControl).toBe('public, max-age=60');
    expect(plain.Metadata?.['built-at']).toBe('1780000000123');
    expect(await plain.Body?.transformToString()).toBe(xml);

    const file = await files.get(token, 'indeed.xml');
    expect(file).toBeDefined();
    expect(file?.builtAt).toBe(1_780_000_000_123);
    expect(file?.size).toBe(stored.size);
    expect(file?.etag).toBe(stored.etag);
    expect(gunzipSync(await read(file?.gzipped as Readable)).toString()).toBe(xml);
  });

  it('uploads a file larger than a part in parts, read back whole', async () => {
    const files = s3FeedFiles(s3.client, s3.bucket, PART);
    const token = newFeedToken();
    // Random bytes do not compress: 2.5 parts of XML and as much gzip, in the uneven chunks a gzip stream hands out.
    const xml = randomBytes(Math.floor(PART * 2.5));
    const bytes = gzipSync(xml);
    const stored = await files.put(token, 'sitemap.xml', chunksOf(bytes, 100_003), 1);
    expect(stored.size).toBe(bytes.length);
    const file = await files.get(token, 'sitemap.xml');
    expect(file?.size).toBe(bytes.length);
    expect((await read(file?.gzipped as Readable)).equals(bytes)).toBe(true);
    const plain = await (s3.client as S3Client).send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: `feeds/${token}/sitemap.xml` }),
    );
    expect(Buffer.from((await plain.Body?.transformToByteArray()) ?? []).equals(xml)).toBe(true);
  });

  it('uploads a file of exactly one part', async () => {
    const files = s3FeedFiles(s3.client, s3.bucket, PART);
    const token = newFeedToken();
    // Stored (level 0) gzip of random bytes: its length is the input's and a fixed overhead per block.
    const overhead = gzipSync(randomBytes(PART), { level: 0 }).length - PART;
    const bytes = gzipSync(randomBytes(PART - overhead), { level: 0 });
    expect(bytes.length).toBe(PART);
    await files.put(token, 'sitemap-1.xml', chunksOf(bytes), 1);
    expect((await read((await files.get(token, 'sitemap-1.xml'))?.gzipped as Readable)).equals(bytes)).toBe(
      true,
    );
  });

  it('keeps the last file when a put fails, and stops its source with the error', async () => {
    const files = s3FeedFiles(s3.client, s3.bucket, PART);
    const token = newFeedToken();
    await files.put(token, 'indeed.xml', chunksOf(gzipSync('old')), 1);
    const failing = Readable.from(
      (async function* () {
        yield gzipSync(randomBytes(PART + 10)).subarray(0, PART + 10);
        throw new Error('the writer failed');
      })(),
    );
    await expect(files.put(token, 'indeed.xml', failing, 2)).rejects.toThrow('the writer failed');
    const file = await files.get(token, 'indeed.xml');
    expect(file?.builtAt).toBe(1);
    expect(gunzipSync(await read(file?.gzipped as Readable)).toString()).toBe('old');

    // S3 failing mid-upload: the source is destroyed with S3's error.
    const broken = s3FeedFiles(
      {
        send: async (command: { constructor: { name: string } }) => {
          if (command.constructor.name === 'UploadPartCommand') throw new Error('S3 is down');
          return (s3.client as S3Client).send(command as never);
        },
      } as unknown as S3Client,
      s3.bucket,
      PART,
    );
    const source = Readable.from(chunksOf(gzipSync(randomBytes(PART * 3))));
    await expect(broken.put(token, 'indeed.xml', source, 3)).rejects.toThrow('S3 is down');
    expect(source.destroyed).toBe(true);
    expect((await files.get(token, 'indeed.xml'))?.builtAt).toBe(1);
    const plainOf = async () =>
      (
        await (s3.client as S3Client).send(
          new GetObjectCommand({ Bucket: s3.bucket, Key: `feeds/${token}/indeed.xml` }),
        )
      ).Body?.transformToString();
    expect(await plainOf()).toBe('old');

    // Bytes that are not gzip: the XML's object fails, the gzip's is aborted too, and the last file stays.
    await expect(files.put(token, 'indeed.xml', chunksOf(randomBytes(PART * 2)), 4)).rejects.toThrow();
    const kept = await files.get(token, 'indeed.xml');
    expect(kept?.builtAt).toBe(1);
    expect(gunzipSync(await read(kept?.gzipped as Readable)).toString()).toBe('old');
    expect(await plainOf()).toBe('old');
  });

  it('removes a feed, and keeps only what a build wrote, by its prefix alone', async () => {
    const files = s3FeedFiles(s3.client, s3.bucket);
    const [one, other] = [newFeedToken(), newFeedToken()];
    for (const name of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml'])
      await files.put(one, name, chunksOf(gzipSync(name)), 1);
    await files.put(other, 'indeed.xml', chunksOf(gzipSync('x')), 1);

    await files.keepOnly(one, ['sitemap.xml']);
    expect(await files.get(one, 'sitemap-1.xml')).toBeUndefined();
    expect(await files.get(one, 'sitemap.xml')).toBeDefined();

    await files.remove(one);
    await files.remove(one);
    expect((await s3.keys()).filter((key) => key.includes(one))).toEqual([]);
    expect(await files.get(other, 'indeed.xml')).toBeDefined();
  });

  it('refuses a token or name not of the patterns, and finds nothing by one', async () => {
    const files = s3FeedFiles(s3.client, s3.bucket);
    const token = newFeedToken();
    await expect(files.put(token, '../x.xml', chunksOf(Buffer.alloc(1)), 1)).rejects.toThrow();
    await expect(files.put('../../etc', 'indeed.xml', chunksOf(Buffer.alloc(1)), 1)).rejects.toThrow();
    expect(await files.get(token, 'other.xml')).toBeUndefined();
    expect(await files.get(token, 'indeed.xml')).toBeUndefined();
    await expect(files.remove('short')).rejects.toThrow();
    expect(() => s3FeedFiles(s3.client, s3.bucket, 1024)).toThrow();
  });
});
