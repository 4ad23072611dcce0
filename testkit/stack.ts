import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_SETTINGS, readSettings } from '../lib/settings';
import { VacancyApiStack } from '../lib/stack/vacancy-api-stack';

/** The context of `cdk.json` — settings and feature flags — as `cdk synth` applies it. */
export const CDK_CONTEXT: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../cdk.json', import.meta.url), 'utf8'),
).context;

/**
 * The stack's template for `cdk.json`'s context with overrides, as `cdk synth -c key=value` would build it, without
 * bundles (esbuild's output does not change the template; test/integration/lib/stack/bundling.test.ts bundles for
 * real) and without the CDK's CloudFormation validation (its WebAssembly engine: about 2 s of CPU the first time in a
 * process, 0.7 s a template): what a test reads off a template is not it, and the app's synths run it (`appSynth`,
 * `npm run synth`).
 */
export function stackTemplate(context: Record<string, unknown> = {}): Template {
  const app = new App({
    context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
  });
  const stack = new VacancyApiStack(app, 'Test', {
    settings: readSettings((key) => app.node.tryGetContext(key)),
    env: { account: '123456789012', region: 'eu-central-1' },
  });
  return Template.fromStack(stack);
}

/** The name the stack is deployed under by default, which names its alarms, rules and dashboard. */
export const STACK_NAME = DEFAULT_SETTINGS.stackName;

/** A resource of a template, its properties read as the test needs them. */
export interface TemplateResource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

/** A template's resources: all of them by logical id, those of a type, and the logical id of one. */
export function templateResources(template: Template) {
  const resources = template.toJSON().Resources as Record<string, TemplateResource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  /** The logical id of the first resource of `type` whose id starts with `prefix`. */
  const logicalIdOf = (type: string, prefix: string) => {
    const [entry] = ofType(type).filter(([id]) => id.startsWith(prefix));
    if (!entry) throw new Error(`No ${type} ${prefix}…`);
    return entry[0];
  };
  return { resources, ofType, logicalIdOf };
}

/** A CloudFormation string built with Fn::Join, references written as `<Logical id>`. */
export function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return `<${JSON.stringify(value).replace(/"/g, '')}>`;
  return join[1].map((part) => joined(part)).join(join[0]);
}

/** A template's alarms by name, the stack's name and its dash left out of it (`LatencyP99`). */
export function alarmsByName(
  template: Template,
  stackName = STACK_NAME,
): Map<string, Record<string, unknown>> {
  return new Map(
    templateResources(template)
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, alarm]) => [
        String(alarm.Properties.AlarmName).replace(`${stackName}-`, ''),
        alarm.Properties,
      ]),
  );
}

/**
 * The event source mapping of a function woken by the vacancies table's stream (the webhooks', the feeds'): change
 * writes only, a failed record bisected, reported and sent to the function's failure destination.
 */
export function changeWritesMapping(functionName: unknown) {
  return {
    FunctionName: functionName,
    StartingPosition: 'LATEST',
    BisectBatchOnFunctionError: true,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    FilterCriteria: {
      Filters: [
        {
          Pattern: JSON.stringify({
            eventName: ['INSERT', 'MODIFY'],
            dynamodb: { NewImage: { c: { B: [{ exists: true }] } } },
          }),
        },
      ],
    },
  };
}

/** A private bucket's properties: encrypted, no public access of any kind. */
export const PRIVATE_BUCKET = {
  BucketEncryption: {
    ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
  },
  PublicAccessBlockConfiguration: {
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  },
} as const;
