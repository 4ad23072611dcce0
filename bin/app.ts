#!/usr/bin/env node
/**
 * The CDK app: `cdk synth` / `cdk deploy` run this (`lib/synth/app.ts`). Settings come from `cdk.json` context (`-c`
 * overrides); a value a setting does not allow, or a misspelt setting, stops the synth with one line. cdk-nag's AWS
 * Solutions checks run on every synth, and a finding that is neither fixed nor acknowledged (with its reason, next to
 * the resource) fails it.
 */
import { App } from 'aws-cdk-lib';
import { SettingError } from '../lambda/domain/settings/errors';
import { composeApp } from '../lib/synth/app';

const app = new App();
try {
  // Environment-agnostic unless the operator's CLI gives an account and region: synth needs no credentials.
  composeApp(app, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  console.error(`Invalid setting: ${error.message}`);
  process.exit(1);
}
app.synth();
