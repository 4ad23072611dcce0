/** The authorizer's configuration, from its environment (set by the stack, or the local server). */
export interface AuthorizerConfig {
  readonly vendorsTable: string;
  /** A non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when absent. */
  readonly dynamodbEndpoint?: string | undefined;
}

/** Reads the configuration once, at cold start. */
export function authorizerConfigFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): AuthorizerConfig {
  const vendorsTable = env.VENDORS_TABLE;
  if (!vendorsTable) throw new Error('Environment variable VENDORS_TABLE is required.');
  return { vendorsTable, dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined };
}
