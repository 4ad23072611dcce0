/**
 * `vacancy-admin smoke`: proves a deployment end to end after a deploy (docs/operating.md#smoke-check), with a
 * temporary vendor of its own that it removes afterwards. One line per check as it runs; `--json` for a report.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors';
import { type CheckResult, DEFAULT_CHANGE_WAIT_SECONDS, runSmoke, type SmokeReport } from '../smoke/run';
import { interruptible } from './interruptible';
import { action, describeError, type Options, parse } from './program';
import { urlRules } from './webhook-commands';

/** The options of `smoke` besides the global ones. */
interface SmokeCommandOptions extends Options {
  readonly apiUrl?: string;
  readonly webhookUrl?: string;
  readonly wait?: number;
}

/** A result's line: `ok  <check>` or `FAIL <check>: <why>`. */
export function resultLine(result: CheckResult): string {
  return result.ok ? `ok  ${result.name}` : `FAIL ${result.name}: ${result.error ?? 'failed'}`;
}

/** Adds `smoke`. */
export function addSmokeCommand(program: Command): void {
  program
    .command('smoke')
    .description(
      'after a deploy: prove the API end to end with a temporary vendor of its own (keys, vacancies, every check over HTTP), then remove it',
    )
    .option(
      '--api-url <url>',
      "the API's base URL, e.g. http://127.0.0.1:3000 (default with --stack: its ApiUrl output)",
      parse.endpoint,
    )
    .option(
      '--webhook-url <url>',
      'a receiver that answers 2xx: add it as an endpoint of the temporary vendor and wait for a delivery',
    )
    .option(
      '--wait <seconds>',
      `how long a change may take to reach a sync or the webhook receiver (default ${DEFAULT_CHANGE_WAIT_SECONDS})`,
      parse.integer,
    )
    .action(
      action(async (target, options) => {
        const { apiUrl = target.apiUrl, webhookUrl, wait, json } = options as SmokeCommandOptions;
        if (!apiUrl)
          throw new UsageError(
            "no API to check: give --api-url <url> (the local server's, or a stack's ApiUrl output), or --stack <name>.",
          );
        if (!json) console.log(`smoke check of ${apiUrl} (${target.description})`);
        // Ctrl-C ends the checks, never the cleanup: what was made is removed all the same.
        const interruption = interruptible();
        let report: SmokeReport;
        try {
          report = await runSmoke(target, {
            apiUrl,
            ...(webhookUrl !== undefined && { webhook: { url: webhookUrl, rules: urlRules(target) } }),
            ...(wait !== undefined && { changeWaitMs: wait * 1_000 }),
            explain: (error) => describeError(error, target).message,
            ...(!json && { onResult: (result: CheckResult) => console.log(resultLine(result)) }),
            signal: interruption.signal,
          });
        } finally {
          interruption.release();
        }
        const results = [...report.checks, ...report.cleanup];
        const failed = results.filter((result) => !result.ok).length;
        const seconds = (report.durationMs / 1000).toFixed(1);
        const made = report.vendorId === null ? 'nothing was made' : `vendor ${report.vendorId}`;
        return {
          data: report,
          text: report.ok
            ? `passed: ${results.length} checks in ${seconds} s; ${made} removed (suspended, keys revoked, vacancies purged)`
            : `FAILED: ${failed} of ${results.length} checks${report.notRun.length > 0 ? `, ${report.notRun.length} not run` : ''} (${seconds} s); ${made}`,
          exitCode: report.ok ? 0 : 1,
        };
      }),
    );
}
