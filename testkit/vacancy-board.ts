/**
 * Driving the `<vacancy-board>` component (examples/career-page/vacancy-board.js) in the tests' browser: its text
 * (inside its shadow root), the element that has the focus, axe-core's verdict, and a page of its own served on
 * another origin with a chosen key.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { careerPages } from '../lib/local/career-page';

/** What the functions passed to `page.evaluate` see of the page (the project's types have no DOM). */
interface Node {
  readonly tagName?: string;
  readonly textContent: string | null;
  readonly innerText: string;
  readonly shadowRoot: Root | null;
  getAttribute(name: string): string | null;
}
interface Root {
  readonly activeElement: Node | null;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): ArrayLike<Node>;
}
declare const document: Root & { readonly head: Root; readonly title: string };
declare const axe: {
  run(
    context: unknown,
    options: unknown,
  ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
};

/** Where a selector of the board's shadow root starts (puppeteer's piercing combinator). */
export const IN_BOARD = 'vacancy-board >>> ';

/** The text the board shows. */
export function boardText(page: Page): Promise<string> {
  return page.evaluate(
    () => document.querySelector('vacancy-board')?.shadowRoot?.querySelector('[part=board]')?.innerText ?? '',
  );
}

/** Waits until the board shows every one of `texts`, and no loading (or, with `busy`, while it loads). */
export async function waitForBoard(
  page: Page,
  texts: readonly string[],
  timeout = 20_000,
  busy = false,
): Promise<void> {
  await page.waitForFunction(
    (wanted: readonly string[], loading: boolean) => {
      const root = document.querySelector('vacancy-board')?.shadowRoot;
      const text = root?.querySelector('[part=board]')?.innerText ?? '';
      return (
        !!root?.querySelector('[aria-busy=true]') === loading && wanted.every((one) => text.includes(one))
      );
    },
    { timeout },
    texts,
    busy,
  );
}

/** The texts of the elements a selector finds inside the board. */
export function boardTexts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    (css: string) =>
      Array.from(
        document.querySelector('vacancy-board')?.shadowRoot?.querySelectorAll(css) ?? [],
        (node) => node.textContent ?? '',
      ),
    selector,
  );
}

/** The ids of the vacancies the list shows, in order. */
export function listedIds(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(
      document.querySelector('vacancy-board')?.shadowRoot?.querySelectorAll('[part=link]') ?? [],
      (link) => link.getAttribute('data-id') ?? '',
    ),
  );
}

/** The element that has the focus, inside the board if it is there: its tag, name or text, and part. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active) return '';
    const name = active.getAttribute('name') ?? active.getAttribute('part') ?? '';
    return `${active.tagName?.toLowerCase()}${name ? `[${name}]` : ''} ${active.textContent?.trim().slice(0, 60) ?? ''}`;
  });
}

/** Presses Tab until the focused element's description (see `focused`) matches, at most `limit` times. */
export async function tabTo(page: Page, wanted: RegExp, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (wanted.test(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${wanted} (last: ${await focused(page)})`);
}

/** The JSON-LD the board put into document.head (its text), or null. */
export function headJsonLd(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      document.head.querySelector('script[type="application/ld+json"][data-vacancy-board]')?.textContent ??
      null,
  );
}

/** The `content` of every robots meta element in document.head (the board's `noindex` among them, while it is there). */
export function headRobots(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(
      document.head.querySelectorAll('meta[name=robots]'),
      (meta) => meta.getAttribute('content') ?? '',
    ),
  );
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is (shadow roots included), one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => typeof axe !== 'undefined')))
    await page.addScriptTag({ content: axeSource });
  const { violations } = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
}

/**
 * Serves the demo page on an origin of its own (`http://127.0.0.1:<port>`) against the API, with `key` — which may be
 * set later (`served.page.key = …`), for a key made for that origin.
 */
export async function servePage(
  apiUrl: string,
  key = '',
): Promise<{ server: Server; url: string; origin: string; page: { apiUrl: string; key: string } }> {
  const page = { apiUrl, key };
  const pages = careerPages(page);
  const server = createServer((request, response) => {
    if (!pages(request, response, 'test')) {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url: `${origin}/career-page/`, origin, page };
}

/** What a vacancy may be made to hold in the page (see `rewriteVacancies`): its fields, replaced. */
export type HeldText = Partial<Record<'title' | 'description' | 'city' | 'company', string>>;

/**
 * Makes the API's JSON answers, as the page reads them, carry `held`: the first vacancy of a list and a job page's
 * vacancy get its fields (`company` is the answer's). The API is asked as ever; only what the board's `fetch` returns
 * is rewritten, before the page's scripts run — content no seed holds (a 110-character URL, a title that turns text
 * around) without writing it into the shared table.
 */
export async function rewriteVacancies(page: Page, held: HeldText): Promise<void> {
  await page.evaluateOnNewDocument(`(() => {
    const held = ${JSON.stringify(held)};
    const { company, ...fields } = held;
    const fetch0 = window.fetch;
    window.fetch = async (...args) => {
      const response = await fetch0(...args);
      if (!response.ok || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
      const body = await response.json();
      const vacancy = Array.isArray(body.data) ? body.data[0] : body.data;
      if (vacancy) Object.assign(vacancy, fields);
      if (company) body.company = company;
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
  })();`);
}

/**
 * Gives the page's `<vacancy-board>` these attributes before it starts, as if the page's HTML carried them (on every
 * load of the page, a reload's too): set just before the element is defined.
 */
export async function withAttributes(page: Page, attributes: Record<string, string>): Promise<void> {
  await page.evaluateOnNewDocument(`(() => {
    const attributes = ${JSON.stringify(attributes)};
    const define = customElements.define.bind(customElements);
    customElements.define = (name, ...rest) => {
      for (const board of document.querySelectorAll(name))
        for (const [key, value] of Object.entries(attributes)) board.setAttribute(key, value);
      define(name, ...rest);
    };
  })();`);
}
