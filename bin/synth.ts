#!/usr/bin/env node
/**
 * `npm run synth`: `cdk synth` without printing the template (it is in cdk.out/; `npx cdk synth` prints it), then
 * cdk-nag's findings on one screen and where the full report is. Extra arguments go to `cdk synth` (`-c name=value`,
 * `--output <dir>`, say). Exits as `cdk synth` did: non-zero when a finding is neither fixed nor acknowledged.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { summarizeValidationReport, type ValidationReport } from '../lib/synth/validation-summary';

const ROOT = new URL('../', import.meta.url).pathname;
const args = process.argv.slice(2);
/** Where `cdk synth` writes the cloud assembly: `cdk.out/` unless `--output` / `-o` says otherwise. */
const output = (() => {
  const at = args.findIndex((arg) => arg === '--output' || arg === '-o');
  const given =
    at >= 0 ? args[at + 1] : args.find((arg) => arg.startsWith('--output='))?.slice('--output='.length);
  return given ?? 'cdk.out';
})();
const REPORT = join(output, 'validation-report.json');

const synth = spawnSync(join(ROOT, 'node_modules/.bin/cdk'), ['synth', '--quiet', ...args], {
  cwd: ROOT,
  stdio: 'inherit',
});
const report = resolve(ROOT, REPORT);
if (existsSync(report)) {
  const lines = summarizeValidationReport(JSON.parse(readFileSync(report, 'utf8')) as ValidationReport);
  console.log(
    [
      '',
      ...lines,
      '',
      `Full report: ${REPORT}; the template: ${join(output, '*.template.json')} (npx cdk synth prints it).`,
    ].join('\n'),
  );
}
process.exit(synth.status ?? 1);
