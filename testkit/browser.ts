/**
 * A real browser, for the browser tests and `npm run lighthouse`: the Chromium that `@sparticuz/chromium` ships inside
 * its npm package (installed by `npm ci` like any dependency, no system browser), driven by `puppeteer-core`. Its
 * default arguments turn the same-origin policy off (`--disable-web-security`, for scraping); that flag is dropped
 * here, so a page sees CORS as a visitor's browser does.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

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
