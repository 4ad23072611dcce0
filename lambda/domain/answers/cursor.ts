/**
 * The cursors of walks (docs/api.md#pagination, docs/design.md#walks-by-cursor): opaque positions, bound to the
 * vendor and to the walk they belong to.
 *
 * - A listing's cursor holds a position in the active index (an order key) and which side of it the page lies on:
 *   the vacancies older than the last of a page (the next page) or newer than the first (the previous page), that
 *   one included or not. It is bound to the filters.
 * - A sync's cursor (docs/design.md#incremental-sync) holds the last change key a page gave, the walk's snapshot
 *   time and the number of changes its window held when it began. It is bound to `updated_since`.
 *
 * A cursor is base64url of: a format byte, the payload, then the first 8 bytes of a SHA-256 over the vendor, what
 * the walk is bound to and all the bytes before. The digest is an integrity check, not a secret: it makes a cursor
 * changed by hand, another vendor's or another walk's fail (422). It cannot let anyone read another vendor's data
 * whatever it holds — the vendor comes only from the authorizer, and a cursor only chooses where to start in the
 * vendor's own partition of an index.
 */
import { createHash } from 'node:crypto';
import { readBigEndian, writeBigEndian } from '../schema/big-endian';
import { CHANGE_KEY_BYTES } from '../schema/change-index';

/**
 * Which side of the position a page lies on, in listing order (newest first): `older` follows `next_page_url`,
 * `newer` `prev_page_url`.
 */
export type CursorDirection = 'older' | 'newer';

/** A listing's cursor. */
export interface ListingCursor {
  readonly direction: CursorDirection;
  /** A position in the active index's order (an order key, compared byte-wise). */
  readonly position: Uint8Array;
  /**
   * Whether the vacancy at the position belongs to the page: for the links of a page that came out empty, which
   * have no vacancy of their own to start next to.
   */
  readonly inclusive: boolean;
}

/** Where a page of the listing starts: a position in its order (an offset from its top), or a cursor. */
export type PageStart = { readonly offset: number } | { readonly cursor: ListingCursor };

/** A sync's cursor. */
export interface SyncCursor {
  /** The change key of the last change the walk gave: the next page starts after it. */
  readonly position: Uint8Array;
  /** The walk's snapshot time (ms): its window ends there. */
  readonly snapshot: number;
  /** How many changes the window held when the walk began. */
  readonly total: number;
}

/** What a cursor is bound to: the vendor, and what the walk was asked with. */
export interface CursorBinding {
  readonly vendorId: string;
  /** The walk's parameters, in a canonical form. */
  readonly walk: string;
}

const FORMATS = { listing: 1, sync: 2 } as const;
const DIGEST_BYTES = 8;
const ORDER_KEY_BYTES = 12;
const TIME_BYTES = 6;
const COUNT_BYTES = 6;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function digest(binding: CursorBinding, payload: Uint8Array): Buffer {
  return createHash('sha256')
    .update(`vva-cursor\n${binding.vendorId}\n${binding.walk}\n`)
    .update(payload)
    .digest()
    .subarray(0, DIGEST_BYTES);
}

function seal(format: number, body: Uint8Array, binding: CursorBinding): string {
  const payload = Buffer.concat([Buffer.from([format]), body]);
  return Buffer.concat([payload, digest(binding, payload)]).toString('base64url');
}

/** The body of a cursor of `format` and `length` bytes sealed for `binding`; undefined for anything else. */
function unseal(text: string, format: number, length: number, binding: CursorBinding): Buffer | undefined {
  if (!BASE64URL.test(text) || text.length > 64) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // A text that does not round-trip (stray bits in its last character) is not one this service wrote.
  if (bytes.toString('base64url') !== text) return undefined;
  if (bytes.length !== 1 + length + DIGEST_BYTES || bytes[0] !== format) return undefined;
  const payload = bytes.subarray(0, 1 + length);
  if (!digest(binding, payload).equals(bytes.subarray(payload.length))) return undefined;
  return payload.subarray(1);
}

/**
 * Whether a text could be a cursor of this service at all — base64url that round-trips, of a format and a length it
 * writes — whatever vendor and walk it is for: one that could not is invalid even before the walk it is checked
 * against is known (another parameter invalid too).
 */
export function cursorShaped(text: string): boolean {
  if (!BASE64URL.test(text) || text.length > 64) return false;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return false;
  const lengths: Record<number, number> = {
    [FORMATS.listing]: 1 + ORDER_KEY_BYTES,
    [FORMATS.sync]: CHANGE_KEY_BYTES + TIME_BYTES + COUNT_BYTES,
  };
  const length = lengths[bytes[0] as number];
  return length !== undefined && bytes.length === 1 + length + DIGEST_BYTES;
}

/** The direction byte of a listing's cursor: the direction, and whether the position is included. */
const DIRECTIONS: readonly [CursorDirection, boolean][] = [
  ['older', false],
  ['newer', false],
  ['older', true],
  ['newer', true],
];

/** A listing's cursor, as it goes into a page URL. */
export function encodeCursor(cursor: ListingCursor, binding: CursorBinding): string {
  const code = DIRECTIONS.findIndex(
    ([direction, inclusive]) => direction === cursor.direction && inclusive === cursor.inclusive,
  );
  return seal(FORMATS.listing, Buffer.concat([Buffer.from([code]), cursor.position]), binding);
}

/** The listing's cursor a text holds, if this service made it for this vendor and these filters. */
export function decodeCursor(text: string, binding: CursorBinding): ListingCursor | undefined {
  const body = unseal(text, FORMATS.listing, 1 + ORDER_KEY_BYTES, binding);
  const direction = body && DIRECTIONS[body[0] as number];
  if (!body || !direction) return undefined;
  return { direction: direction[0], inclusive: direction[1], position: new Uint8Array(body.subarray(1)) };
}

/** A sync's cursor, as it goes into a page URL. */
export function encodeSyncCursor(cursor: SyncCursor, binding: CursorBinding): string {
  const body = new Uint8Array(CHANGE_KEY_BYTES + TIME_BYTES + COUNT_BYTES);
  body.set(cursor.position);
  writeBigEndian(body, CHANGE_KEY_BYTES, TIME_BYTES, cursor.snapshot);
  writeBigEndian(body, CHANGE_KEY_BYTES + TIME_BYTES, COUNT_BYTES, cursor.total);
  return seal(FORMATS.sync, body, binding);
}

/** The sync's cursor a text holds, if this service made it for this vendor and this `updated_since`. */
export function decodeSyncCursor(text: string, binding: CursorBinding): SyncCursor | undefined {
  const body = unseal(text, FORMATS.sync, CHANGE_KEY_BYTES + TIME_BYTES + COUNT_BYTES, binding);
  if (!body) return undefined;
  return {
    position: new Uint8Array(body.subarray(0, CHANGE_KEY_BYTES)),
    snapshot: readBigEndian(body, CHANGE_KEY_BYTES, TIME_BYTES),
    total: readBigEndian(body, CHANGE_KEY_BYTES + TIME_BYTES, COUNT_BYTES),
  };
}
