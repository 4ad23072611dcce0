/** A function's environment variables (the stack sets them; the local server and tests too). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable that must be set; a deployment without it fails at cold start with a clear message. */
export function requiredVariable(env: Environment, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Environment variable ${name} is required.`);
  return value;
}

/** `DYNAMODB_ENDPOINT`: a non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when unset. */
export function dynamodbEndpoint(env: Environment): string | undefined {
  return env.DYNAMODB_ENDPOINT || undefined;
}
