/** Fixed-width, big-endian numbers: the binary sort keys of the indexes, which DynamoDB orders byte by byte. */

/** Writes `value` (a non-negative safe integer) big-endian into `bytes[offset, offset + width)`. */
export function writeBigEndian(bytes: Uint8Array, offset: number, width: number, value: number): void {
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
