#!/usr/bin/env node
/**
 * The CDK app: `cdk synth` / `cdk deploy` run this. Settings come from `cdk.json` context (`-c` overrides); a value
 * a setting does not allow, or a misspelt setting, stops the synth with one line. cdk-nag's AWS Solutions checks run
 * on every synth, and a finding that is neither fixed nor acknowledged (with its reason, next to the resource) fails
 * it.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SettingError } from '../lambda/domain/settings/errors';
import { checkSettingNames, readSettings } from '../lib/settings';
import { VacancyApiStack } from '../lib/stack/vacancy-api-stack';

const app = new App();
try {
  checkSettingNames(Object.keys(app.node.getAllContext()));
  const settings = readSettings((key) => app.node.tryGetContext(key));
  new VacancyApiStack(app, settings.stackName, {
    settings,
    // Environment-agnostic unless the operator's CLI gives an account and region: synth needs no credentials.
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  console.error(`Invalid setting: ${error.message}`);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
