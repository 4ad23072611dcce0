#!/usr/bin/env node
/** The CDK app: `cdk synth` / `cdk deploy` run this. Settings come from `cdk.json` context (`-c` overrides). */
import { App } from 'aws-cdk-lib';
import { readSettings } from '../lib/settings';
import { VacancyApiStack } from '../lib/vacancy-api-stack';

const app = new App();
const settings = readSettings(app.node);
new VacancyApiStack(app, settings.stackName, {
  settings,
  // Environment-agnostic unless the operator's CLI gives an account and region: synth needs no credentials.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
app.synth();
