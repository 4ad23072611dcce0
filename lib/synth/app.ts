/**
 * The CDK app as `cdk synth` and `cdk deploy` run it (`bin/app.ts`): the settings read from the app's context — a
 * value a setting does not allow, or a misspelt setting, is a `SettingError` of one line — the stack, and cdk-nag's
 * AWS Solutions checks, so that a finding neither fixed nor acknowledged fails the synth. The tests compose the same
 * app for each settings profile (test/e2e/cdk/synth-cli.test.ts).
 */
import { type App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { checkSettingNames, readSettings } from '../settings';
import { VacancyApiStack } from '../stack/vacancy-api-stack';

/** Adds the stack, under its settings' name, and cdk-nag's checks to `app`; the stack. */
export function composeApp(app: App, env: Environment): VacancyApiStack {
  checkSettingNames(Object.keys(app.node.getAllContext()));
  const settings = readSettings((key) => app.node.tryGetContext(key));
  const stack = new VacancyApiStack(app, settings.stackName, { settings, env });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return stack;
}
