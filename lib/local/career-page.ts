/**
 * The example career page (examples/career-page/: a page holding the `<vacancy-board>` component), served by the local
 * server at `/career-page/` with its tag's `api` and `key` set to this server's address and a demo publishable key
 * (docs/api.md#the-local-server). It is meant to be opened at `http://localhost:<port>/career-page/` — an origin other
 * than the API's (`http://127.0.0.1:<port>`), so the browser calls the API across origins, as a vendor's page does,
 * and the demo key is issued for that origin. Not part of the API: GET only, anything else left to the gateway.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the page is. */
export const CAREER_PAGE_PATH = '/career-page/';

const FOLDER = new URL('../../examples/career-page/', import.meta.url);

/** The component's file, which a vendor's page includes. */
export const COMPONENT_FILE = new URL('vacancy-board.js', FOLDER);

/** The page's files, by name, with their media types. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'vacancy-board.js': 'text/javascript; charset=utf-8',
};

/** The tag's attributes as examples/career-page/index.html writes them, for a vendor to replace. */
const PLACEHOLDERS = {
  apiUrl: 'api="https://api.example.az"',
  key: 'key="vvp_replace_with_your_publishable_key"',
};

/** What the page is configured with. */
export interface CareerPageConfig {
  /** The API's base URL. */
  readonly apiUrl: string;
  /** A publishable key for the origin the page is opened from. */
  readonly key: string;
}

/** An attribute's value, escaped for a double-quoted HTML attribute. */
const attribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** The demo page: examples/career-page/index.html with the tag's `api` and `key` set to `config`'s. */
export function careerPageHtml(config: CareerPageConfig): string {
  return readFileSync(new URL('index.html', FOLDER), 'utf8')
    .replace(PLACEHOLDERS.apiUrl, `api="${attribute(config.apiUrl)}"`)
    .replace(PLACEHOLDERS.key, `key="${attribute(config.key)}"`);
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
    if (!Object.hasOwn(FILES, name)) return false;
    const body = Buffer.from(
      name === 'index.html' ? careerPageHtml(config) : readFileSync(new URL(name, FOLDER)),
    );
    response.writeHead(200, {
      'Content-Type': FILES[name] as string,
      'Content-Length': body.length,
      'Cache-Control': 'no-cache',
      'X-Request-Id': requestId,
    });
    response.end(body);
    return true;
  };
}
