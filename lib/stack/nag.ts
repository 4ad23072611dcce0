/**
 * cdk-nag acknowledgements that cannot drift from the policy they excuse (docs/operating.md#before-the-first-deployment).
 * A wildcard resource's finding id is cdk-nag's own rendering of the resource as the template holds it, so an
 * acknowledgement written by hand matches only the environment it was written for: `cdk synth` from the CDK CLI
 * always hands the app a region, and an ARN built by `Stack.formatArn` then holds that region, not `<AWS::Region>`.
 * Here the id is derived from the very expression the policy uses, resolved in its stack and flattened by cdk-nag.
 */
import { Stack, Validations } from 'aws-cdk-lib';
// cdk-nag's rule AwsSolutions-IAM5 names a resource by this function; its index does not export it.
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import type { IConstruct } from 'constructs';

/** The id of cdk-nag's AwsSolutions-IAM5 finding for `resource`, a policy resource as the stack writes it. */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions::AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`;
}

/**
 * Acknowledges the wildcard in each of `resources` on `scope` (the role or function whose policy holds them), with
 * the reason, whatever environment the stack is synthesized in.
 */
export function acknowledgeWildcardResources(
  scope: IConstruct,
  resources: readonly string[],
  reason: string,
): void {
  for (const resource of resources) {
    Validations.of(scope).acknowledge({ id: wildcardResourceFinding(scope, resource), reason });
  }
}
