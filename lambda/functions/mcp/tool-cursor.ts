/**
 * The tools' cursor (docs/api.md#agents-mcp): where `search_vacancies` goes on — the page it reads next and the
 * core's cursor of that page's position, when it has one — as one opaque token, whole: base64url of a format byte,
 * the page (7 bytes, big-endian: up to 2^53 − 1), the core's cursor, then the first 8 bytes of a SHA-256 over the
 * vendor and all the bytes before. Any change to it, its page included, is refused (the tool's error naming
 * `cursor`), never read as another page. Like the core's cursors, the digest is an integrity check, not a secret: it
 * cannot let anyone read another vendor's data — the vendor comes only from the key or the endpoint, and the core
 * checks its own cursor against the vendor and the search again.
 */
import { createHash } from 'node:crypto';
import type { PageLink } from '../../domain/answers/pages';
import { readBigEndian, writeBigEndian } from '../../domain/schema/big-endian';

const FORMAT = 0x74;
const PAGE_BYTES = 7;
const DIGEST_BYTES = 8;
/** The longest core cursor a token carries (the core's are shorter). */
const MAX_CURSOR = 64;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const CORE_CURSOR = /^[A-Za-z0-9_-]*$/;

const digest = (vendorId: string, payload: Uint8Array) =>
  createHash('sha256')
    .update(`vva-tool-cursor\n${vendorId}\n`)
    .update(payload)
    .digest()
    .subarray(0, DIGEST_BYTES);

/** The token of a link to a page of a vendor's walk. */
export function mintToolCursor(vendorId: string, link: PageLink): string {
  const page = new Uint8Array(PAGE_BYTES);
  writeBigEndian(page, 0, PAGE_BYTES, link.page);
  const payload = Buffer.concat([Buffer.from([FORMAT]), page, Buffer.from(link.cursor ?? '', 'ascii')]);
  return Buffer.concat([payload, digest(vendorId, payload)]).toString('base64url');
}

/** The link a token holds, if this service minted it for this vendor, whole; undefined for anything else. */
export function readToolCursor(vendorId: string, token: string): PageLink | undefined {
  if (
    !BASE64URL.test(token) ||
    token.length > 4 * Math.ceil((1 + PAGE_BYTES + MAX_CURSOR + DIGEST_BYTES) / 3)
  )
    return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // A text that does not round-trip (stray bits in its last character) is not one this service wrote.
  if (bytes.toString('base64url') !== token) return undefined;
  if (bytes.length < 1 + PAGE_BYTES + DIGEST_BYTES || bytes[0] !== FORMAT) return undefined;
  const payload = bytes.subarray(0, bytes.length - DIGEST_BYTES);
  if (!digest(vendorId, payload).equals(bytes.subarray(payload.length))) return undefined;
  const page = readBigEndian(payload, 1, PAGE_BYTES);
  const cursor = payload.subarray(1 + PAGE_BYTES).toString('ascii');
  if (page < 1 || page > Number.MAX_SAFE_INTEGER || !CORE_CURSOR.test(cursor)) return undefined;
  return { page, ...(cursor !== '' && { cursor }) };
}
