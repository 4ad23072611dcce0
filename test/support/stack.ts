import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readSettings } from '../../lib/settings';
import { VacancyApiStack } from '../../lib/vacancy-api-stack';

/**
 * The stack's template for a context. Bundling is skipped unless asked for: esbuild output does not change
 * the template, and one test bundles for real.
 */
export function stackTemplate(
  context: Record<string, unknown> = {},
  options: { bundle?: boolean } = {},
): Template {
  const app = new App({
    context: { ...context, ...(!options.bundle && { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stack = new VacancyApiStack(app, 'Test', {
    settings: readSettings(app.node),
    env: { account: '123456789012', region: 'eu-central-1' },
  });
  return Template.fromStack(stack);
}
