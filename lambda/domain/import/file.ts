/**
 * Reading an import file into records (docs/operating.md#imports): NDJSON or a JSON array, each record with the line
 * it starts on. A file is read as a stream of bytes — decompressed as it arrives when it is gzip — and each line is
 * decoded strictly: a line that is not valid UTF-8 is refused with its number — never stored with replacement
 * characters — and every other record is still read. Numbers are taken as written (`parseRecordJson`).
 *
 * Whatever a file holds, reading it takes bounded memory (docs/design.md#hostile-files): the decompressed bytes are
 * counted as they come out of zlib, a line is counted before it is decoded, a record before it is parsed, and
 * nothing is kept but the records themselves; every line is counted as its line feed arrives, blank ones too. A file
 * past a limit (`IMPORT_LIMITS`) is refused as a whole with the line or byte where the limit was reached; so is a
 * file none of whose records is a JSON object.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ImportFileError } from './errors';
import { parseRecordJson } from './record';

/** The limits of one import file, the one place they are set (docs/operating.md#limits-of-a-file). */
export interface ImportLimits {
  /** Records a file may hold: non-blank NDJSON lines, or elements of a JSON array. One function run imports them. */
  readonly records: number;
  /** Bytes a line may hold (its line end not counted); an element of a JSON array too, whatever its lines. */
  readonly lineBytes: number;
  /** Bytes a file may hold once decompressed (`.gz`), or as it is. */
  readonly fileBytes: number;
  /**
   * Lines a file may hold, blank ones included, counted as their line feeds arrive: a file of nothing but line feeds
   * (a gigabyte of them in a few MB of gzip) is stopped within its first megabyte, not after its whole gigabyte.
   */
  readonly lines: number;
}

/** The limits of every import: the inbox's and the CLI's. */
export const IMPORT_LIMITS: ImportLimits = {
  records: 100_000,
  lineBytes: 1024 * 1024,
  fileBytes: 1024 * 1024 * 1024,
  lines: 1_000_000,
};

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
/** The CR of a CRLF line end, which a file may use: not counted in a line's length (docs/operating.md#the-inbox). */
const CARRIAGE_RETURN = 0x0d;
const NOT_UTF8 = 'not valid UTF-8 (bytes that are not UTF-8 text)';

