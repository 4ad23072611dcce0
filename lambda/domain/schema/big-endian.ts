/** Fixed-width, big-endian numbers: the binary sort keys of the indexes, which DynamoDB orders byte by byte. */

/**
 * Writes `value` (a non-negative safe integer below 256^`width`) big-endian into `bytes[offset, offset + width)`.
 * Anything else is refused (`RangeError`): a Uint8Array keeps only the low byte of what it is given, so a negative
 * number would be written as one near the top of the order — a key after every key, a range with no end.
 */
export function writeBigEndian(bytes: Uint8Array, offset: number, width: number, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 256 ** width)
    throw new RangeError(`${value} is not a whole number from 0 that fits in ${width} bytes`);
  let rest = value;
  for (let i = offset + width - 1; i >= offset; i -= 1) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

/** The number `bytes[offset, offset + width)` holds, big-endian. */
export function readBigEndian(bytes: Uint8Array, offset: number, width: number): number {
  let value = 0;
  for (let i = offset; i < offset + width; i += 1) value = value * 256 + (bytes[i] as number);
  return value;
}
