import type { Node } from 'constructs';

/** Deployment settings, read from `cdk.json` context and overridable with `cdk deploy -c key=value`. */
export interface ServiceSettings {
  /** CloudFormation stack name. */
  readonly stackName: string;
  /** `true` for dev stacks: tables are deleted with the stack. */
  readonly destroyOnRemoval: boolean;
}

function contextString(node: Node, key: string, fallback: string): string {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string') throw new Error(`Context "${key}" must be a string.`);
  return value;
}

function contextBoolean(node: Node, key: string, fallback: boolean): boolean {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return fallback;
  // `-c key=true` arrives as a string, `cdk.json` as a boolean.
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Context "${key}" must be true or false.`);
}

/** Reads the settings from the app's context, applying the documented defaults. */
export function readSettings(node: Node): ServiceSettings {
  return {
    stackName: contextString(node, 'stackName', 'VendorVacancyApi'),
    destroyOnRemoval: contextBoolean(node, 'destroyOnRemoval', false),
  };
}
