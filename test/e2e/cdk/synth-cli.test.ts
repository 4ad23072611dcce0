/**
 * `npm run synth` as an operator runs it (docs/operating.md#deploy): the real CDK CLI, offline, with no credentials,
 * with no AWS configuration at all and with a region set — the CLI always hands the app a region, so an ARN built
 * from the stack comes out concrete — and a setting it refuses. Each setting profile docs/operating.md shows is the
 * same app (`lib/synth/app.ts`, what `bin/app.ts` runs) given that profile as `-c` gives it — string values, the
 * CLI's region — synthesized once in the run's synth process (`testkit/synth-server.ts`) rather than through a CLI of
 * its own: a CLI synth costs 14 s of CPU, and what a profile changes is the template and cdk-nag's findings, not how
 * the CLI runs the app. Every synth ends with cdk-nag's clean summary. The in-process synth with an account and a
 * region is in stack.test.ts ("cdk-nag").
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { appSynth } from '../../../testkit/synth-server';

const ROOT = new URL('../../../', import.meta.url).pathname;
const OPERATING = readFileSync(join(ROOT, 'docs/operating.md'), 'utf8');
/** Every synth of this file writes under here (never the operator's `cdk.out/`), removed at the end. */
const SCRATCH = mkdtempSync(join(tmpdir(), 'synth-cli-'));
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

/** A CLI run that may take long on a loaded machine: bundling five functions, then cdk-nag. */
const SYNTH_TIMEOUT_MS = 240_000;

