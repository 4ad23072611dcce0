/**
 * The change index's key (docs/design.md#data-model): when an item last changed, then its id — 13 bytes,
 * big-endian, so that DynamoDB's byte order of binary keys is the order of changes: oldest first, then by id.
 */
import { readBigEndian, writeBigEndian } from './big-endian';
import { CHANGE_INDEX } from './tables';

/** Bytes of a change key: 6 for the millisecond (to the year 10889), 7 for the id (up to 2^53 − 1). */
export const CHANGE_KEY_BYTES = 13;
const MILLISECOND_BYTES = 6;

/** The change key of an item that changed at `updatedAt` (ms since 1970). */
export function changeKey(updatedAt: number, id: number): Uint8Array {
  const key = new Uint8Array(CHANGE_KEY_BYTES);
  writeBigEndian(key, 0, MILLISECOND_BYTES, updatedAt);
  writeBigEndian(key, MILLISECOND_BYTES, CHANGE_KEY_BYTES - MILLISECOND_BYTES, id);
  return key;
}

/** The largest id: `changeKey(ms, LAST_ID)` is the end of a millisecond in the change index. */
export const LAST_ID = Number.MAX_SAFE_INTEGER;

/** A key after every change key: the open end of a range of the change index. */
export const END_OF_CHANGES = new Uint8Array(CHANGE_KEY_BYTES + 1).fill(0xff);

/** The smallest change key after `key`: `key` followed by a zero byte (byte order). */
export function justAfter(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}

/** The millisecond and id a change key holds. */
export function readChangeKey(key: Uint8Array): { updatedAt: number; id: number } {
  return {
    updatedAt: readBigEndian(key, 0, MILLISECOND_BYTES),
    id: readBigEndian(key, MILLISECOND_BYTES, CHANGE_KEY_BYTES - MILLISECOND_BYTES),
  };
}

/**
 * The KeyCondition of a Query on the change index: a vendor's entries from `from` to `to`, both included (change
 * keys, so that a walk can resume after the last entry it saw).
 */
export function changeRange(vendorId: string, from: Uint8Array, to: Uint8Array) {
  return {
    IndexName: CHANGE_INDEX.name,
    KeyConditionExpression: '#vendor = :vendor AND #change BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#vendor': CHANGE_INDEX.partitionKey, '#change': CHANGE_INDEX.sortKey },
    ExpressionAttributeValues: { ':vendor': vendorId, ':from': from, ':to': to },
  };
}
