/**
 * The MCP server of one request (docs/api.md#agents-mcp): the official SDK's `McpServer`, read-only, with the two
 * tools — `search_vacancies` and `get_vacancy` (`tools.ts`) — whose results are the listing's answers, as structured
 * content and as the same JSON in text. A refusal of the core's — an invalid argument (naming it), a vacancy not
 * found or no longer open (with `closed_at`) — is the tool's error result, saying what the HTTP routes' 4XX says
 * (`tools.ts`); any other failure (DynamoDB's 503, a bug's 500) is the HTTP request's, answered by the route in the
 * contract's envelope (`factory.ts`).
 */
import { type CallToolResult, type jsonSchemaValidator, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { SERVICE_NAME } from '../../domain/service/limits';
import { SEARCH_INPUT, SEARCH_OUTPUT, VACANCY_INPUT, VACANCY_OUTPUT } from './schemas';
import {
  getVacancy,
  goneRefusal,
  type SearchResult,
  searchVacancies,
  type ToolArguments,
  type ToolContext,
  type ToolRefusal,
  toolRefusal,
  type VacancyToolResult,
} from './tools';

/** The tools, by name: what a client lists and calls. */
export const TOOL_NAMES = { search: 'search_vacancies', vacancy: 'get_vacancy' } as const;

/**
 * The protocol's revisions the server speaks, newest first (docs/api.md#agents-mcp): 2026-07-28 (stateless, by
 * `server/discover` or by each request's `_meta`) and, by `initialize`, 2025-11-25 and 2025-06-18 — nothing older. An
 * `initialize` asking for another is answered with 2025-11-25; a request naming another in `MCP-Protocol-Version`,
 * 400.
 */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

/** The server's name and version in `initialize`'s answer. */
export const SERVER_INFO = { name: SERVICE_NAME, title: 'Vendor Vacancy API', version: '1.0.0' } as const;

/** What every tool is: read-only, about this employer's jobs alone, the same answer for the same call. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** What the server tells a client it is for. */
const INSTRUCTIONS =
  "This employer's open jobs: search them (search_vacancies) and read one (get_vacancy). Answers are exact: the same jobs, totals and counts as the employer's career site.";

/** What a request's tools report of each call, for the function's log line and metrics, and a failure to rethrow. */
export interface ToolReports {
  readonly searched: (served: Awaited<ReturnType<typeof searchVacancies>>['served']) => void;
  readonly shown: (served: Awaited<ReturnType<typeof getVacancy>>['served']) => void;
  /** A failure that is not the tool's answer (the route answers it as HTTP). */
  readonly failed: (error: unknown) => void;
}

/**
 * The SDK checks an elicitation's answer with a JSON Schema validator (Ajv by default); this server elicits nothing,
 * so it needs none, and Ajv is left out of its bundle (`left-out.ts`).
 */
const JSON_SCHEMA_VALIDATOR: jsonSchemaValidator = {
  getValidator: () => {
    throw new Error('this server elicits nothing: no JSON Schema to check');
  },
};

/** A tool's result: the structured content, and the same JSON as text (for clients that read text only). */
const toolResult = (content: SearchResult | VacancyToolResult): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(content) }],
  structuredContent: { ...content },
});

/** A tool's error result: what the listing's error envelope would say (its message, `errors`, `closed_at`). */
const toolError = (said: ToolRefusal): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(said) }],
  isError: true,
});

/**
 * A call's failure as the tool's error result — the core's refusal as it says it — or, for any other, a generic
 * error result that the route replaces by the request's own answer (`reports.failed`).
 */
function failure(error: unknown, reports: ToolReports): CallToolResult {
  const refusal = toolRefusal(error);
  if (refusal) return toolError(refusal);
  reports.failed(error);
  return toolError({ message: 'The call failed.' });
}

/** The MCP server of one request, its tools answering for the request's vendor (`context`). */
export function createMcpServer(context: ToolContext, reports: ToolReports): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: JSON_SCHEMA_VALIDATOR,
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
    // The two tools are the server's for good: no list ever changes, so none is announced as changing.
    capabilities: { tools: { listChanged: false } },
  });
  server.registerTool(
    TOOL_NAMES.search,
    {
      title: 'Search open jobs',
      description:
        "Search this employer's open jobs by words, city, field, type, experience, workplace; with counts by type, field, city or workplace.",
      inputSchema: z.object(SEARCH_INPUT),
      outputSchema: z.object(SEARCH_OUTPUT),
      annotations: READ_ONLY,
    },
    async (args: ToolArguments) => {
      try {
        const { result, served } = await searchVacancies(args, context);
        reports.searched(served);
        return toolResult(result);
      } catch (error) {
        return failure(error, reports);
      }
    },
  );
  server.registerTool(
    TOOL_NAMES.vacancy,
    {
      title: 'Read one job',
      description: "Read one of this employer's jobs by its id: all it says, or that it is no longer open.",
      inputSchema: z.object(VACANCY_INPUT),
      outputSchema: z.object(VACANCY_OUTPUT),
      annotations: READ_ONLY,
    },
    async (args: ToolArguments) => {
      try {
        const { result, served } = await getVacancy(args, context);
        reports.shown(served);
        if ('gone' in served) return toolError(goneRefusal(served.closedAt));
        return toolResult(result as VacancyToolResult);
      } catch (error) {
        return failure(error, reports);
      }
    },
  );
  return server;
}
