/**
 * The API reference in the browser, for the local server only (docs/api.md#the-local-server): `/docs` renders
 * docs/openapi.yaml with Scalar's API reference, served from `node_modules` (no CDN, no network: its default fonts
 * and proxy are off), with "try it" against this server and a demo key filled in; `/` points there; the documents it
 * links to (docs/*.md) as text, where its relative links land. These pages are
 * not part of the API — a deployment has no such route — so they answer only GET, and anything else under them is
 * left to the gateway (a 404 or 405 in the envelope, as API Gateway answers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where the reference is. */
export const REFERENCE_PATH = '/docs';

const DOCS = new URL('../../docs/', import.meta.url).pathname;
const OPENAPI_FILE = join(DOCS, 'openapi.yaml');
const SCALAR_BUNDLE = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser/standalone.js',
);

/** What the page is configured with. */
export interface ReferencePageOptions {
  /** The server's own address: "try it" sends its requests here. */
  readonly apiUrl: string;
  /** A key to fill in, so that "try it" works at once (the demo seed's); none when absent. */
  readonly demoKey?: string;
}

/** JSON that is safe inside a `<script>` element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/** The page: an empty element and the configuration Scalar renders into it. */
export function referenceHtml(options: ReferencePageOptions): string {
  const configuration = {
    url: `${REFERENCE_PATH}/openapi.yaml`,
    // The document's own servers name a deployment's URL template and port 3000; this server is the one to try.
    servers: [{ url: options.apiUrl, description: 'This local server (npm start)' }],
    ...(options.demoKey && {
      authentication: {
        preferredSecurityScheme: 'apiKey',
        securitySchemes: { apiKey: { token: options.demoKey } },
      },
    }),
    withDefaultFonts: false,
    hideClientButton: true,
    showDeveloperTools: 'never',
    telemetry: false,
    // Its AI agent calls Scalar's servers: nothing here leaves the machine.
    agent: { disabled: true },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vendor Vacancy API — reference</title>
</head>
<body>
<div id="app"></div>
<script src="${REFERENCE_PATH}/scalar.js"></script>
<script>Scalar.createApiReference('#app', ${scriptJson(configuration)})</script>
</body>
</html>
`;
}

/** The files of the reference, by path; read once, on first use. */
function files(options: ReferencePageOptions): Map<string, { type: string; body: () => Buffer }> {
  const once = (read: () => Buffer) => {
    let body: Buffer | undefined;
    return () => {
      body ??= read();
      return body;
    };
  };
  return new Map([
    [
      REFERENCE_PATH,
      { type: 'text/html; charset=utf-8', body: once(() => Buffer.from(referenceHtml(options))) },
    ],
    [
      `${REFERENCE_PATH}/openapi.yaml`,
      { type: 'application/yaml; charset=utf-8', body: once(() => readFileSync(OPENAPI_FILE)) },
    ],
    [
      `${REFERENCE_PATH}/scalar.js`,
      { type: 'text/javascript; charset=utf-8', body: once(() => readFileSync(SCALAR_BUNDLE)) },
    ],
    // The documents the reference links to (`[docs/api.md](api.md)`, relative to the repository's docs/), where a
    // relative link from /docs lands: /api.md. As text — a browser shows it rather than downloading it.
    ...readdirSync(DOCS)
      .filter((name) => name.endsWith('.md'))
      .map(
        (name) =>
          [
            `/${name}`,
            { type: 'text/plain; charset=utf-8', body: once(() => readFileSync(join(DOCS, name))) },
          ] as const,
      ),
  ]);
}

/**
 * A request handler for the reference's paths: answers a GET of `/`, `/docs` and its files and returns true; leaves
 * every other request alone (false).
 */
export function referencePages(options: ReferencePageOptions) {
  const served = files(options);
  return (request: IncomingMessage, response: ServerResponse, requestId: string): boolean => {
    if (request.method !== 'GET') return false;
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    if (path === '/') {
      response.writeHead(302, { Location: REFERENCE_PATH, 'X-Request-Id': requestId });
      response.end();
      return true;
    }
    const file = served.get(path);
    if (!file) return false;
    const body = file.body();
    response.writeHead(200, {
      'Content-Type': file.type,
      'Content-Length': body.length,
      'Cache-Control': 'no-cache',
      'X-Request-Id': requestId,
    });
    response.end(body);
    return true;
  };
}
