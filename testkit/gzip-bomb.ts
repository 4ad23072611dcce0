/**
 * Gzip bombs for the tests of hostile files (docs/design.md#hostile-files), made with zlib at test time, never stored:
 * one gzip member of about 1 MiB of a repeated text, compressed once (a thousandth of its size), handed out as many
 * times as the bomb is large — gzip allows members one after another, and each expands on its own.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** A bomb: `unit` repeated until it expands to at least `bytes`. */
export interface GzipBomb {
  /** Repeated text, such as `{}\n` (a record a line) or a line of spaces (nothing but lines). */
  readonly unit: string;
  readonly bytes: number;
}

/** The members of a bomb, one at a time. */
export function* gzipMembers({ unit, bytes }: GzipBomb): Generator<Uint8Array> {
  const text = Buffer.from(unit);
  const repeats = Math.max(1, Math.floor((1024 * 1024) / text.length));
  const member = gzipSync(Buffer.alloc(repeats * text.length, text), { level: 9 });
  const expands = repeats * text.length;
  for (let made = 0; made < bytes; made += expands) yield member;
}

/** Writes a bomb to a file (about a thousandth of what it expands to); resolves with the bytes written. */
export async function writeGzipBomb(path: string, bomb: GzipBomb): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  for (const member of gzipMembers(bomb)) {
    written += member.length;
    if (!out.write(member)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return written;
}
