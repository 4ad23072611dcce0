/**
 * The local server's log: one line per request, as the deployed API's access log has one
 * (docs/api.md#the-local-server), with the read units of the listing that answered it — for every status, the
 * gateway's own 401/404/405/429 included. `text` (the default of `npm start`) is a short line for a terminal, and
 * the functions' own lines are folded into it (warnings and errors still shown, briefly); `json` prints the access
 * line as JSON, with the deployed access log's field names, and the functions' lines as Lambda would.
 *
 * What a line never holds: query values (a client may put anything there, a key pasted by mistake included: the
 * parameters' names are enough to see what was asked), headers, the key.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { LISTING_SERVED, VACANCY_SERVED } from '../../lambda/domain/service/log-fields';
import { reportKey } from '../../lambda/functions/inbox/layout';
import { type FileReport, inboxLogLine, outcomeFolder } from '../../lambda/functions/inbox/report';
import { type DeliveryAttempt, deliveryAttemptFields } from '../../lambda/functions/webhooks/dispatcher';
import type { FunctionLogLine } from './function-output';
import type { RefusedRequest } from './gateway';

/** The formats of `npm start -- --log-format`. */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** One request's access line. */
export interface AccessLine {
  readonly requestId: string;
  readonly requestTime: string;
  readonly method: string;
  /** The path, without the query (as `$context.path` in the deployed access log). */
  readonly path: string;
  /** The names of the query's parameters, in order; never their values. */
  readonly query: readonly string[];
  readonly status: number;
  /** Milliseconds from the request's arrival to its last byte. */
  readonly latency: number;
  /** DynamoDB read units of the listing that answered, when one did. */
  readonly readUnits?: number;
}

/** The keys Powertools adds to every line: left out of a line's short form. */
const STANDARD_KEYS = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
  'sampling_rate',
  'correlation_id',
  'xray_trace_id',
]);

/** Functions whose info lines describe one request: in `text`, folded into that request's line. */
const REQUEST_FUNCTIONS = new Set(['authorizer', 'listing', 'mcp']);

const clockTime = (iso: string) => iso.slice(11, 23);

/** A value as a short line shows it. */
const shortValue = (value: unknown) =>
  typeof value === 'string' ? (/\s/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value);

/** The names of a request target's query parameters, in order (values dropped, names decoded). */
export function queryNames(target: string): string[] {
  const start = target.indexOf('?');
  if (start === -1) return [];
  return [...new URLSearchParams(target.slice(start + 1)).keys()];
}

/** The short form of an access line: `12:00:01.250 GET /vendor/vacancies?per_page&lang 200 12 ms 9 RU <id>`. */
export function formatAccessLine(line: AccessLine): string {
  const query = line.query.length > 0 ? `?${line.query.join('&')}` : '';
  const units = line.readUnits === undefined ? '' : `  ${line.readUnits} RU`;
  return `${clockTime(line.requestTime)}  ${line.method} ${line.path}${query}  ${line.status}  ${line.latency} ms${units}  ${line.requestId}`;
}

/** The short form of a function's log line: time, function, level, message, its own fields as `name=value`. */
export function formatFunctionLine(line: FunctionLogLine): string {
  const fields = Object.entries(line)
    .filter(([key]) => !STANDARD_KEYS.has(key))
    .map(([key, value]) => `${key}=${shortValue(value)}`);
  const time = typeof line.timestamp === 'string' ? clockTime(line.timestamp) : '';
  const name = typeof line.function_name === 'string' ? line.function_name : 'function';
  return [`${time}  ${name} ${line.level}: ${line.message}`, ...fields].join(' ');
}

/** The local server's request log (see the module's comment). */
export class RequestLog {
  /** Read units of listings served, by request id, until their request's line is written. */
  readonly #readUnits = new Map<string, number>();

  constructor(
    readonly format: LogFormat,
    private readonly write: (text: string) => void,
  ) {}

