/**
 * The example career page (examples/career-page/) in a real browser, as `npm start` serves it: loaded from one
 * origin (`http://localhost:<port>`) against the API on another (`http://127.0.0.1:<port>`), with CORS on — the list
 * renders, the filters and pages work, the language switches, a job page shows and carries a valid JobPosting; from
 * an origin its key does not name, or with a secret key, the page shows the API's own message, not a CORS failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'puppeteer-core';
import { KEY_USE_MESSAGES } from '../../lambda/auth/key-use';
import { careerPages, demoPageKey } from '../../lib/local/career-page';
import { DEMO_SEED_FILE, type LocalApi, startLocalApi } from '../../lib/local/local-api';
import {
  BROWSER_LAUNCH_MS,
  documentScreenshot,
  launchBrowser,
  pageText,
  waitForText,
} from '../support/browser';
import { jobPostingProblems } from '../support/job-posting-rules';

const screenshot = (name: string) =>
  new URL(`../../docs/images/career-page-${name}.png`, import.meta.url).pathname;

/** What the functions passed to `page.evaluate` see of the page (the project's types have no DOM). */
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(
    selector: string,
  ): ArrayLike<{ textContent: string | null; getAttribute(name: string): string | null }>;
};

/** The texts of the elements a selector finds. */
const texts = (page: Page, selector: string) =>
  page.evaluate(
    (css: string) => Array.from(document.querySelectorAll(css), (element) => element.textContent ?? ''),
    selector,
  );

/** The vacancies a list shows, by their job pages' links (`#job/<id>`). */
const jobLinks = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('ul.vacancies li a'), (link) => link.getAttribute('href') ?? ''),
  );

/** Serves the page on an origin of its own (`http://127.0.0.1:<port>`), with `key`, against the API. */
async function servePage(apiUrl: string, key: string): Promise<{ server: Server; url: string }> {
  const pages = careerPages({ apiUrl, key });
  const server = createServer((request, response) => {
    if (!pages(request, response, 'test')) {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/career-page/` };
}

describe('the career page, in a browser, across origins', () => {
  let api: LocalApi;
  let browser: Browser;
  const servers: Server[] = [];

  beforeAll(async () => {
    [api, browser] = await Promise.all([
      startLocalApi({ port: 0, dynamodbPort: 0, seedFile: DEMO_SEED_FILE }),
      launchBrowser(),
    ]);
  }, BROWSER_LAUNCH_MS);
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) server.close();
    await api?.stop();
  });

  it('lists, filters, pages and switches language; a job page shows and carries a valid JobPosting', async () => {
    expect(new URL(api.careerPageUrl).origin).not.toBe(new URL(api.url).origin);
    const page = await browser.newPage();
    const preflights: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'OPTIONS') preflights.push(request.url());
    });
    await page.goto(api.careerPageUrl);
    await waitForText(page, ['Pasha Bank', 'Səhifə 1 /']);
    const first = await jobLinks(page);
    expect(first).toHaveLength(15);
    await documentScreenshot(page, screenshot('list-az'));

    // The next page, by the link the API handed out (its cursor).
    await page.click('.pages button:last-of-type');
    await waitForText(page, ['Səhifə 2 /']);
    const second = await jobLinks(page);
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((link) => first.includes(link))).toEqual([]);

    // A filter: Remote only.
    await page.select('select[name="type"]', '3');
    await page.click('form button[type="submit"]');
    await waitForText(page, ['Səhifə 1 /']);
    const remote = await texts(page, 'ul.vacancies li .meta');
    expect(remote.length).toBeGreaterThan(0);
    for (const line of remote) expect(line).toContain('Uzaqdan');

    // English.
    await page.click('[data-lang="en"]');
    await waitForText(page, ['Page 1 of', 'Remote']);
    const filtered = await texts(page, '#app > p.meta');
    await page.select('select[name="type"]', '');
    await page.click('form button[type="submit"]');
    // The list of every type: another count than the filtered one.
    await page.waitForFunction(
      (before: string) => document.querySelector('#app > p.meta')?.textContent !== before,
      {},
      filtered[0] ?? '',
    );
    await documentScreenshot(page, screenshot('list-en'));

    // A job page, with its JobPosting in the page.
    const [title] = await texts(page, 'ul.vacancies li a');
    await page.click('ul.vacancies li a');
    await page.waitForSelector('script#job-posting');
    await waitForText(page, ['Responsibilities', 'All vacancies']);
    const posting = JSON.parse(
      (await page.evaluate(() => document.querySelector('script#job-posting')?.textContent)) ?? '',
    );
    expect(jobPostingProblems(posting)).toEqual([]);
    expect(posting).toMatchObject({ '@type': 'JobPosting', title, inLanguage: 'en' });
    expect(await texts(page, 'article h2')).toEqual([title]);
    await documentScreenshot(page, screenshot('job-en'));
    await page.click('[data-lang="az"]');
    await waitForText(page, ['Vəzifələr', 'Bütün vakansiyalar']);
    expect(
      JSON.parse(
        (await page.evaluate(() => document.querySelector('script#job-posting')?.textContent)) ?? '',
      ),
    ).toMatchObject({ inLanguage: 'az' });
    await documentScreenshot(page, screenshot('job-az'));

    // The browser asked the gateway's preflight before each call with a key.
    expect(preflights.length).toBeGreaterThan(0);
    for (const url of preflights) expect(new URL(url).origin).toBe(new URL(api.url).origin);
    await page.close();
  }, 120_000);

  it('searches by words, city and category with their counts, all in its URL: a search can be linked', async () => {
    const page = await browser.newPage();
    await page.goto(api.careerPageUrl);
    await waitForText(page, ['Səhifə 1 /']);
    // Each city and category choice says how many it would give.
    const cities = await texts(page, 'fieldset.choices label');
    expect(cities).toContain('Gəncə (4)');
    expect(cities.every((label) => /^.+ \(\d+\)$/.test(label))).toBe(true);

    await page.type('input[name="q"]', 'mutexessis');
    await page.click('input[name="city"][value="ganja"]');
    await page.click('form button[type="submit"]');
    await page.waitForFunction("location.search.includes('city=ganja')");
    await waitForText(page, ['1 vakansiya']);
    expect(await texts(page, 'ul.vacancies li a')).toEqual(['Kredit mütəxəssisi']);
    const linked = page.url();
    expect(new URL(linked).searchParams.get('q')).toBe('mutexessis');
    await page.close();

    // The link, opened anew: the same search, its choices checked.
    const again = await browser.newPage();
    await again.goto(linked);
    await waitForText(again, ['1 vakansiya']);
    expect(await texts(again, 'ul.vacancies li a')).toEqual(['Kredit mütəxəssisi']);
    expect(
      await again.evaluate(
        () =>
          (document.querySelector('input[name="city"][value="ganja"]') as unknown as { checked: boolean })
            .checked,
      ),
    ).toBe(true);
    await again.close();
  }, 120_000);

  it.each([
    ['an origin its key does not name', () => demoPageKey('pasha-bank'), KEY_USE_MESSAGES.origin],
    ['a secret key', () => 'vvk_demo_pasha_bank_primary', KEY_USE_MESSAGES.secretInBrowser],
  ])(
    'shows the API’s message from %s, not a CORS failure',
    async (_case, key, message) => {
      const served = await servePage(api.url, key());
      servers.push(served.server);
      const page = await browser.newPage();
      await page.goto(served.url);
      await waitForText(page, [message]);
      expect(await pageText(page)).not.toContain('could not be reached');
      await page.close();
    },
    60_000,
  );
});
