/**
 * The fixed monthly costs of each monitoring profile (docs/operating.md#cost): the stack synthesized as `cdk synth`
 * builds it from `cdk.json` (bundling skipped: code does not change the bill), one profile at a time, priced by
 * `fixedCosts`.
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { MONITORING_PROFILES, type MonitoringProfile, readSettings } from '../settings';
import { VacancyApiStack } from '../stack/vacancy-api-stack';
import { type CfnTemplate, type CostLine, fixedCosts } from './fixed-costs';

/** The template of the stack for `cdk.json`'s context and `overrides`, as `cdk synth -c …` would build it. */
export function synthesizedTemplate(overrides: Record<string, unknown> = {}): CfnTemplate {
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const app = new App({ context: { ...context, ...overrides, 'aws:cdk:bundling-stacks': [] } });
  const stack = new VacancyApiStack(app, 'Cost', {
    settings: readSettings((key) => app.node.tryGetContext(key)),
    env: { account: '123456789012', region: 'us-east-1' },
  });
  return app.synth().getStackByName(stack.stackName).template as CfnTemplate;
}

/** Each profile's fixed costs, with the default settings otherwise. */
export function profileCosts(): Record<MonitoringProfile, CostLine[]> {
  return Object.fromEntries(
    MONITORING_PROFILES.map((monitoring) => [monitoring, fixedCosts(synthesizedTemplate({ monitoring }))]),
  ) as Record<MonitoringProfile, CostLine[]>;
}