  /** Writes a line for every request `server` answers. */
  attach(server: Server): void {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const started = performance.now();
      const requestTime = new Date().toISOString();
      response.once('close', () => {
        const requestId = String(response.getHeader('x-request-id') ?? '');
        const readUnits = this.#readUnits.get(requestId);
        this.#readUnits.delete(requestId);
        const target = request.url ?? '';
        this.access({
          requestId,
          requestTime,
          method: request.method ?? '',
          path: target.split('?', 1)[0] ?? '',
          query: queryNames(target),
          status: response.statusCode,
          latency: Math.round(performance.now() - started),
          ...(readUnits !== undefined && { readUnits }),
        });
      });
    });
  }

  /** Writes the line of a request the parser refused and the gateway answered (`answerRefusedRequests`). */
  refused(request: RefusedRequest): void {
    this.access({
      requestId: request.requestId,
      requestTime: request.requestTime,
      method: request.method,
      path: request.target.split('?', 1)[0] ?? '',
      query: queryNames(request.target),
      status: request.status,
      latency: Math.round(Date.now() - Date.parse(request.requestTime)),
    });
  }

  /** Writes one access line. */
  access(line: AccessLine): void {
    this.write(this.format === 'json' ? JSON.stringify(line) : formatAccessLine(line));
  }

  /**
   * Takes a function's log line: a served listing's or vacancy's read units are kept for its request's line (the listing logs
   * the gateway's request id as its correlation id). Returns whether the line is still written as it was: in
   * `json`, always; in `text`, never — it is shown briefly instead, unless it is one request's info line.
   */
  functionLine(line: FunctionLogLine): boolean {
    if (
      (line.message === LISTING_SERVED || line.message === VACANCY_SERVED) &&
      typeof line.correlation_id === 'string' &&
      typeof line.readUnits === 'number'
    )
      this.#readUnits.set(line.correlation_id, line.readUnits);
    if (this.format === 'json') return true;
    const folded = line.level === 'INFO' && REQUEST_FUNCTIONS.has(String(line.function_name));
    if (!folded) this.write(formatFunctionLine(line));
    return false;
  }
}

/**
 * The line of a file the local inbox handled: in `text`, its time, its file, where it went and its counts (the
 * report's path for the rest); in `json`, the inbox function's log line.
 */
export function inboxReportLine(report: FileReport, format: LogFormat, at = new Date()): string {
  if (format === 'json') return JSON.stringify({ message: 'Inbox file', ...inboxLogLine(report) });
  const counts = [
    `read ${report.read}`,
    `written ${report.written}`,
    `unchanged ${report.unchanged}`,
    `rejected ${report.rejected}`,
    ...(report.snapshotOf !== undefined ? [`closed ${report.closed}`] : []),
    ...(report.warnings > 0 ? [`warnings ${report.warnings}`] : []),
  ].join(', ');
  const why = report.reason ? `  ${report.reason}` : '';
  const folder = outcomeFolder(report.outcome);
  const where = folder === report.outcome ? `${folder}/` : `${folder}/ (${report.outcome})`;
  return `${clockTime(at.toISOString())}  inbox  ${report.file} → ${where}  ${counts}  ${report.seconds} s  report: ${reportKey(report.file)}${why}`;
}

/**
 * The line of a webhook delivery's attempt (docs/operating.md#webhooks): in `text`, its time, the endpoint and its
 * vendor, the event's id and attempt, what came of it and what follows (the next attempt's time, or that the endpoint
 * was disabled); in `json`, the webhooks function's log line.
 */
export function webhookAttemptLine(attempt: DeliveryAttempt, format: LogFormat): string {
  const fields = deliveryAttemptFields(attempt);
  if (format === 'json') return JSON.stringify({ message: 'Webhook attempt', ...fields });
  const then = fields.disabled
    ? `  endpoint disabled: ${fields.disabled}`
    : fields.nextAttemptAt
      ? `  next attempt ${fields.nextAttemptAt}`
      : '';
  return `${clockTime(fields.at)}  webhook  ${fields.endpointId} (${fields.vendorId})  ${fields.eventId} #${fields.attempt} → ${fields.outcome}${then}`;
}
