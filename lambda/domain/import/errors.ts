/**
 * The import's error (docs/operating.md#limits-of-a-file): a file that cannot be imported at all.
 */

/**
 * A file that cannot be imported at all — past a limit of a file, not NDJSON or a JSON array, not valid gzip —
 * with the one line that says why (no stack, no raw message). Thrown while the file is read (`file.ts`), before
 * anything is written. The CLI prints the line after the file's name and exits 1; the inbox moves the file to
 * `failed/` with the line as its report's `reason`. A parser's message may quote the file: its control characters
 * and line breaks become spaces, so it stays one line.
 */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';

  constructor(message: string) {
    super(message.replace(/[\p{Cc}\u2028\u2029]+/gu, ' '));
  }
}
