/**
 * The feeds' files in a folder (docs/design.md#feeds): a file put is got back as stored, with its build's time; a
 * put replaces a file at once (a reader already reading finishes the old one); a put that fails leaves nothing
 * served; remove deletes a feed's files; a token or name not of the patterns never becomes a path.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newFeedToken } from '../../../lambda/domain/feed-registry/feed';
import type { FeedFiles } from '../../../lambda/domain/feed-registry/feed-files';
import { folderFeedFiles, removePartialFiles } from '../../../lib/feed-folder';

const xml = (title: string) =>
  gzipSync(
    `<?xml version="1.0" encoding="utf-8"?>\n<source><job><title><![CDATA[${title}]]></title></job></source>\n`,
  );
const bytesOf = async (file: { gzipped: Readable } | undefined) => {
  const chunks: Buffer[] = [];
  for await (const chunk of file?.gzipped ?? []) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('feed files in a folder', () => {
  let folder: string;
  let files: FeedFiles;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'feed-folder-'));
    files = folderFeedFiles(join(folder, 'feeds'));
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it('gets a file back as it was put, gzipped, with the time of its build', async () => {
    const token = newFeedToken();
    const body = xml('Dispatcher');
    const builtAt = Date.UTC(2026, 10, 24, 10, 15, 31, 123);
    const stored = await files.put(token, 'indeed.xml', Readable.from([body]), builtAt);
    expect(stored).toEqual({
      etag: expect.stringMatching(/^W\/"[0-9a-z]+-[0-9a-z]+"$/),
      builtAt,
      size: body.length,
    });
    expect(await readFile(join(folder, 'feeds', token, 'indeed.xml.gz'))).toEqual(body);

    const got = await files.get(token, 'indeed.xml');
    expect(got && { etag: got.etag, builtAt: got.builtAt, size: got.size }).toEqual(stored);
    expect(await bytesOf(got)).toEqual(body);
    expect(await files.get(token, 'sitemap.xml')).toBeUndefined();
    expect(await files.get(newFeedToken(), 'indeed.xml')).toBeUndefined();
  });

  it('replaces a file at once: a reader already reading finishes the old one, the next gets the new', async () => {
    const token = newFeedToken();
    const first = await files.put(token, 'sitemap.xml', Readable.from([xml('old')]), 1_000_000);
    const reading = await files.get(token, 'sitemap.xml');
    const second = await files.put(token, 'sitemap.xml', Readable.from([xml('new')]), 2_000_000);
    expect(second.etag).not.toBe(first.etag);
    expect(reading?.etag).toBe(first.etag);
    expect(await bytesOf(reading)).toEqual(xml('old'));
    const next = await files.get(token, 'sitemap.xml');
    expect(next?.etag).toBe(second.etag);
    expect(await bytesOf(next)).toEqual(xml('new'));
  });

  it('leaves the file it had, and nothing half written, when a put fails midway', async () => {
    const token = newFeedToken();
    await files.put(token, 'indeed.xml', Readable.from([xml('kept')]), 1_000_000);
    const failing = (async function* () {
      yield xml('half').subarray(0, 10);
      throw new Error('the build died');
    })();
    await expect(files.put(token, 'indeed.xml', failing, 2_000_000)).rejects.toThrow('the build died');
    expect(await bytesOf(await files.get(token, 'indeed.xml'))).toEqual(xml('kept'));
    expect(await readdir(join(folder, 'feeds', token))).toEqual(['indeed.xml.gz']);
  });

  it("keeps a sitemap index's parts beside it, and removes every file of a feed", async () => {
    const token = newFeedToken();
    for (const name of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml'])
      await files.put(token, name, Readable.from([xml(name)]), 1_000_000);
    expect(await bytesOf(await files.get(token, 'sitemap-2.xml'))).toEqual(xml('sitemap-2.xml'));
    await files.remove(token);
    for (const name of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml'])
      expect(await files.get(token, name)).toBeUndefined();
    await files.remove(token);
  });

  it('deletes, at a start, the partial files puts killed with their process left, and nothing else', async () => {
    const feeds = join(folder, 'feeds');
    const [first, second] = [newFeedToken(), newFeedToken()];
    await files.put(first, 'indeed.xml', Readable.from([xml('kept')]), 1_000);
    // What a put killed midway leaves (its name as a put makes it), beside files that are not a put's.
    const left = ['.indeed.xml.0123456789ab.partial', '.sitemap-2.xml.ba9876543210.partial'];
    const others = ['.notes.partial', '.indeed.xml.0123.partial', 'sitemap.xml.gz'];
    await mkdir(join(feeds, second), { recursive: true });
    for (const name of [...left, ...others]) await writeFile(join(feeds, second, name), 'x');
    await writeFile(join(feeds, first, left[0] ?? ''), 'x');
    await mkdir(join(feeds, 'not-a-token'));
    await writeFile(join(feeds, 'not-a-token', left[0] ?? ''), 'x');

    expect(await removePartialFiles(feeds)).toBe(3);
    expect((await readdir(join(feeds, first))).sort()).toEqual(['indeed.xml.gz']);
    expect((await readdir(join(feeds, second))).sort()).toEqual([...others].sort());
    expect(await readdir(join(feeds, 'not-a-token'))).toEqual([left[0]]);
    expect((await bytesOf(await files.get(first, 'indeed.xml'))).equals(xml('kept'))).toBe(true);
    // A folder not made yet has none.
    expect(await removePartialFiles(join(folder, 'nowhere'))).toBe(0);
    await rm(join(feeds, 'not-a-token'), { recursive: true });
    await files.remove(second);
  });

  it('makes no path of a token or name not of the patterns', async () => {
    const token = newFeedToken();
    const body = () => Readable.from([xml('x')]);
    for (const [badToken, name] of [
      ['..', 'indeed.xml'],
      [token, '../indeed.xml'],
      [token, 'indeed.xml.gz'],
      [token, 'notes.txt'],
      [`${token}/..`, 'indeed.xml'],
      [token.slice(1), 'indeed.xml'],
      [token, 'sitemap-0.xml'],
    ] as const) {
      await expect(files.put(badToken, name, body(), 1)).rejects.toThrow(/not a feed's file/);
      expect(await files.get(badToken, name)).toBeUndefined();
    }
    await expect(files.remove('..')).rejects.toThrow(/not a feed's token/);
    expect(await readdir(folder)).toEqual(['feeds']);
  });
});
