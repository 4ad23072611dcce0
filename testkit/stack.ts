import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readSettings } from '../lib/settings';
import { VacancyApiStack } from '../lib/stack/vacancy-api-stack';

/** The context of `cdk.json` — settings and feature flags — as `cdk synth` applies it. */
export const CDK_CONTEXT: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../cdk.json', import.meta.url), 'utf8'),
).context;

/**
 * The stack's template for `cdk.json`'s context with overrides, as `cdk synth -c key=value` would build it. Bundling is skipped unless asked for: esbuild output does not change
 * the template, and one test bundles for real.
 */
export function stackTemplate(
  context: Record<string, unknown> = {},
  options: { bundle?: boolean } = {},
): Template {
  const app = new App({
    context: { ...CDK_CONTEXT, ...context, ...(!options.bundle && { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stack = new VacancyApiStack(app, 'Test', {
    settings: readSettings((key) => app.node.tryGetContext(key)),
    env: { account: '123456789012', region: 'eu-central-1' },
  });
  return Template.fromStack(stack);
}
