import { dynamodbEndpoint, type Environment, requiredVariable } from '../config/environment';

/** The authorizer's configuration, from its environment (set by the stack, or the local server). */
export interface AuthorizerConfig {
  readonly vendorsTable: string;
  /** A non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when absent. */
  readonly dynamodbEndpoint?: string | undefined;
}

/** Reads the configuration once, at cold start. */
export function authorizerConfigFromEnvironment(env: Environment = process.env): AuthorizerConfig {
  return { vendorsTable: requiredVariable(env, 'VENDORS_TABLE'), dynamodbEndpoint: dynamodbEndpoint(env) };
}
