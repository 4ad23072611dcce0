/**
 * The order test files start in: Jest's own (the files that failed last time first, then the longest first, from
 * the timings Jest keeps of earlier runs in its cache), with a starting estimate for the files that wait longest,
 * for a run with no cache yet (a new clone, CI). Without it such a run orders by file size, and a short file that
 * runs for two minutes (the real CDK CLI's synths, the crash harness) could start last and end the run alone,
 * long after the other workers went idle. Files neither named here nor timed yet start last.
 */
import TestSequencer from '@jest/test-sequencer';

/** Seconds a file took, alone in one worker (a full run on 2026-11-26), by the end of its path. */
export const ESTIMATES = {
  'integration/lib/local/webhook-runner.test.ts': 74,
  'e2e/docs/transcripts.test.ts': 71,
  'e2e/crash/crash-harness.test.ts': 62,
  'integration/lambda/domain/answers/sync.faults.test.ts': 57,
  'e2e/cdk/synth-cli.test.ts': 56,
  'e2e/examples/sync-client.test.ts': 37,
  'e2e/cli/admin.test.ts': 33,
  'integration/lib/synth/inventory.test.ts': 32,
  'e2e/cli/smoke.test.ts': 30,
  'e2e/docs/sync-hint.test.ts': 18,
  'integration/lib/ops/smoke/run.test.ts': 17,
  'e2e/examples/webhook-receiver.test.ts': 16,
  'e2e/http/fault-matrix.test.ts': 24,
  // Measured alone on 2026-11-28 (and the build's at 5,000 on 2026-12-07): a load and build, npm start's feed rounds.
  'integration/lambda/functions/feeds/build.memory.test.ts': 12,
  'e2e/http/feed-builds.test.ts': 24,
  // Measured alone on 2026-12-07: some twenty runs of the CLI, each a process of its own, and npm start.
  'e2e/cli/agent.test.ts': 32,
};

/** Jest's sequencer, with `ESTIMATES` for files its cache has no time for. */
export default class EstimatingSequencer extends (TestSequencer.default ?? TestSequencer) {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const path = test.path.replaceAll('\\', '/');
    const known = Object.keys(ESTIMATES).find((end) => path.endsWith(`/${end}`));
    // Every file gets a time: Jest starts the files it has no time for before all the others.
    return known === undefined ? 0 : ESTIMATES[known] * 1000;
  }
}
