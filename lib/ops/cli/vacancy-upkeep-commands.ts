/**
 * `vacancies expire|purge|recount`: the service's upkeep, on demand (docs/operating.md#upkeep). `expire` runs the
 * scheduled expiry job's own code; `purge` removes old tombstones; `recount` makes a vendor's summary current again.
 */

import { setTimeout as wait } from 'node:timers/promises';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { countMatching } from '../../../lambda/domain/schema/summary';
import { recountSummary } from '../../../lambda/domain/store/recount';
import { SummaryStore } from '../../../lambda/domain/store/summary-store';
import { runExpiry } from '../../../lambda/functions/expiry/job';
import type { ZoneClock } from '../../../lambda/platform/time/zone-clock';
import { UserError } from '../errors';
import type { Target } from '../target';
import { purgeTombstones } from '../vacancies';
import { getVendorRecord, listVendors } from '../vendors';
import { interruptible } from './interruptible';
import { action, parse } from './program';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// An instant with its offset: 2026-10-01T00:00:00Z, 2026-10-01T04:00:00+04:00 (fractions of a second allowed).
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

/** `--before`: a date (the start of that day in the service zone, resolved later) or an instant with its offset. */
function parseBefore(value: string): string {
  const valid =
    (DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) ||
    (INSTANT.test(value) && !Number.isNaN(Date.parse(value)));
  if (!valid) {
    throw new InvalidArgumentError(
      'Not a date (2026-10-01) or an instant with its offset (2026-10-01T00:00:00Z).',
    );
  }
  return value;
}

/** The service zone's clock, which a command that works in days needs. */
function zoneOf(target: Target, what: string): ZoneClock {
  if (!target.clock) {
    throw new UserError(`${what} needs the service time zone: give --time-zone, or use --stack.`);
  }
  return target.clock;
}

/** The vendors a command works on: the one named (which must exist), or every vendor. */
async function vendorsOf(target: Target, vendorId: string | undefined): Promise<string[]> {
  if (vendorId === undefined) {
    return (await listVendors(target.documentClient, target.tables.vendors)).map((vendor) => vendor.vendorId);
  }
  if (!(await getVendorRecord(target.documentClient, target.tables.vendors, vendorId))) {
    throw new UserError(`vendor ${vendorId} does not exist.`);
  }
  return [vendorId];
}

/** Adds the upkeep commands to the `vacancies` group. */
export function addVacancyUpkeepCommands(vacancies: Command): void {
  vacancies
    .command('expire')
    .description(
      'record as expired every active vacancy whose deadline has passed, and recount the summaries that need it (what the hourly schedule runs)',
    )
    .action(
      action(async (target) => {
        const clock = zoneOf(target, 'expire');
        const interruption = interruptible();
        try {
          const report = await runExpiry({
            client: target.documentClient,
            tables: target.tables,
            clock,
            signal: interruption.signal,
            ...(target.summaryGuard && { guard: target.summaryGuard }),
          });
          const lines = [
            `expired ${report.expired} vacancies of ${report.vendors.length} vendors (deadlines before ${report.today}, ${clock.zone})`,
            `recounted ${report.recounted.length} summaries${report.recounted.length > 0 ? ` (${report.recounted.join(', ')})` : ''}`,
          ];
          if (report.busy.length > 0) {
            lines.push(
              `not recounted, a writer is at work: ${report.busy.join(', ')}; the next run recounts them once it is done.`,
            );
          }
          if (!report.finished) lines.push('interrupted: run it again to finish.');
          return { data: report, text: lines, exitCode: report.finished ? 0 : 1 };
        } finally {
          interruption.release();
        }
      }),
    );

  vacancies
    .command('purge')
    .description(
      "remove deleted vacancies' tombstones older than a date; a sync from before it must start over (410)",
    )
    .requiredOption(
      '--before <date>',
      'a date (the start of that day in the service time zone) or an instant with its offset',
      parseBefore,
    )
    .option('--vendor <vendorId>', "only this vendor's (default: every vendor's)", parse.vendorId)
    .action(
      action(async (target, options) => {
        const given = options.before ?? '';
        const before = DATE.test(given)
          ? zoneOf(target, 'purge --before <date>').fromLocal(`${given} 00:00:00`).getTime()
          : Date.parse(given);
        if (before > Date.now()) throw new UserError(`--before ${given} is in the future.`);
        // No change is stamped before 1970: there is nothing to purge, and no key holds such a time.
        if (before <= 0)
          throw new UserError(
            `--before ${given} is not after 1970-01-01T00:00:00Z: there is nothing before it.`,
          );
        const reports = [];
        for (const vendorId of await vendorsOf(target, options.vendor)) {
          reports.push(
            await purgeTombstones(target.documentClient, target.tables, vendorId, before, {
              guard: target.summaryGuard,
            }),
          );
        }
        return {
          data: reports,
          text: [
            ...reports.map(
              (report) =>
                `${report.vendorId}: removed ${report.removed} tombstones; syncs from before ${new Date(report.purgedBefore).toISOString()} start over`,
            ),
            `purged ${reports.reduce((sum, report) => sum + report.removed, 0)} tombstones of ${reports.length} vendors`,
          ],
        };
      }),
    );

  vacancies
    .command('recount')
    .description(
      "count a vendor's active vacancies anew, making its summary current (after an interrupted writer)",
    )
    .requiredOption('--vendor <vendorId>', 'the vendor', parse.vendorId)
    .action(
      action(async (target, options) => {
        const [vendorId = ''] = await vendorsOf(target, options.vendor);
        const outcome = await recountSummary(vendorId, {
          client: target.documentClient,
          tables: target.tables,
          // The wait is the settle window (docs/design.md#the-summary): said, so that it does not look like a hang.
          sleep: (ms) => {
            if (!options.json)
              console.error(
                `waiting ${ms / 1000} s for the latest writes to reach the index, then counting…`,
              );
            return wait(ms);
          },
        });
        if (outcome === 'busy') {
          throw new UserError(
            `a writer is at work on vendor ${vendorId}'s vacancies: run this again once it is done (if it was stopped, its lease can be taken over 6 minutes later: a minute for the lease to run out, 5 for any write it sent to land).`,
          );
        }
        const { summary } = await new SummaryStore(target.documentClient, target.tables.vendors).read(
          vendorId,
        );
        const active = summary ? countMatching(summary, {}) : 0;
        return {
          data: { vendorId, recounted: true, active },
          text: `recounted vendor ${vendorId}'s summary: ${active} active vacancies`,
        };
      }),
    );
}
