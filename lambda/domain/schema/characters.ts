/**
 * How the service counts the length of a text: in characters — Unicode code points — as the limits of
 * docs/operating.md#imports are written, not in UTF-16 code units (an emoji is one character, not two).
 */

/** The number of Unicode code points of a string. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
