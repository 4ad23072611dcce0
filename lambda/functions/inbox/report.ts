/**
 * The report of a file of the inbox (`reports/<path>.json`, docs/operating.md#reports): what became of it, what was
 * read, written, left unchanged and rejected — `read = written + unchanged + rejected` for a file that is done or
 * rejected — each rejected record with its line, and for a snapshot what it closed or why it was held. The same object
 * is the function's log line.
 */
import type { ImportReport } from '../../domain/import/import';
import type { ClosingLimitCheck, SnapshotReport } from '../../domain/import/snapshot';
import type { FileOutcomeFolder, InboxFile } from './layout';

/** A rejected record: the line it starts on, and every rule it broke. */
export interface RejectedLine {
  readonly line: number;
  readonly reason: string;
}

/**
 * What became of a file: the folder it went to; `incoming` when it is left there for another try (the time ran out);
 * `rejected` when it was read to its end but every record of it was rejected — nothing of it written or found
 * unchanged, so nothing it carries is served. A rejected file is in `done/`, as every file read to its end (its import
 * finished, whatever its lines: docs/operating.md#the-inbox), and fails the invocation as a failed one does (the
 * `ImportFailing` alarm).
 */
export type FileOutcome = FileOutcomeFolder | 'incoming' | 'rejected';

/** The folder a file is in after its outcome. */
export const outcomeFolder = (outcome: FileOutcome): FileOutcomeFolder | 'incoming' =>
  outcome === 'rejected' ? 'done' : outcome;

/** The report of one file. */
export interface FileReport {
  /** The file's path under `incoming/` (and under its folder now). */
  readonly file: string;
  /** What became of it (`FileOutcome`): the folder it went to, or `rejected` (in `done/`). */
  readonly outcome: FileOutcome;
  /** Set for a snapshot: the vendor whose complete set it is. */
  readonly snapshotOf?: string;
  /** Records in the file (every non-blank line of NDJSON, every element of an array). */
  readonly read: number;
  readonly written: number;
  readonly unchanged: number;
  readonly rejected: number;
  /** Vacancies a snapshot closed because the file does not have them. */
  readonly closed: number;
  readonly rejections: readonly RejectedLine[];
  /** Records taken with a warning (a listable vacancy without pay in the EU), and each with its line and why. */
  readonly warnings: number;
  readonly warningLines: readonly RejectedLine[];
  /** Lines of valid records not written, when the import could not finish. */
  readonly notWritten?: readonly number[];
  /** Why the file was not imported, or not completely, or was held or rejected; absent when it is done. */
  readonly reason?: string;
  /** A snapshot's closing limit as checked: how many active vacancies it closes, of how many, and the limit. */
  readonly guard?: ClosingLimitCheck;
  /** Set when the file could not be moved to its folder: it was renamed or removed while it was imported. */
  readonly notMoved?: string;
  /** Seconds from the start of the file to its report. */
  readonly seconds: number;
}

/** What a report is made from. */
type ReportInputs =
  | { readonly path: string; readonly file?: InboxFile; readonly failed: string; readonly seconds: number }
  | {
      readonly path: string;
      readonly file: InboxFile;
      readonly outcome: FileReport['outcome'];
      readonly read: number;
      readonly report: ImportReport | SnapshotReport;
      /** Over every try: what the tries wrote and closed. */
      readonly written: number;
      readonly closed: number;
      readonly seconds: number;
    };

/** A file's report. */
export function fileReport(inputs: ReportInputs): FileReport {
  const snapshotOf = inputs.file?.snapshotOf;
  const base = { file: inputs.path, ...(snapshotOf !== undefined && { snapshotOf }) };
  if ('failed' in inputs) {
    return {
      ...base,
      outcome: 'failed',
      read: 0,
      written: 0,
      unchanged: 0,
      rejected: 0,
      closed: 0,
      rejections: [],
      warnings: 0,
      warningLines: [],
      reason: inputs.failed,
      seconds: inputs.seconds,
    };
  }
  const { report } = inputs;
  const held = 'held' in report ? report.held : undefined;
  return {
    ...base,
    outcome: inputs.outcome,
    read: inputs.read,
    written: inputs.written,
    unchanged: report.unchanged,
    rejected: report.rejected.length,
    closed: inputs.closed,
    rejections: report.rejected.map(({ line, reasons }) => ({ line, reason: reasons.join('; ') })),
    warnings: report.warnings.length,
    warningLines: report.warnings,
    ...(report.interrupted && { notWritten: report.notWritten, reason: report.interrupted }),
    ...(held && { reason: held }),
    ...(inputs.outcome === 'rejected' && {
      reason: `every record of the file was rejected (${inputs.read} of ${inputs.read}): none was imported; see rejections`,
    }),
    ...('guard' in report && { guard: report.guard }),
    seconds: inputs.seconds,
  };
}

/** A report as the function logs it: every count, without the lists (a file may reject thousands of lines). */
export function inboxLogLine(
  report: FileReport,
): Omit<FileReport, 'rejections' | 'warningLines' | 'notWritten'> {
  const { rejections: _rejections, warningLines: _warningLines, notWritten: _notWritten, ...line } = report;
  return line;
}
