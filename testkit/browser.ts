/**
 * A real browser, for the browser tests and `npm run lighthouse`: the Chromium that `@sparticuz/chromium` ships inside
 * its npm package (installed by `npm ci` like any dependency, no system browser), driven by `puppeteer-core`. Its
 * default arguments turn the same-origin policy off (`--disable-web-security`, for scraping); that flag is dropped
 * here, so a page sees CORS as a visitor's browser does. And what the tests do with its pages.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** The flags Chromium is started with: the package's, less the one that turns CORS off. */
export const BROWSER_ARGS = chromium.args.filter((flag) => flag !== '--disable-web-security');

/** Where the browser is unpacked, once for every run on the machine: a folder of its own, by the package's version. */
const UNPACKED = join(
  tmpdir(),
  `vva-chromium-${JSON.parse(readFileSync(new URL('../node_modules/@sparticuz/chromium/package.json', import.meta.url), 'utf8')).version}`,
);

/**
 * The browser's executable, unpacked from the package the first time (a few seconds). The package unpacks into the
 * temporary folder itself and answers the path as soon as the file exists, while it is still being written: two
 * processes starting a browser at once (two test files, or two test runs) had one of them spawn a file still open
 * for writing (`spawn ETXTBSY`). So it unpacks here in a process of its own into a folder of its own, which is then
 * renamed into place whole: the path exists only once the browser is complete. Two that unpack at once both finish;
 * the first rename wins.
 */
export async function chromiumExecutable(): Promise<string> {
  const executable = join(UNPACKED, 'chromium');
  if (existsSync(executable)) return executable;
  const staging = await mkdtemp(`${UNPACKED}.unpacking-`);
  try {
    await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', "await (await import('@sparticuz/chromium')).default.executablePath();"],
      { env: { ...process.env, TMPDIR: staging }, cwd: new URL('..', import.meta.url).pathname },
    );
    await rename(staging, UNPACKED).catch((error: NodeJS.ErrnoException) => {
      // Another process put a complete one there first.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return executable;
}

/** Starts a headless Chromium. Close it with `browser.close()`. */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    args: BROWSER_ARGS,
    executablePath: await chromiumExecutable(),
    headless: 'shell',
    defaultViewport: { width: 1280, height: 860 },
  });
}

/**
 * A headless Chromium launched while `server` (what its pages call) starts: both, or neither. When one of them fails,
 * the other is ended (`end`, or `browser.close()`) once it has started, and the failure thrown: a local API left
 * running after its test file (whose `afterAll` never got it) goes on querying its engine in the worker, and fails
 * the next file there.
 */
export async function launchBrowserBeside<T>(
  server: Promise<T>,
  end: (started: T) => Promise<unknown>,
): Promise<[T, Browser]> {
  const [started, launched] = await Promise.allSettled([server, launchBrowser()]);
  if (started.status === 'fulfilled' && launched.status === 'fulfilled')
    return [started.value, launched.value];
  if (started.status === 'fulfilled') await end(started.value);
  if (launched.status === 'fulfilled') await launched.value.close();
  throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
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
