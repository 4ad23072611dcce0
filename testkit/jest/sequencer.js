/**
 * The order test files start in: Jest's own (the files that failed last time first, then the longest first, from
 * the timings Jest keeps of earlier runs in its cache), with a starting estimate for the files that wait longest,
 * for a run with no cache yet (a new clone, CI). Without it such a run orders by file size, and a short file that
 * runs for two minutes (the real CDK CLI's synths, the crash harness) could start last and end the run alone,
 * long after the other workers went idle. Files neither named here nor timed yet start last.
 */
import TestSequencer from '@jest/test-sequencer';

/**
 * Seconds a file took in a full run (`VVA_TEST_CPU`'s wall times, 2026-12-08, 2 cores, four workers), by the end of
 * its path: every file that took 12 s or more. Only their order matters; the rest start after them.
 */
export const ESTIMATES = {
  'e2e/docs/transcripts.test.ts': 118,
  'integration/lambda/domain/answers/sync.faults.test.ts': 62,
  'e2e/crash/crash-harness.test.ts': 56,
  'e2e/cdk/synth-cli.test.ts': 56,
  'e2e/examples/sync-client.test.ts': 43,
  'e2e/cli/smoke.test.ts': 38,
  'e2e/cli/admin.test.ts': 38,
  'integration/lib/local/webhook-runner.test.ts': 34,
  'e2e/cli/feed.test.ts': 32,
  'integration/lib/stack/bundling.test.ts': 29,
  'integration/lambda/domain/store/summary-leases.property.test.ts': 28,
  'e2e/crash/feed-build-kill.test.ts': 26,
  'e2e/browser/vacancy-board.test.ts': 26,
  'e2e/http/fault-matrix.test.ts': 25,
  'integration/lambda/functions/inbox/inbox.fuzz.test.ts': 25,
  'integration/lambda/functions/feeds/build.memory.test.ts': 22,
  'e2e/examples/webhook-receiver.test.ts': 20,
  'unit/lambda/domain/feed-formats/indeed.memory.test.ts': 20,
  'integration/lambda/domain/store/writers.late-answers.test.ts': 19,
  'integration/lib/local/engine-repair.test.ts': 18,
  'unit/lambda/domain/feed-formats/sitemap.test.ts': 18,
  'unit/lambda/domain/feed-formats/xml-text.property.test.ts': 18,
  'integration/lambda/domain/import/snapshot.test.ts': 17,
  'integration/lib/ops/smoke/run.test.ts': 17,
  'e2e/browser/reference-page.test.ts': 17,
  'e2e/examples/newcomer.test.ts': 16,
  'e2e/cli/agent.test.ts': 16,
  'e2e/http/sync.test.ts': 16,
  'integration/lambda/functions/mcp/factory.property.test.ts': 16,
  'integration/lib/stack/vacancy-api-stack.test.ts': 15,
  'e2e/http/request-log.test.ts': 15,
  'integration/lib/ops/webhooks.test.ts': 14,
  'integration/lambda/functions/inbox/s3-objects.test.ts': 14,
  'e2e/http/data-dir-restart.test.ts': 14,
  'e2e/http/feed-builds.test.ts': 13,
  'e2e/http/rate-limits.test.ts': 13,
  'e2e/http/mcp-inspector.test.ts': 12,
  'integration/lambda/domain/answers/listing.property.test.ts': 12,
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