interface SynthRun {
  readonly code: number;
  readonly output: string;
  readonly template: { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
}

/**
 * `npm run synth -- --output <dir> -c …` in an environment with no AWS configuration: a home of its own (no
 * `~/.aws`), no credentials, no instance metadata; `region` sets `AWS_REGION` alone.
 */
function synth(name: string, context: Record<string, string> = {}, region?: string): Promise<SynthRun> {
  const home = join(SCRATCH, name);
  const output = join(home, 'cdk.out');
  const env: Record<string, string> = {
    PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    HOME: home,
    AWS_CONFIG_FILE: join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(home, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    ...(region && { AWS_REGION: region }),
  };
  const args = [
    'run',
    'synth',
    '--',
    '--output',
    output,
    ...Object.entries(context).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  ];
  return new Promise((resolve) => {
    execFile('npm', args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const file = (() => {
        try {
          return readdirSync(output).find((entry) => entry.endsWith('.template.json'));
        } catch {
          return undefined;
        }
      })();
      resolve({
        code: error ? Number(error.code ?? 1) : 0,
        output: `${stdout}${stderr}`,
        template: file ? JSON.parse(readFileSync(join(output, file), 'utf8')) : { Resources: {} },
      });
    });
  });
}

const CLEAN = /AwsSolutions checks \(cdk-nag\): success — 0 errors, 0 warnings, \d+ acknowledged/;
const typesOf = (run: Pick<SynthRun, 'template'>, type: string) =>
  Object.values(run.template.Resources).filter((resource) => resource.Type === type);

describe('npm run synth, as an operator runs it', () => {
  it(
    'synthesizes with no AWS configuration at all (the CDK CLI picks us-east-1), cdk-nag clean',
    async () => {
      const run = await synth('bare');
      expect(run.output).toMatch(CLEAN);
      expect(run.code).toBe(0);
      // The region the CLI handed the app is in the ARNs it built: the case an acknowledgement once missed.
      expect(JSON.stringify(run.template)).toContain(':scheduler:us-east-1:');
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'synthesizes with AWS_REGION=eu-central-1, cdk-nag clean, and prints the counts docs/operating.md shows',
    async () => {
      const run = await synth('region', {}, 'eu-central-1');
      expect(run.output).toMatch(CLEAN);
      expect(run.code).toBe(0);
      expect(JSON.stringify(run.template)).toContain(':scheduler:eu-central-1:');
      // The acknowledged findings and the CLI's notice of feature flags, as the docs' example of the end of a synth.
      const counts = (text: string) => [
        /(\d+) feature flags are not configured/.exec(text)?.[1],
        /0 errors, 0 warnings, (\d+) acknowledged/.exec(text)?.[1],
      ];
      const documented = /```text\n(\d+ feature flags[\s\S]*?)```/.exec(OPERATING)?.[1] ?? '';
      expect(counts(documented)).toEqual(counts(run.output));
      expect(counts(run.output)).not.toContain(undefined);
    },
    SYNTH_TIMEOUT_MS,
  );

  // Each profile docs/operating.md shows (Deploy, A custom domain, Dev and prod side by side, Settings,
  // Monitoring profiles): 0 unacknowledged findings in each.
  const profiles: [
    string,
    Record<string, string>,
    string | undefined,
    (run: Pick<SynthRun, 'template'>) => void,
  ][] = [
    [
      'monitoring=detailed, alarms by e-mail',
      { monitoring: 'detailed', alarmEmail: 'ops@example.az' },
      'eu-central-1',
      (run) => {
        expect(typesOf(run, 'AWS::CloudWatch::Dashboard')).toHaveLength(1);
        expect(typesOf(run, 'AWS::SNS::Subscription')).toHaveLength(1);
      },
    ],
    [
      'the per-IP limit of AWS WAF',
      { wafRateLimit: '1000' },
      undefined,
      (run) => expect(typesOf(run, 'AWS::WAFv2::WebACL')).toHaveLength(1),
    ],
    [
      'a custom domain with a hosted zone, a base path, the execute-api endpoint off',
      {
        domainName: 'api.example.az',
        certificateArn:
          'arn:aws:acm:eu-central-1:123456789012:certificate/0b6e7c55-6f3c-4b7a-9d5e-1f2a3b4c5d6e',
        hostedZoneId: 'Z0123456789ABCDEFGHIJ',
        basePath: 'v1',
        disableExecuteApiEndpoint: 'true',
      },
      'eu-central-1',
      (run) => {
        expect(typesOf(run, 'AWS::ApiGateway::DomainName')).toHaveLength(1);
        expect(typesOf(run, 'AWS::Route53::RecordSet')).toHaveLength(1);
      },
    ],
    [
      'a dev stack beside prod: its own name and stage, destroyed with the stack, no tracing',
      {
        stackName: 'VendorVacancyApi-dev',
        stageName: 'dev',
        destroyOnRemoval: 'true',
        tracing: 'false',
        logRetentionDays: '7',
        authorizerCacheSeconds: '0',
      },
      undefined,
      (run) =>
        expect(
          typesOf(run, 'AWS::DynamoDB::Table').every(
            (table) => table.Properties?.DeletionProtectionEnabled !== true,
          ),
        ).toBe(true),
    ],
    [
      'service settings: tiers, locale, time zone, JobPosting, snapshots, webhook retries, links',
      {
        rateTiers: '{"standard":{"rate":10,"burst":20},"premium":{"rate":40,"burst":80}}',
        defaultRateTier: 'standard',
        defaultLocale: 'en',
        serviceTimeZone: 'europe/berlin',
        defaultPerPage: '20',
        jobCountry: 'DE',
        salaryCurrency: 'EUR',
        salaryPeriod: 'YEAR',
        snapshotMaxClose: '50',
        webhookRetrySchedule: '5,60,600',
        publicBaseUrl: 'https://jobs-api.example.az',
      },
      'eu-central-1',
      // The two tiers given, and the browser and agent tiers every deployment has.
      (run) => expect(typesOf(run, 'AWS::ApiGateway::UsagePlan')).toHaveLength(4),
    ],
  ];
  it.each(profiles)(
    'synthesizes %s, cdk-nag clean',
    async (_name, context, region, check) => {
      const run = await appSynth({ ...context, ...(region && { region }) });
      expect(run.findings).toMatch(CLEAN);
      expect(run.failure).toBeUndefined();
      check(run);
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'stops on a setting it does not allow, in one line, and writes no template',
    async () => {
      const run = await synth('refused', { wafRateLimit: '5' });
      expect(run.code).not.toBe(0);
      expect(run.output).toContain('Invalid setting: wafRateLimit = "5" is not allowed');
      expect(run.output).not.toMatch(/\n\s+at /);
      expect(run.template.Resources).toEqual({});
    },
    SYNTH_TIMEOUT_MS,
  );
});
