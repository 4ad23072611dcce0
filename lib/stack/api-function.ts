import {
  Duration,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_lambda_nodejs as nodejs,
  type RemovalPolicy,
  Validations,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { FunctionLimits } from '../../lambda/domain/service/limits';
import { type BundleOptions, FUNCTION_NODE_OPTIONS, nodejsBundling } from './bundling';

/** What differs between the service's functions. */
export interface ApiFunctionProps {
  /** The TypeScript entry point, exporting `handler`. */
  readonly entry: string;
  readonly description: string;
  /** Its memory and timeout. */
  readonly limits: Pick<FunctionLimits, 'memoryMb' | 'timeoutSeconds'>;
  readonly environment: Readonly<Record<string, string>>;
  /** The only AWS permissions of the function, besides writing its own logs (and traces). */
  readonly statements: readonly iam.PolicyStatement[];
  readonly logRetention: logs.RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
  readonly tracing: boolean;
  /** What its bundle carries besides the code (the monitoring profile's metrics). */
  readonly bundle: BundleOptions;
}

/**
 * A function of the service: Node.js 24 on arm64 (Graviton: about 20% cheaper per GB-second than x86),
 * bundled with the shared esbuild settings, with its own log group (retention set, JSON log format) and a
 * role that holds exactly the statements given plus writing to that log group — no AWS managed policy.
 */
export class ApiFunction extends Construct {
  public readonly function: nodejs.NodejsFunction;
  public readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description}: its own log group and the statements it needs, nothing else`,
    });
    this.logGroup.grantWrite(role);
    for (const statement of props.statements) role.addToPolicy(statement);

    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.limits.memoryMb,
      timeout: Duration.seconds(props.limits.timeoutSeconds),
      role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      environment: {
        ...props.environment,
        ...(FUNCTION_NODE_OPTIONS.length > 0 && { NODE_OPTIONS: FUNCTION_NODE_OPTIONS.join(' ') }),
      },
      bundling: nodejsBundling(props.bundle),
    });
    if (props.tracing) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions: "*" is their only resource.',
      });
    }
  }
}
