/**
 * `npm start`'s API reference at `/docs`, in a real browser: Scalar renders docs/openapi.yaml — the operation, its
 * parameters and responses — from files the server serves itself (nothing is fetched from elsewhere), takes the
 * document without a warning, and "try it" sends a request with the demo key filled in and shows the demo vendor's
 * page.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'puppeteer-core';
import { RECOGNISED_PARAMETERS } from '../../../lambda/functions/vacancies/query-string';
import {
  BROWSER_LAUNCH_MS,
  clickButton,
  documentScreenshot,
  launchBrowserBeside,
  pageText,
  recordingPage,
  waitForText,
} from '../../../testkit/browser';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';

const SCREENSHOT = new URL('../../../docs/images/api-reference.png', import.meta.url).pathname;
/** `npm run screenshots` shows the server where the README's `npm start` puts it; a test run takes any free port. */
const SCREENSHOT_PORT = process.env.UPDATE_SCREENSHOTS ? 3000 : 0;

describe('the API reference at /docs, in a browser', () => {
  let api: LocalApiProcess;
  let browser: Browser;
  /**
   * `/` loaded once, as a visitor opens it, for the tests that read the page or open its "try it" panel (each load of
   * Scalar costs seconds of CPU): what it requested, where the redirect took it, and what its console said.
   */
  let page: Page;
  let requested: string[];
  let loaded: number | undefined;
  const complaints: string[] = [];
  beforeAll(async () => {
    [api, browser] = await launchBrowserBeside(
      startLocalApiProcess({ port: SCREENSHOT_PORT, dynamodbPort: 0 }),
      (started) => started.stop(),
    );
    ({ page, requested } = await recordingPage(browser));
    // Scalar checks the document against its own strict OpenAPI model and warns of every schema it cannot take (one
    // without a `type`, say); its timings are `info` and say nothing of the document.
    page.on('console', async (message) => {
      if (message.type() !== 'warn' && message.type() !== 'error') return;
      const details = await Promise.all(
        message.args().map((argument) => argument.jsonValue().catch(() => undefined)),
      );
      complaints.push(`${message.type()}: ${message.text()} ${JSON.stringify(details).slice(0, 2_000)}`);
    });
    page.on('pageerror', (error) => complaints.push(`page error: ${error}`));
    loaded = (await page.goto(`${api.url}/`, { waitUntil: 'networkidle0' }))?.status();
    await waitForText(page, ["List the vendor's active vacancies", 'Query Parameters']);
  }, BROWSER_LAUNCH_MS);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('renders the operation, its parameters and responses from the server alone; / leads there', async () => {
    expect(new URL(page.url()).pathname).toBe('/docs');
    expect(loaded).toBe(200);
    const text = await pageText(page);
    for (const parameter of RECOGNISED_PARAMETERS) expect(text).toContain(parameter);
    for (const status of ['200', '304', '401', '403', '410', '422', '429', '503'])
      expect(text).toContain(status);
    await documentScreenshot(page, SCREENSHOT);
    const elsewhere = requested.filter((url) => !url.startsWith(`${api.url}/`) && !url.startsWith('data:'));
    expect(elsewhere).toEqual([]);
  }, 60_000);

  it('reads the document without a complaint: no warning or error in the console', () => {
    expect(complaints).toEqual([]);
  });

  it('links to docs/api.md where the link lands: the document, as text', async () => {
    const href = await page.$$eval('a', (links) =>
      links.find((link) => link.textContent?.trim() === 'docs/api.md')?.getAttribute('href'),
    );
    expect(href).toBe('api.md');
    const other = await browser.newPage();
    const response = await other.goto(new URL(href as string, page.url()).href);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(await pageText(other)).toMatch(/^# /);
    await other.close();
  }, 60_000);

  it('"try it" shows no value it would not send: optional parameters carry no example', async () => {
    await clickButton(page, 'Test Request');
    // The panel's rows, once it has drawn them ("Query Parameters" is on the page before the click too).
    await page.waitForFunction(
      `${JSON.stringify(['lang', 'updated_since', 'Accept-Language'])}.every((name) =>
        Array.from(document.querySelectorAll('tr')).some((tr) =>
          tr.innerText.replace(/\\s+/g, ' ').trim().startsWith(name + ' ')))`,
      { timeout: 20_000 },
    );
    // Each parameter row: its name, the value shown, and whether it is ticked (sent).
    const rows = await page.$$eval('tr', (trs) =>
      trs.map((tr) => ({
        text: (tr as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim(),
        ticked:
          (tr.querySelector('input[type=checkbox]') as unknown as { checked: boolean } | null)?.checked ??
          false,
      })),
    );
    for (const name of ['lang', 'updated_since', 'Accept-Language']) {
      const row = rows.find((candidate) => candidate.text.startsWith(`${name} `));
      expect(row).toBeDefined();
      // Unticked and empty ("Value" is the placeholder): the first Send means what the panel shows.
      expect(row).toMatchObject({ ticked: false, text: `${name} Value` });
    }
  }, 60_000);

  it('"try it" sends the request with the demo key and shows the demo vendor\'s page', async () => {
    // A page of its own, as a visitor's first "try it": the shared page's panel is open already.
    const { page } = await recordingPage(browser);
    await page.goto(`${api.url}/docs`, { waitUntil: 'networkidle0' });
    const answered = page.waitForResponse(
      (candidate) =>
        new URL(candidate.url()).pathname === '/vendor/vacancies' && candidate.request().method() === 'GET',
      { timeout: 30_000 },
    );
    await clickButton(page, 'Test Request');
    await clickButton(page, 'Send');
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe('Bearer vvk_demo_pasha_bank_primary');
    const body = (await response.json()) as { company: string; data: unknown[] };
    expect(body.company).toBe('Pasha Bank');
    expect(body.data.length).toBeGreaterThan(0);
    await waitForText(page, ['200', 'Pasha Bank']);
    await page.close();
  }, 60_000);
});
