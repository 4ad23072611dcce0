/**
 * The stack's template as `cdk synth` builds it from `cdk.json` and `-c` overrides, in-process (bundling skipped:
 * code changes neither the bill, nor what gets deployed, nor what holds data). What `npm run cost`, `npm run
 * stateful` and docs/operating.md's generated tables read.
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { readSettings } from '../settings';
import { VacancyApiStack } from '../stack/vacancy-api-stack';

/** A synthesized template: its resources. */
export interface CfnTemplate {
  readonly Resources: Readonly<
    Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }>
  >;
}

/** The template of the stack for `cdk.json`'s context and `overrides`, as `cdk synth -c …` would build it. */
export function synthesizedTemplate(overrides: Record<string, unknown> = {}): CfnTemplate {
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const app = new App({ context: { ...context, ...overrides, 'aws:cdk:bundling-stacks': [] } });
  const stack = new VacancyApiStack(app, 'Template', {
    settings: readSettings((key) => app.node.tryGetContext(key)),
    env: { account: '123456789012', region: 'us-east-1' },
  });
  return app.synth().getStackByName(stack.stackName).template as CfnTemplate;
}
