/**
 * The example career page (examples/career-page/), served by the local server at `/career-page/` with a
 * `config.js` of its own: this server's address and a demo publishable key (docs/api.md#the-local-server). It is
 * meant to be opened at `http://localhost:<port>/career-page/` — an origin other than the API's
 * (`http://127.0.0.1:<port>`), so the browser calls the API across origins, as a vendor's page does, and the demo
 * key is issued for that origin. Not part of the API: GET only, anything else left to the gateway.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the page is. */
export const CAREER_PAGE_PATH = '/career-page/';

const FOLDER = new URL('../../examples/career-page/', import.meta.url);

/** The page's files (but `config.js`, which is made per server), by name, with their media types. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'career-page.js': 'text/javascript; charset=utf-8',
  'career-page.css': 'text/css; charset=utf-8',
};

/** What the page is configured with. */
export interface CareerPageConfig {
  /** The API's base URL. */
  readonly apiUrl: string;
  /** A publishable key for the origin the page is opened from. */
  readonly key: string;
}

/** The `config.js` of a page: the API and the key, as `examples/career-page/config.js` names them. */
export function careerPageConfig(config: CareerPageConfig): string {
  return `export const config = ${JSON.stringify({ apiUrl: config.apiUrl, key: config.key })};\n`;
}

/** The demo publishable key of a vendor, and the origin it is for: the page's, `http://localhost:<port>`. */
export const demoPageKey = (vendorId: string) => `vvp_demo_${vendorId.replaceAll('-', '_')}_page`;
export const careerPageOrigin = (port: number) => `http://localhost:${port}`;

/**
 * A request handler for the page's paths under `base` (`/career-page/` unless given): answers a GET of the page and
 * its files and returns true; leaves every other request alone.
 */
export function careerPages(config: CareerPageConfig, base = CAREER_PAGE_PATH) {
  return (request: IncomingMessage, response: ServerResponse, requestId: string): boolean => {
    if (request.method !== 'GET') return false;
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    if (!path.startsWith(base)) return false;
    const name = path.slice(base.length) || 'index.html';
    let body: Buffer | undefined;
    let type: string | undefined;
    if (name === 'config.js') {
      body = Buffer.from(careerPageConfig(config));
      type = 'text/javascript; charset=utf-8';
    } else if (Object.hasOwn(FILES, name)) {
      body = readFileSync(new URL(name, FOLDER));
      type = FILES[name];
    }
    if (!body || !type) return false;
    response.writeHead(200, {
      'Content-Type': type,
      'Content-Length': body.length,
      'Cache-Control': 'no-cache',
      'X-Request-Id': requestId,
    });
    response.end(body);
    return true;
  };
}
