/**
 * The MCP function's configuration (docs/operating.md#settings): what it reads from its environment at cold start —
 * the tables, a DynamoDB endpoint of one's own, and the listing's settings, which its tools answer with.
 */
import type { VacanciesSettings } from '../../domain/listing/request/request';
import { vacanciesSettings } from '../../domain/listing/settings';
import { type Environment, functionConfiguration } from '../../domain/settings/environment';

/** The MCP function's configuration, from its environment (set by the stack, or the local server). */
export interface McpConfiguration {
  readonly vacanciesTable: string;
  /** Where the vendors' summaries are. */
  readonly vendorsTable: string;
  /** A non-AWS DynamoDB endpoint (the local server's embedded engine); AWS when absent. */
  readonly dynamodbEndpoint?: string | undefined;
  /** What the listing's answers take. */
  readonly settings: VacanciesSettings;
}

/** Reads and checks the configuration once, at cold start (`domain/settings/environment.ts`). */
export function mcpConfiguration(env: Environment = process.env): McpConfiguration {
  const { tables, settings, dynamodbEndpoint } = functionConfiguration('mcp', env);
  return {
    vacanciesTable: tables.vacancies,
    vendorsTable: tables.vendors,
    dynamodbEndpoint,
    settings: vacanciesSettings(settings),
  };
}
