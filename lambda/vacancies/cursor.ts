/**
 * The listing's cursors (docs/api.md#pagination, docs/design.md#walks-by-cursor): an opaque position in a walk —
 * the vacancies older than the last of a page (the next page) or newer than the first (the previous page), that
 * one included or not — bound to the vendor and the filters it was made for.
 *
 * A cursor is base64url of: a format byte, a direction byte, the position (an order key of the active index),
 * then the first 8 bytes of a SHA-256 over the vendor, the filters and all the bytes before. The digest is an integrity check, not a secret: it makes a cursor changed by hand, another
 * vendor's or another filter's fail (422). It cannot let anyone read another vendor's data whatever it holds —
 * the vendor comes only from the authorizer, and the position only chooses where to start in the vendor's own
 * index partition.
 */
import { createHash } from 'node:crypto';
import type { VacancyFilters } from '../schema/active-index';

/**
 * Which side of the position a page lies on, in listing order (newest first): `older` follows `next_page_url`,
 * `newer` `prev_page_url`.
 */
export type CursorDirection = 'older' | 'newer';

/** A decoded cursor. */
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

/** What a cursor is bound to: a cursor of another vendor or other filters is invalid. */
export interface CursorBinding {
  readonly vendorId: string;
  readonly filters: VacancyFilters;
}

const FORMAT = 1;
/** The direction byte: the direction, and whether the position is included. */
const DIRECTIONS: readonly [CursorDirection, boolean][] = [
  ['older', false],
  ['newer', false],
  ['older', true],
  ['newer', true],
];
const DIGEST_BYTES = 8;
/** Positions are order keys. */
const POSITION_BYTES = 12;

function digest(binding: CursorBinding, payload: Uint8Array): Buffer {
  const { type, experienceMin, experienceMax } = binding.filters;
  return createHash('sha256')
    .update(`vva-cursor\n${binding.vendorId}\n${type ?? ''}|${experienceMin ?? ''}|${experienceMax ?? ''}\n`)
    .update(payload)
    .digest()
    .subarray(0, DIGEST_BYTES);
}

/** The cursor's text, as it goes into a page URL. */
export function encodeCursor(cursor: ListingCursor, binding: CursorBinding): string {
  const payload = Buffer.concat([
    Buffer.from([
      FORMAT,
      DIRECTIONS.findIndex(
        ([direction, inclusive]) => direction === cursor.direction && inclusive === cursor.inclusive,
      ),
    ]),
    Buffer.from(cursor.position),
  ]);
  return Buffer.concat([payload, digest(binding, payload)]).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The cursor a text holds, if it is one that this service made for this vendor and these filters; undefined
 * otherwise (not base64url, the wrong length or format, a digest that does not match).
 */
export function decodeCursor(text: string, binding: CursorBinding): ListingCursor | undefined {
  if (!BASE64URL.test(text) || text.length > 64) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // A text that does not round-trip (stray bits in its last character) is not one this service wrote.
  if (bytes.toString('base64url') !== text) return undefined;
  const payload = bytes.subarray(0, bytes.length - DIGEST_BYTES);
  if (payload.length !== 2 + POSITION_BYTES) return undefined;
  const [format, code = 0] = payload;
  const direction = DIRECTIONS[code];
  if (format !== FORMAT || !direction) return undefined;
  if (!digest(binding, payload).equals(bytes.subarray(payload.length))) return undefined;
  return { direction: direction[0], inclusive: direction[1], position: new Uint8Array(payload.subarray(2)) };
}
