/** The local server's errors: what `npm start` refuses, said in words, never with a stack trace. */

/**
 * A seed file that breaks the format (docs/operating.md#seed-files): every problem, each with where it is. Thrown by
 * the seed's reading and loading (`seed.ts`) as `npm start` starts; it prints the message — a line for each
 * problem — and exits 1.
 */
export class InvalidSeedError extends Error {
  override readonly name = 'InvalidSeedError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid seed file:\n  ${problems.join('\n  ')}`);
  }
}
