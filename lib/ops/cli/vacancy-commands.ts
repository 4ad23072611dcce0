import { createReadStream } from 'node:fs';
import type { Command } from 'commander';
import { ImportFileError } from '../../../lambda/domain/import/errors';
import { readImportFile } from '../../../lambda/domain/import/file';
import {
  type CheckedRecords,
  checkRecords,
  type ImportReport,
  importVacancies,
} from '../../../lambda/domain/import/import';
import { importSnapshot, maxCloseNeeded, type SnapshotReport } from '../../../lambda/domain/import/snapshot';
import { VACANCY_STATUSES, type VacancyStatus } from '../../../lambda/domain/schema/vacancy';
import { DEFAULT_SETTINGS } from '../../../lambda/domain/settings/settings';
import { UserError } from '../errors';
import { progressBar } from '../progress';
import { deleteVacancy, setVacancyStatus } from '../vacancies';
import { interruptible } from './interruptible';
import { action, parse, pointTo } from './program';
import { addVacancyUpkeepCommands } from './vacancy-upkeep-commands';

/** `3, 5-9, 12`: line numbers, runs of consecutive lines shortened. */
export function lineRanges(lines: readonly number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j += 1;
    ranges.push(i === j ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j + 1;
  }
  return ranges.join(', ');
}

/** The lines an import report prints for people. */
export function reportLines(
  report: ImportReport | SnapshotReport,
  snapshot?: { readonly file: string; readonly vendorId: string },
): string[] {
  // Warnings and rejections in the file's order: each a line of its own.
  const lines = [
    ...report.rejected.map((r) => ({ line: r.line, text: `line ${r.line}: ${r.reasons.join('; ')}` })),
    ...report.warnings.map((w) => ({ line: w.line, text: `line ${w.line}: warning: ${w.reason}` })),
  ]
    .sort((a, b) => a.line - b.line)
    .map(({ text }) => text);
  if ('held' in report && report.held) {
    lines.push(`held: ${report.held}:`);
    if (snapshot) {
      lines.push(
        `  vacancy-admin vacancies import ${snapshot.file} --snapshot --vendor ${snapshot.vendorId} --max-close ${maxCloseNeeded(report.guard)}`,
      );
    }
    return lines;
  }
  if (report.interrupted) {
    lines.push(
      `interrupted: ${report.interrupted}.`,
      `not written: ${report.notWritten.length} records, lines ${lineRanges(report.notWritten)}.`,
      'Run the same file again to complete the import.',
    );
  }
  const verb = report.dryRun ? 'would import' : 'imported';
  lines.push(
    `${verb} ${report.imported}, rejected ${report.rejected.length}, unchanged ${report.unchanged}` +
      ('closed' in report ? `, ${report.dryRun ? 'would close' : 'closed'} ${report.closed}` : '') +
      (report.interrupted ? `, not written ${report.notWritten.length}` : '') +
      (report.warnings.length > 0 ? `, warnings ${report.warnings.length}` : ''),
  );
  return lines;
}

/** The one line for a vacancy a change did not find (or found under another vendor). */
function notChanged(
  id: number,
  outcome: { readonly notFound: true } | { readonly otherVendor: string },
  vendor: string | undefined,
): UserError {
  return new UserError(
    'otherVendor' in outcome
      ? `vacancy ${id} is not a vacancy of ${vendor}.`
      : `vacancy ${id} does not exist.`,
  );
}

/** Why a file could not be read, in words (the system's code in brackets): the usual three by name. */
function whyUnreadable(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const words = new Map([
    ['ENOENT', 'no such file'],
    ['EISDIR', 'it is a folder, not a file'],
    ['EACCES', 'permission denied'],
  ]);
  return typeof code === 'string'
    ? `${words.get(code) ?? 'the system refused it'} (${code})`
    : 'it could not be read';
}

