#!/usr/bin/env node
/**
 * `npm run synth`: `cdk synth` without printing the template (it is in cdk.out/; `npx cdk synth` prints it), then
 * cdk-nag's findings on one screen and where the full report is. Extra arguments go to `cdk synth` (`-c name=value`,
 * say). Exits as `cdk synth` did: non-zero when a finding is neither fixed nor acknowledged.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeValidationReport, type ValidationReport } from '../lib/synth/validation-summary';

const ROOT = new URL('../', import.meta.url).pathname;
const REPORT = 'cdk.out/validation-report.json';

const synth = spawnSync(join(ROOT, 'node_modules/.bin/cdk'), ['synth', '--quiet', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
const report = join(ROOT, REPORT);
if (existsSync(report)) {
  const lines = summarizeValidationReport(JSON.parse(readFileSync(report, 'utf8')) as ValidationReport);
  console.log(
    [
      '',
      ...lines,
      '',
      `Full report: ${REPORT}; the template: cdk.out/*.template.json (npx cdk synth prints it).`,
    ].join('\n'),
  );
}
process.exit(synth.status ?? 1);
