/**
 * The `.http` request files of the repository (examples/http), read as VS Code's REST Client and JetBrains' HTTP
 * Client read them — `@name = value` variables, requests between `###` lines, `# @name` to name one, and
 * `{{name.response.body.$.a.b}}` / `{{name.response.headers.Name}}` for what an earlier request got — so that the
 * tests can run every request as an IDE would. `# expect <status>` is this repository's comment: the status the
 * request gets against `npm start` — `# expect <status> total <n>` also the `pagination.total` it finds there.
 */

/** One request of a file. */
export interface HttpFileRequest {
  readonly title: string;
  readonly name?: string;
  readonly expect?: number;
  /** The `pagination.total` the request finds on the demo data, when its `# expect` line says. */
  readonly expectTotal?: number;
  readonly method: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
}

/** A request file: its variables and its requests, in order. */
export interface HttpFile {
  readonly variables: ReadonlyMap<string, string>;
  readonly requests: readonly HttpFileRequest[];
}

/** Parses a request file. */
export function parseHttpFile(text: string): HttpFile {
  const variables = new Map<string, string>();
  const requests: HttpFileRequest[] = [];
  const blocks = text.split(/^###/m);
  for (const [index, block] of blocks.entries()) {
    const lines = block.split('\n');
    const title = index === 0 ? '' : (lines.shift() ?? '').trim();
    let name: string | undefined;
    let expected: number | undefined;
    let expectedTotal: number | undefined;
    let requestLine: string | undefined;
    const headers: [string, string][] = [];
    for (const raw of lines) {
      const line = raw.trim();
      if (requestLine === undefined) {
        const variable = /^@([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(line);
        if (variable) variables.set(variable[1] as string, (variable[2] as string).trim());
        else if (/^(#|\/\/)/.test(line)) {
          name = /^(?:#|\/\/)\s*@name\s+(\S+)/.exec(line)?.[1] ?? name;
          const expectation = /^(?:#|\/\/)\s*expect\s+(\d{3})\b(?:\s+total\s+(\d+)\b)?/.exec(line);
          if (expectation?.[1]) expected = Number(expectation[1]);
          if (expectation?.[2]) expectedTotal = Number(expectation[2]);
        } else if (line !== '') requestLine = line;
        continue;
      }
      if (line === '') break; // a body would follow: this API's requests have none
      const colon = line.indexOf(':');
      headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
    if (requestLine === undefined) continue;
    const [method = '', url = ''] = requestLine.split(/\s+/);
    requests.push({
      title,
      method,
      url,
      headers,
      ...(name && { name }),
      ...(expected && { expect: expected }),
      ...(expectedTotal !== undefined && { expectTotal: expectedTotal }),
    });
  }
  return { variables, requests };
}

/** What a named request got, for the requests after it. */
export interface HttpFileResponse {
  readonly headers: Headers;
  readonly body: unknown;
}

/** A JSONPath of the simple kind request files use (`$.a.b.0`). */
function jsonPath(value: unknown, path: string): unknown {
  let current = value;
  // `$.data[0].id`: names and array indexes, as REST Client reads them.
  for (const key of path
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean))
    current =
      current === null || typeof current !== 'object' ? undefined : (current as Record<string, unknown>)[key];
  return current;
}

/** A value with every `{{…}}` filled in: a variable, or what an earlier named request got. */
export function substitute(
  value: string,
  variables: ReadonlyMap<string, string>,
  responses: ReadonlyMap<string, HttpFileResponse>,
): string {
  return value.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_whole, reference: string) => {
    const fromResponse = /^([\w-]+)\.response\.(body|headers)\.(.+)$/.exec(reference);
    if (!fromResponse) {
      const variable = variables.get(reference);
      if (variable === undefined) throw new Error(`No variable ${reference}`);
      return substitute(variable, variables, responses);
    }
    const [, name = '', part, path = ''] = fromResponse;
    const response = responses.get(name);
    if (!response) throw new Error(`No earlier request named ${name}`);
    const found = part === 'headers' ? response.headers.get(path) : jsonPath(response.body, path);
    if (found === null || found === undefined) throw new Error(`${reference} is not in that response`);
    return String(found);
  });
}
