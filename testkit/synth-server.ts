/**
 * The stack synthesized for the tests once per run and context, in a process of its own: `testkit/jest/global-setup.ts`
 * starts it (run as a script, it prints its address and answers until its standard input closes), and
 * `sharedStackTemplate` and `sharedSynthesizedTemplate` ask it. A synthesis costs seconds of CPU, the first in a
 * process several (the CDK's modules and their JIT), and a Jest worker also pays for the CDK's garbage in every later
 * file it runs; a dozen files ask for the same few contexts. Here each context is synthesized once, by the same code
 * (`testkit/stack.ts`, `lib/synth/template.ts`), and every file gets the template as JSON.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnTemplate } from '../lib/synth/template';

/**
 * Which synthesis: the tests' stack (`stackTemplate`), `npm run cost|stateful|inventory`'s (`synthesizedTemplate`), or
 * the app `cdk synth` runs, cdk-nag and the CDK's CloudFormation validation with it (`appSynth`).
 */
export type SynthKind = 'test' | 'template' | 'app';

interface SynthRequest {
  readonly kind: SynthKind;
  readonly context: Record<string, unknown>;
}

/** What the app's synth gave: the template, cdk-nag's findings on one screen, and the error that stopped it, if any. */
export interface AppSynth {
  readonly template: {
    readonly Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  };
  readonly findings: string;
  readonly failure?: string;
}

/** The variable that names the run's synth process (`http://127.0.0.1:<port>`). */
export const SYNTH_URL_VARIABLE = 'VVA_SYNTH_URL';

async function synthesizeHere({ kind, context }: SynthRequest): Promise<Record<string, unknown>> {
  if (kind === 'app') return (await appSynthHere(context)) as unknown as Record<string, unknown>;
  if (kind === 'test') {
    const { stackTemplate } = await import('./stack');
    return stackTemplate(context).toJSON();
  }
  // The CDK's CloudFormation validation of a template (its WebAssembly engine: seconds a synth) is the app's, which
  // `appSynth` and `npm run synth` run; what a test reads off a template is not it. `synthesizedTemplate` makes its
  // own App, so the CDK's variable turns it off (`stackTemplate` passes the App's option).
  process.env.CDK_VALIDATION = 'false';
  try {
    const { synthesizedTemplate } = await import('../lib/synth/template');
    return synthesizedTemplate(context) as unknown as Record<string, unknown>;
  } finally {
    delete process.env.CDK_VALIDATION;
  }
}

/**
 * `composeApp` (`lib/synth/app.ts`, what `bin/app.ts` runs) on `cdk.json`'s context and `context` — its values strings,
 * as `cdk synth -c name=value` hands them — in the region `cdk synth` picks without one (`us-east-1`) unless
 * `context.region` says, with no account, and without bundles: the template and what cdk-nag found.
 */
async function appSynthHere(given: Record<string, unknown>): Promise<AppSynth> {
  const [{ App }, { composeApp }, { summarizeValidationReport }, { CDK_CONTEXT }] = await Promise.all([
    import('aws-cdk-lib'),
    import('../lib/synth/app'),
    import('../lib/synth/validation-summary'),
    import('./stack'),
  ]);
  const { region = 'us-east-1', ...context } = given;
  const outdir = mkdtempSync(join(tmpdir(), 'app-synth-'));
  try {
    const app = new App({ outdir, context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] } });
    const stack = composeApp(app, { region: String(region) });
    const failure = (() => {
      try {
        app.synth();
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    })();
    const report = join(outdir, 'validation-report.json');
    const template = join(outdir, stack.templateFile);
    return {
      template: existsSync(template) ? JSON.parse(readFileSync(template, 'utf8')) : { Resources: {} },
      findings: existsSync(report)
        ? summarizeValidationReport(JSON.parse(readFileSync(report, 'utf8'))).join('\n')
        : '',
      ...(failure !== undefined && { failure }),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The template of the stack of `kind` for `context` (over `cdk.json`'s), as JSON: from the run's synth process, or
 * synthesized here when there is none (a file run outside Jest's global setup). A setting the stack refuses
 * rejects with the stack's error (its name and message).
 */
export async function sharedTemplate(
  kind: SynthKind,
  context: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const url = process.env[SYNTH_URL_VARIABLE];
  if (!url) return synthesizeHere({ kind, context });
  const response = await fetch(url, { method: 'POST', body: JSON.stringify({ kind, context }) });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status === 200) return body;
  const error = new Error(String(body.message));
  error.name = String(body.name);
  throw error;
}

/**
 * `stackTemplate(context)` (`testkit/stack.ts`), synthesized once per test run and context: what every test of the
 * template uses. A setting the stack refuses rejects with its error; `stackTemplate` itself is for a test of such a
 * refusal.
 */
export async function sharedStackTemplate(context: Record<string, unknown> = {}): Promise<Template> {
  const { Template } = await import('aws-cdk-lib/assertions');
  return Template.fromJSON(await sharedTemplate('test', context));
}

/** `synthesizedTemplate(overrides)` (`npm run cost|stateful|inventory`'s), once per test run and overrides. */
export async function sharedSynthesizedTemplate(
  overrides: Record<string, unknown> = {},
): Promise<CfnTemplate> {
  return (await sharedTemplate('template', overrides)) as unknown as CfnTemplate;
}

/**
 * The app `cdk synth` runs (`lib/synth/app.ts`), composed with `context` (`region` among it: the region `cdk synth`
 * would be given), synthesized once per test run and context: its template and cdk-nag's findings.
 */
export async function appSynth(context: Record<string, unknown> = {}): Promise<AppSynth> {
  return (await sharedTemplate('app', context)) as unknown as AppSynth;
}

/** A stable key of a request: the context's keys in order. */
const keyOf = ({ kind, context }: SynthRequest) =>
  `${kind} ${JSON.stringify(Object.fromEntries(Object.entries(context).sort(([a], [b]) => a.localeCompare(b))))}`;

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const done = new Map<string, Promise<{ status: number; body: string }>>();
  // One synthesis at a time: each is all CPU.
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const asked = JSON.parse(text) as SynthRequest;
      const key = keyOf(asked);
      let answer = done.get(key);
      if (!answer) {
        answer = queue.then(() =>
          synthesizeHere(asked).then(
            (template) => ({ status: 200, body: JSON.stringify(template) }),
            (error: Error) => ({
              status: 422,
              body: JSON.stringify({ name: error.name, message: error.message }),
            }),
          ),
        );
        queue = answer;
        done.set(key, answer);
      }
      // A connection a request: a kept one the server closed meanwhile is reset under the next (ECONNRESET).
      void answer.then(({ status, body }) =>
        response.writeHead(status, { 'content-type': 'application/json', connection: 'close' }).end(body),
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  // Ends with the run that started it, however that run ends.
  process.stdin.resume();
  process.stdin.on('close', () => process.exit(0));
}
