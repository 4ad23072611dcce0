/**
 * A real browser, for the browser tests and `npm run lighthouse`: the Chromium that `@sparticuz/chromium` ships inside
 * its npm package (installed by `npm ci` like any dependency, no system browser), driven by `puppeteer-core`. Its
 * default arguments turn the same-origin policy off (`--disable-web-security`, for scraping); that flag is dropped
 * here, so a page sees CORS as a visitor's browser does. And what the tests do with its pages.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** The flags Chromium is started with: the package's, less the one that turns CORS off. */
export const BROWSER_ARGS = chromium.args.filter((flag) => flag !== '--disable-web-security');

/** Starts a headless Chromium. Close it with `browser.close()`. */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    args: BROWSER_ARGS,
    executablePath: await chromium.executablePath(),
    headless: 'shell',
    defaultViewport: { width: 1280, height: 860 },
  });
}

/** How long launching may take on a loaded machine (about 5 s on an idle one). */
export const BROWSER_LAUNCH_MS = 60_000;

/** What the functions passed to `page.evaluate` see of the page (the project's types have no DOM). */
declare const document: { readonly body: { readonly innerText: string } };

/** The text a visitor reads on the page. */
export function pageText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

/** A new page that records every URL it requests (to prove nothing leaves the machine). */
export async function recordingPage(browser: Browser): Promise<{ page: Page; requested: string[] }> {
  const page = await browser.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  return { page, requested };
}

/** Clicks the first button whose text contains `text`, waiting for one to be there. */
export async function clickButton(page: Page, text: string, timeout = 20_000): Promise<void> {
  const button = await page.waitForSelector(`xpath/.//button[contains(., ${JSON.stringify(text)})]`, {
    timeout,
    visible: true,
  });
  if (!button) throw new Error(`No button "${text}"`);
  await button.click();
}

/** Waits until the page's text contains every one of `texts`. */
export async function waitForText(page: Page, texts: readonly string[], timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (wanted: readonly string[]) => wanted.every((text) => document.body.innerText.includes(text)),
    { timeout },
    texts,
  );
}

/**
 * Saves a screenshot for the documents when `UPDATE_SCREENSHOTS` is set (`npm run screenshots`, the one command that
 * makes every picture docs/images holds); otherwise does nothing, so a test run never changes tracked files.
 */
export async function documentScreenshot(page: Page, path: string): Promise<void> {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path: path as `${string}.png` });
}