/** `vacancies import|set-status|delete`, and the upkeep commands (`expire`, `purge`, `recount`). */
export function addVacancyCommands(program: Command): void {
  const vacancies = program
    .command('vacancies')
    .description('import vacancies, change their status, delete them; expire, purge and recount');
  vacancies
    .command('import <file>')
    .description(
      'import NDJSON (one record a line) or a JSON array, optionally .gz; every record checked, valid ones upserted by id',
    )
    .option('--dry-run', 'check only; write nothing')
    .option('--snapshot', "the file is the vendor's complete set: close its vacancies the file does not have")
    .option('--vendor <vendorId>', 'the vendor of a --snapshot', parse.vendorId)
    .option(
      '--max-close <percent>',
      `a --snapshot may close up to this share of the vendor's active vacancies (default ${DEFAULT_SETTINGS.snapshotMaxClose}, the setting snapshotMaxClose)`,
      parse.percent,
    )
    .action(
      action(async (target, options, file: string) => {
        if (options.snapshot && !options.vendor) throw new UserError('--snapshot needs --vendor <vendorId>.');
        if (!options.snapshot && (options.vendor || options.maxClose !== undefined)) {
          throw new UserError('--vendor and --max-close go with --snapshot.');
        }
        // Read as a stream and checked as it is read, within the limits of a file (docs/operating.md#imports).
        let records: CheckedRecords;
        try {
          records = await checkRecords(
            readImportFile(createReadStream(file), { compressed: /\.gz$/i.test(file) }),
            target.clock,
          );
        } catch (error) {
          if (error instanceof ImportFileError) throw new UserError(`${file}: ${error.message}.`);
          throw new UserError(`cannot read ${file}: ${whyUnreadable(error)}.`);
        }
        const bar = !options.json && process.stderr.isTTY ? progressBar(process.stderr) : undefined;
        const interruption = interruptible();
        let report: ImportReport | SnapshotReport;
        try {
          const importOptions = {
            clock: target.clock,
            jobCountry: target.jobCountry,
            dryRun: options.dryRun ?? false,
            signal: interruption.signal,
            ...(bar && { onProgress: bar.update }),
            // Should this CLI be killed holding a summary's lease, its guard recovers the summary.
            ...(target.summaryGuard && { guard: target.summaryGuard }),
          };
          report = options.vendor
            ? await importSnapshot(target.documentClient, target.tables, records, {
                ...importOptions,
                vendorId: options.vendor,
                maxClosePercent: options.maxClose ?? DEFAULT_SETTINGS.snapshotMaxClose,
              })
            : await importVacancies(target.documentClient, target.tables, records, importOptions);
        } finally {
          interruption.release();
          bar?.done();
        }
        return {
          data: report,
          text: reportLines(
            report,
            options.snapshot && options.vendor ? { file, vendorId: options.vendor } : undefined,
          ),
          exitCode:
            report.rejected.length > 0 || report.interrupted || ('held' in report && report.held) ? 1 : 0,
        };
      }),
    );

  vacancies
    .command('set-status')
    .description('change the status of a vacancy; any status but active takes it out of the listing')
    .argument('<id>', 'vacancy id', parse.integer)
    .argument('<status>', VACANCY_STATUSES.join(', '), parse.oneOf(VACANCY_STATUSES))
    .option('--vendor <vendorId>', 'change it only if it is a vacancy of this vendor', parse.vendorId)
    .action(
      action(async (target, options, id: number, status: VacancyStatus) => {
        const outcome = await setVacancyStatus(target.documentClient, target.tables, id, status, {
          vendorId: options.vendor,
          clock: target.clock,
          guard: target.summaryGuard,
        });
        if ('unchanged' in outcome) {
          const { v: vendorId, status: already } = outcome.unchanged;
          return {
            data: { id, vendorId, status: already, changed: false },
            text: `vacancy ${id} of ${vendorId} is already ${already}`,
          };
        }
        if (!('changed' in outcome)) throw notChanged(id, outcome, options.vendor);
        const { v: vendorId, status: now } = outcome.now;
        const why = now === status ? '' : ` (its deadline, ${outcome.changed.deadline}, has passed)`;
        return {
          data: { id, vendorId, status: now, changed: true },
          text: `vacancy ${id} of ${vendorId} is now ${now}${why}`,
        };
      }),
    );

  vacancies
    .command('delete')
    .description(
      "delete a vacancy: its tombstone keeps the id its vendor's and tells syncs; importing it again brings it back",
    )
    .argument('<id>', 'vacancy id', parse.integer)
    .option('--vendor <vendorId>', 'delete it only if it is a vacancy of this vendor', parse.vendorId)
    .action(
      action(async (target, options, id: number) => {
        const outcome = await deleteVacancy(target.documentClient, target.tables, id, {
          vendorId: options.vendor,
          guard: target.summaryGuard,
        });
        if ('notFound' in outcome || 'otherVendor' in outcome) throw notChanged(id, outcome, options.vendor);
        // A deletion always changes what a client sees: never `unchanged`.
        const { v: vendorId } = 'changed' in outcome ? outcome.now : outcome.unchanged;
        return { data: { id, vendorId, deleted: true }, text: `vacancy ${id} of ${vendorId} deleted` };
      }),
    );
  addVacancyUpkeepCommands(vacancies);
  // What operators try first (docs/operating.md#the-ops-cli): statuses are set, not verbs of their own.
  pointTo(vacancies, 'close', 'close a vacancy with "vacancies set-status <id> closed"');
  pointTo(vacancies, 'open', 'make a vacancy active with "vacancies set-status <id> active"');
  pointTo(vacancies, 'activate', 'make a vacancy active with "vacancies set-status <id> active"');
  pointTo(vacancies, 'remove', 'delete a vacancy with "vacancies delete <id>"');
}
