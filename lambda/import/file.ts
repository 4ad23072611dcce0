/**
 * Reading an import file into records (docs/operating.md#imports): NDJSON or a JSON array, each record with the line
 * it starts on. A file is read as bytes and each line decoded strictly: a line that is not valid UTF-8 is refused
 * with its number — never stored with replacement characters — and every other record is still read. Numbers are
 * taken as written (`parseRecordJson`).
 */
import { gunzipSync } from 'node:zlib';
import { parseRecordJson } from './record';

/** The most records a file may hold for the inbox (docs/operating.md#the-inbox): one function run imports them. */
export const MAX_FILE_RECORDS = 100_000;
/** The most bytes a file may hold once decompressed: a gzip bomb is refused before it fills the memory. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** A file that cannot be imported at all, with the one line that says why (no stack, no raw message). */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/**
 * The bytes of an import file, decompressed when it is gzip: at most `MAX_FILE_BYTES`, or an `ImportFileError`.
 */
export function importFileBytes(bytes: Uint8Array, compressed: boolean): Uint8Array {
  if (!compressed) {
    if (bytes.length > MAX_FILE_BYTES)
      throw new ImportFileError(`the file is larger than ${MAX_FILE_BYTES} bytes`);
    return bytes;
  }
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_FILE_BYTES });
  } catch (error) {
    throw new ImportFileError(
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
        ? `the file is larger than ${MAX_FILE_BYTES} bytes once decompressed`
        : 'the file is not valid gzip',
    );
  }
}

/** One record of an import file and the line it starts on. */
export interface SourceRecord {
  readonly line: number;
  /** The parsed value; absent when the record could not be read (`unreadable` says why). */
  readonly value?: unknown;
  /** Why the record could not be read: not valid UTF-8, or (NDJSON) not valid JSON. */
  readonly unreadable?: string;
}

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];
const LINE_FEED = 0x0a;
const NOT_UTF8 = 'not valid UTF-8 (bytes that are not UTF-8 text)';

/** The lines (from 1) on which an element of a JSON array starts and ends. */
interface Span {
  readonly start: number;
  end: number;
}

/** The span of each top-level element of a JSON array text, found by scanning it (JSON strings hold no line feed). */
function arrayElementSpans(text: string): Span[] {
  const spans: Span[] = [];
  let line = 1;
  let lastTokenLine = 1;
  let depth = 0;
  let inString = false;
  let expectingValue = false;
  let open: Span | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\n') line += 1;
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      lastTokenLine = line;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue;
    const closesElement = depth === 1 && (char === ',' || char === ']');
    if (closesElement && open) {
      open.end = lastTokenLine;
      open = undefined;
    }
    if (depth === 1 && expectingValue && char !== ']') {
      open = { start: line, end: line };
      spans.push(open);
      expectingValue = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth += 1;
      if (depth === 1) expectingValue = true;
    } else if (char === ']' || char === '}') depth -= 1;
    else if (char === ',' && depth === 1) expectingValue = true;
    lastTokenLine = line;
  }
  return spans;
}

/** A line of the file: its text, and whether its bytes were valid UTF-8 (if not, the text has U+FFFD in places). */
interface DecodedLine {
  readonly text: string;
  readonly utf8: boolean;
}

/** The lines of a file's bytes, one at a time, each decoded strictly, and leniently where it is not UTF-8. */
function* decodeLines(bytes: Uint8Array): Generator<DecodedLine> {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  let start = BYTE_ORDER_MARK.every((byte, i) => bytes[i] === byte) ? BYTE_ORDER_MARK.length : 0;
  while (start <= bytes.length) {
    const end = bytes.indexOf(LINE_FEED, start);
    const stop = end === -1 ? bytes.length : end;
    const line = bytes.subarray(start, stop);
    try {
      yield { text: strict.decode(line), utf8: true };
    } catch {
      yield { text: lenient.decode(line), utf8: false };
    }
    start = stop + 1;
  }
}

/** Whether the file's first non-blank text opens a JSON array (only whitespace is skipped). */
function opensArray(bytes: Uint8Array): boolean {
  for (
    let i = BYTE_ORDER_MARK.every((byte, j) => bytes[j] === byte) ? BYTE_ORDER_MARK.length : 0;
    i < bytes.length;
    i += 1
  ) {
    const byte = bytes[i];
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x5b;
  }
  return false;
}

/**
 * The records of an import file: a JSON array (each element with the line it starts on), or NDJSON — one record a
 * line, blank lines skipped, a line that is not JSON reported as such. A UTF-8 byte order mark at the start is
 * ignored and CRLF line ends are accepted. A line that is not valid UTF-8 makes the record on it unreadable (in an
 * array, the element or elements it is part of); the rest of the file is read. A file that starts like an array
 * but is not valid JSON is rejected as a whole. NDJSON is read a line at a time: only the records are kept.
 */
export function parseImportFile(content: Uint8Array | string): SourceRecord[] {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  if (opensArray(bytes)) return parseArray([...decodeLines(bytes)]);
  const records: SourceRecord[] = [];
  let line = 0;
  for (const { text, utf8 } of decodeLines(bytes)) {
    line += 1;
    if (!utf8) {
      records.push({ line, unreadable: NOT_UTF8 });
      continue;
    }
    if (text.trim() === '') continue;
    try {
      records.push({ line, value: parseRecordJson(text) });
    } catch (error) {
      records.push({ line, unreadable: `not valid JSON: ${(error as Error).message}` });
    }
  }
  return records;
}

/** The elements of a JSON array file; those on a line that is not UTF-8 are unreadable. */
function parseArray(lines: readonly DecodedLine[]): SourceRecord[] {
  // Bad bytes can only survive parsing inside a string (U+FFFD is not JSON's syntax), so each is in an element.
  const text = lines.map((line) => line.text).join('\n');
  let values: unknown;
  try {
    values = parseRecordJson(text);
  } catch (error) {
    throw new ImportFileError(`The file is not a valid JSON array: ${(error as Error).message}`);
  }
  const spans = arrayElementSpans(text);
  const badLines = lines.flatMap(({ utf8 }, i) => (utf8 ? [] : [i + 1]));
  return (values as unknown[]).map((value, i) => {
    const { start: line, end } = spans[i] ?? { start: 1, end: lines.length };
    const unreadable = badLines.some((bad) => bad >= line && bad <= end);
    return unreadable ? { line, unreadable: NOT_UTF8 } : { line, value };
  });
}