/** `1,048,576 bytes (1 MiB)`: a limit as the operator reads it. */
function bytesText(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  const unit = units.find(([size]) => bytes >= size && bytes % size === 0);
  return `${bytes.toLocaleString('en-US')} bytes${unit ? ` (${bytes / unit[0]} ${unit[1]})` : ''}`;
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isBlank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;

/** An element of a JSON array being read: its text so far, the line it starts on, whether a line of it was not UTF-8. */
interface OpenElement {
  readonly line: number;
  readonly parts: string[];
  length: number;
  notUtf8: boolean;
}

/**
 * The elements of a JSON array, cut out of its text a line at a time and each parsed on its own: the array is never
 * held whole. It keeps only the element being read (at most `lineBytes`), and checks the array's own syntax — its
 * brackets and commas — itself; each element's is JSON.parse's.
 */
class ArrayElements {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #closed = false;
  /** After an element, before its comma. */
  #afterElement = false;
  /** After a comma, before the next element. */
  #afterComma = false;
  #element: OpenElement | undefined;

  constructor(
    private readonly limits: ImportLimits,
    private readonly startElement: (line: number) => void,
    private readonly emit: (record: SourceRecord, value: unknown) => void,
  ) {}

  #invalid(line: number, why: string): ImportFileError {
    return new ImportFileError(`the file is not a valid JSON array: ${why} (line ${line})`);
  }

  /** Ends the open element at `end` of this line's text, and parses it. */
  #close(text: string, start: number, end: number): void {
    const element = this.#element as OpenElement;
    element.parts.push(text.slice(start, end));
    this.#element = undefined;
    this.#afterElement = true;
    this.#afterComma = false;
    let value: unknown;
    try {
      value = parseRecordJson(element.parts.join('\n'));
    } catch (error) {
      throw this.#invalid(element.line, (error as Error).message);
    }
    this.emit(
      element.notUtf8 ? { line: element.line, unreadable: NOT_UTF8 } : { line: element.line, value },
      value,
    );
  }

  /** Reads one line of the array. */
  line(text: string, line: number, utf8: boolean): void {
    let start = 0;
    if (this.#element && !utf8) this.#element.notUtf8 = true;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (code === 0x5c) this.#escaped = true;
        else if (code === 0x22) this.#inString = false;
        continue;
      }
      if (this.#depth === 0) {
        if (isBlank(code)) continue;
        if (this.#closed || code !== 0x5b) throw this.#invalid(line, 'text after its closing ]');
        this.#depth = 1;
        continue;
      }
      if (this.#depth === 1 && !this.#element) {
        if (isBlank(code)) continue;
        if (code === 0x2c) {
          if (!this.#afterElement) throw this.#invalid(line, 'a comma where an element should be');
          this.#afterElement = false;
          this.#afterComma = true;
          continue;
        }
        if (code === 0x5d) {
          if (this.#afterComma) throw this.#invalid(line, 'a comma before the closing ]');
          this.#depth = 0;
          this.#closed = true;
          continue;
        }
        if (this.#afterElement) throw this.#invalid(line, 'two elements without a comma between them');
        this.startElement(line);
        this.#element = { line, parts: [], length: 0, notUtf8: !utf8 };
        start = i;
      }
      // Inside an element: only its nesting and strings matter here.
      if (code === 0x22) this.#inString = true;
      else if (code === 0x5b || code === 0x7b) this.#depth += 1;
      else if (code === 0x5d || code === 0x7d) {
        if (this.#depth === 1) {
          this.#close(text, start, i);
          this.#depth = 0;
          this.#closed = true;
        } else this.#depth -= 1;
      } else if (code === 0x2c && this.#depth === 1) {
        this.#close(text, start, i);
        this.#afterElement = false;
        this.#afterComma = true;
      }
    }
    // A JSON string holds no line break: one still open at the end of a line is not JSON.
    if (this.#inString) throw this.#invalid(line, 'a string not closed on its line');
    const element = this.#element;
    if (element) {
      element.parts.push(text.slice(start));
      element.length += text.length - start + 1;
      if (element.length > this.limits.lineBytes) {
        throw new ImportFileError(
          `the element of the array that starts on line ${element.line} is longer than ${bytesText(this.limits.lineBytes)}, the most a record may hold`,
        );
      }
    }
  }

  /** Checks that the array was closed. */
  end(line: number): void {
    if (!this.#closed) throw this.#invalid(line, 'it ends before its closing ]');
  }
}

/**
 * Reads an import file's bytes as they come, handing out each record as soon as it is read; see the module's comment.
 * One reader reads one file.
 */
class ImportFileReader {
  readonly #limits: ImportLimits;
  readonly #compressed: boolean;
  readonly #emit: (record: SourceRecord) => void;
  readonly #strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  readonly #lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Decompressed bytes so far. */
  #bytes = 0;
  /** Lines completed so far. */
  #lines = 0;
  /** The bytes of the line being read, and their count. */
  #pieces: Uint8Array[] = [];
  #pieceBytes = 0;
  #records = 0;
  #objects = 0;
  /** NDJSON lines that are UTF-8 text: the lines that say whether a file is NDJSON at all. */
  #textLines = 0;
  #shape: 'unknown' | 'ndjson' | ArrayElements = 'unknown';

  constructor(limits: ImportLimits, compressed: boolean, emit: (record: SourceRecord) => void) {
    this.#limits = limits;
    this.#compressed = compressed;
    this.#emit = emit;
  }

  /** Reads the next bytes of the file. */
  push(chunk: Uint8Array): void {
    const room = this.#limits.fileBytes - this.#bytes;
    const over = chunk.length > room;
    const bytes = over ? chunk.subarray(0, room) : chunk;
    this.#bytes += bytes.length;
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(LINE_FEED, start);
      const piece = bytes.subarray(start, end === -1 ? bytes.length : end);
      this.#piece(piece);
      if (end === -1) break;
      this.#completeLine(true);
      start = end + 1;
    }
    if (over) {
      throw new ImportFileError(
        `the file is larger than ${bytesText(this.#limits.fileBytes)}${this.#compressed ? ' once decompressed' : ''}, the most a file may hold: the limit was reached at byte ${this.#limits.fileBytes + 1} (line ${this.#lines + 1}); split it`,
      );
    }
  }

  /** Reads the end of the file. */
  end(): void {
    if (this.#pieceBytes > 0 || this.#lines === 0) this.#completeLine(false);
    const shape = this.#shape;
    if (shape instanceof ArrayElements) shape.end(this.#lines);
    if (this.#records > 0 && this.#objects === 0) {
      throw new ImportFileError(
        shape instanceof ArrayElements
          ? `not a JSON array of records: none of its ${this.#records} elements is a JSON object`
          : `not NDJSON: none of its ${this.#records} lines is a JSON object`,
      );
    }
    // Text with a JSON object here and there (a README quoting a record) is not NDJSON either: fewer than half of its
    // lines of text are records. A line that is not UTF-8 says nothing of it (a Latin-1 export is still NDJSON).
    if (this.#objects * 2 < this.#textLines) {
      throw new ImportFileError(
        `not NDJSON: ${this.#textLines - this.#objects} of its ${this.#textLines} lines of text are not JSON objects`,
      );
    }
  }

  /** The refusal of the line being read: longer than a line may be, without its line end. */
  #lineTooLong(): ImportFileError {
    return new ImportFileError(
      `line ${this.#lines + 1} is longer than ${bytesText(this.#limits.lineBytes)}, the most a line may hold`,
    );
  }

  /**
   * Keeps a part of the line being read, counted first — up to one byte over the limit, which may yet be the CR of a
   * CRLF line end (`#completeLine` decides).
   */
  #piece(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.#pieceBytes += piece.length;
    if (this.#pieceBytes > this.#limits.lineBytes + 1) throw this.#lineTooLong();
    // A chunk's bytes are the reader's own (zlib's and the file's streams hand out fresh buffers), kept until the line ends.
    this.#pieces.push(piece);
  }

  /** A record begins: counted before it is read. */
  #startRecord = (line: number): void => {
    this.#records += 1;
    if (this.#records > this.#limits.records) {
      throw new ImportFileError(
        `the file has more than ${this.#limits.records.toLocaleString('en-US')} records, the most a file may hold: the limit was reached at line ${line}; split it`,
      );
    }
  };

  /** Completes the line being read: at a line feed (`byLineFeed`), or at the end of the file. */
  #completeLine(byLineFeed: boolean): void {
    if (this.#pieceBytes > this.#limits.lineBytes) {
      const last = this.#pieces.at(-1);
      const crOfCrlf = byLineFeed && last?.[last.length - 1] === CARRIAGE_RETURN;
      if (!crOfCrlf || this.#pieceBytes > this.#limits.lineBytes + 1) throw this.#lineTooLong();
    }
    this.#lines += 1;
    const line = this.#lines;
    if (line > this.#limits.lines) {
      throw new ImportFileError(
        `the file has more than ${this.#limits.lines.toLocaleString('en-US')} lines (blank lines count too), the most a file may hold: the limit was reached at line ${line}; split it`,
      );
    }
    let bytes: Uint8Array =
      this.#pieces.length === 1 ? (this.#pieces[0] as Uint8Array) : Buffer.concat(this.#pieces);
    this.#pieces = [];
    this.#pieceBytes = 0;
    if (line === 1 && BYTE_ORDER_MARK.every((byte, i) => bytes[i] === byte)) bytes = bytes.subarray(3);
    let text: string;
    let utf8 = true;
    try {
      text = this.#strict.decode(bytes);
    } catch {
      text = this.#lenient.decode(bytes);
      utf8 = false;
    }
    if (this.#shape === 'unknown') {
      const opening = text.trimStart();
      if (opening === '') return;
      this.#shape = opening.startsWith('[')
        ? new ArrayElements(this.#limits, this.#startRecord, (record, value) => {
            if (record.value !== undefined && isObject(value)) this.#objects += 1;
            this.#emit(record);
          })
        : 'ndjson';
    }
    if (this.#shape !== 'ndjson') {
      this.#shape.line(text, line, utf8);
      return;
    }
    if (text.trim() === '') return;
    this.#startRecord(line);
    if (!utf8) {
      this.#emit({ line, unreadable: NOT_UTF8 });
      return;
    }
    this.#textLines += 1;
    try {
      const value = parseRecordJson(text);
      if (isObject(value)) this.#objects += 1;
      this.#emit({ line, value });
    } catch (error) {
      this.#emit({ line, unreadable: `not valid JSON: ${(error as Error).message}` });
    }
  }
}

/** How a file is read. */
export interface ReadOptions {
  /** Gzip: decompressed as it is read. */
  readonly compressed?: boolean;
  /** The limits; `IMPORT_LIMITS` unless a test shortens them. */
  readonly limits?: ImportLimits;
}

/** Whether zlib refused the bytes it was given (not gzip, cut short): the file's fault, not the reading's. */
const isZlibError = (error: unknown) => /^Z_/.test(String((error as { code?: unknown } | null)?.code));

/**
 * The records of an import file streamed from `body`: a JSON array (each element with the line it starts on), or
 * NDJSON — one record a line, blank lines skipped, a line that is not JSON reported as such. A UTF-8 byte order mark
 * at the start is ignored and CRLF line ends are accepted. A line that is not valid UTF-8 makes the record on it
 * unreadable (in an array, the element or elements it is part of); the rest of the file is read. A file that starts
 * like an array but is not valid JSON, one past a limit, one none of whose records is a JSON object, or gzip that is
 * not, throws an `ImportFileError` — possibly after records were handed out, so that the caller writes nothing until
 * the end. On any stop the streams are destroyed: a gzip bomb stops expanding at the limit.
 */
export async function* readImportFile(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: ReadOptions = {},
): AsyncGenerator<SourceRecord, void, undefined> {
  const compressed = options.compressed ?? false;
  const records: SourceRecord[] = [];
  const reader = new ImportFileReader(options.limits ?? IMPORT_LIMITS, compressed, (record) =>
    records.push(record),
  );
  const source = compressed ? Readable.from(body, { objectMode: false }) : undefined;
  const input: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = source
    ? pipeline(source, createGunzip(), () => {})
    : body;
  const handOut = function* () {
    const out = records.splice(0);
    yield* out;
  };
  try {
    for await (const chunk of input) {
      reader.push(chunk);
      yield* handOut();
    }
  } catch (error) {
    if (!isZlibError(error)) throw error;
    throw new ImportFileError(
      (error as { code?: string }).code === 'Z_BUF_ERROR'
        ? 'the file is not valid gzip: it ends before its end'
        : 'the file is not valid gzip',
    );
  } finally {
    // Stopped at a limit or done: zlib and the body stop here (a loop's end lets go of a plain body).
    (input as Partial<Readable>).destroy?.();
    source?.destroy();
  }
  reader.end();
  yield* handOut();
}

/** `readImportFile` of plain bytes or text in memory (tests, benchmarks): every record, or an `ImportFileError`. */
export function parseImportFile(
  content: Uint8Array | string,
  limits: ImportLimits = IMPORT_LIMITS,
): SourceRecord[] {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const records: SourceRecord[] = [];
  const reader = new ImportFileReader(limits, false, (record) => records.push(record));
  reader.push(bytes);
  reader.end();
  return records;
}
