/**
 * The `<vacancy-board>` component (examples/career-page/vacancy-board.js) on the demo page `npm start` serves, in a
 * real browser: loaded from one origin (`http://localhost:<port>`) against the API on another (`http://127.0.0.1`),
 * CORS on. It lists what the API lists, filters, pages by the API's links, switches language, keeps its state in the
 * URL (reload, back, forward), opens a job page whose JSON-LD in document.head is the API's body, says when a vacancy
 * has closed (no JSON-LD, a robots noindex while it shows), shows an empty state that clears the filters, works by
 * the keyboard alone, and axe-core finds no serious or critical violation.
 * Search, city and category choices show the facets' counts. The error states are in vacancy-board-errors.test.ts.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { COMPONENT_FILE } from '../../../lib/local/career-page';
import { DEMO_SEED_FILE, type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { BROWSER_LAUNCH_MS, documentScreenshot, launchBrowserBeside } from '../../../testkit/browser';
import { jobPostingProblems } from '../../../testkit/job-posting-rules';
import {
  boardText,
  boardTexts,
  focused,
  headJsonLd,
  headRobots,
  IN_BOARD,
  listedIds,
  rewriteVacancies,
  seriousViolations,
  tabTo,
  waitForBoard,
  withAttributes,
} from '../../../testkit/vacancy-board';

/** What the component may weigh, gzipped, all in (docs: examples/career-page/README.md). */
const MAX_GZIPPED_BYTES = 15 * 1024;

const screenshot = (name: string) =>
  new URL(`../../../docs/images/vacancy-board-${name}.png`, import.meta.url).pathname;

/** The demo vendor's secret key: what the API answers, asked from the test (no Origin, as a server asks). */
const SECRET_KEY = 'vvk_demo_pasha_bank_primary';

/** What the functions passed to `page.evaluate` see of the page (the project's types have no DOM). */
declare const location: { readonly href: string };
declare function getComputedStyle(element: Element): {
  color: string;
  fontSize: string;
  display: string;
  backgroundColor: string;
  borderTopLeftRadius: string;
};
interface Element {
  getAttribute(name: string): string | null;
}
declare const document: {
  createElement(tag: string): Element;
  readonly body: { append(element: Element): void };
  title: string;
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
  readonly head: { readonly innerHTML: string };
  querySelector(selector: string): { setAttribute(name: string, value: string): void } | null;
};

describe('the <vacancy-board> file', () => {
  it(`is at most ${MAX_GZIPPED_BYTES} bytes gzipped, all in`, () => {
    const source = readFileSync(COMPONENT_FILE);
    // One file, no import: what the page loads is this file alone.
    expect(source.toString()).not.toMatch(/^\s*import\s/m);
    expect(gzipSync(source).length).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
  });
});

describe('<vacancy-board> on the demo page, in a browser, across origins', () => {
  let api: LocalApi;
  let browser: Browser;

  /** The API's answer to a request from a server (the secret key, no Origin). */
  async function fromApi(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(`${api.url}/vendor/vacancies${path}`, {
      headers: { Authorization: `Bearer ${SECRET_KEY}`, ...headers },
    });
    expect(response.status).toBe(200);
    return response;
  }
  /** The ids of a listing the API answers. */
  const apiIds = async (query: string) => {
    const body = (await (await fromApi(`?${query}`)).json()) as { data: { id: number }[] };
    return body.data.map((vacancy) => String(vacancy.id));
  };
  const search = (page: Page) => new URL(page.url()).search;
  const open = async (query = '') => {
    const page = await browser.newPage();
    await page.goto(`${api.careerPageUrl}${query}`);
    await waitForBoard(page, ['Pasha Bank']);
    return page;
  };
  const noViolations = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

  beforeAll(async () => {
    [api, browser] = await launchBrowserBeside(
      startLocalApi({ port: 0, dynamodbPort: 0, seedFile: DEMO_SEED_FILE }),
      (started) => started.stop(),
    );
  }, BROWSER_LAUNCH_MS);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('lists what the API lists, in Azerbaijani and English, across origins; axe finds nothing serious', async () => {
    expect(new URL(api.careerPageUrl).origin).not.toBe(new URL(api.url).origin);
    const page = await browser.newPage();
    const preflights: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'OPTIONS') preflights.push(request.url());
    });
    await page.goto(api.careerPageUrl);
    await waitForBoard(page, ['Pasha Bank', '23 vakansiya · Səhifə 1 / 2', 'Növbəti →']);
    expect(await listedIds(page)).toEqual(await apiIds('per_page=15'));
    await noViolations(page);
    await documentScreenshot(page, screenshot('list-az'));

    await page.click(`${IN_BOARD}button[lang=en]`);
    await waitForBoard(page, ['23 vacancies · Page 1 of 2', 'Next →', 'Deadline']);
    expect(search(page)).toBe('?lang=en');
    expect(await boardTexts(page, '[part=meta]')).toContainEqual(expect.stringMatching(/Full Time|Remote/));
    await noViolations(page);
    await documentScreenshot(page, screenshot('list-en'));
    // A phone's width: the filters fold behind a button, nothing overflows.
    await page.setViewport({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await documentScreenshot(page, screenshot('phone-en'));
    // Every call with the key went through the gateway's preflight, on the API's origin.
    expect(preflights.length).toBeGreaterThan(0);
    for (const url of preflights) expect(new URL(url).origin).toBe(new URL(api.url).origin);
    await page.close();
  }, 60_000);

  it('filters by type and experience; the URL holds them: a reload shows the same list, back and forward walk it; axe finds nothing serious', async () => {
    const page = await open();
    await page.select(`${IN_BOARD}select[name=type]`, '3');
    await waitForBoard(page, ['5 vakansiya · Səhifə 1 / 1']);
    expect(search(page)).toBe('?type=3');
    expect(await listedIds(page)).toEqual(await apiIds('type=3'));
    for (const line of await boardTexts(page, '[part=meta]')) expect(line).toContain('Uzaqdan');
    // One page: no page links, and nothing in their place.
    expect(await boardText(page)).not.toMatch(/\b(null|undefined|false)\b/);

    await page.type(`${IN_BOARD}input[name=experience_max]`, '3');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.has('experience_max'));
    const filtered = await apiIds('type=3&experience_max=3');
    await waitForBoard(page, [`${filtered.length} vakansiya`]);
    expect(search(page)).toBe('?type=3&experience_max=3');
    expect(await listedIds(page)).toEqual(filtered);
    await noViolations(page);
    await documentScreenshot(page, screenshot('filtered-az'));
    await page.click(`${IN_BOARD}button[lang=en]`);
    await waitForBoard(page, ['Remote', 'Page 1 of 1']);
    await noViolations(page);
    await documentScreenshot(page, screenshot('filtered-en'));

    // A shared link: the same list, in the same language.
    await page.reload();
    await waitForBoard(page, ['Remote', 'Page 1 of 1']);
    expect(await listedIds(page)).toEqual(filtered);
    expect(
      await page.$eval(
        `${IN_BOARD}input[name=experience_max]`,
        (input) => (input as unknown as { value: string }).value,
      ),
    ).toBe('3');

    // Back: the type alone; back again: every vacancy; forward twice. The language chosen stays (it is not a step).
    await page.goBack();
    await waitForBoard(page, ['5 vacancies']);
    expect(search(page)).toBe('?type=3&lang=en');
    await page.goBack();
    await waitForBoard(page, ['23 vacancies']);
    expect(search(page)).toBe('?lang=en');
    await page.goForward();
    await page.goForward();
    await waitForBoard(page, ['Remote', 'Page 1 of 1']);
    expect(await listedIds(page)).toEqual(filtered);
    await page.close();
  }, 60_000);

  it('pages by the links the API hands out; a reload and back keep the page', async () => {
    const page = await open();
    const first = await listedIds(page);
    await page.click(`${IN_BOARD}a[rel=next]`);
    await waitForBoard(page, ['Səhifə 2 / 2', '← Əvvəlki']);
    expect(search(page)).toBe('?page=2');
    const second = await listedIds(page);
    expect(second).toEqual(await apiIds('page=2'));
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    await page.reload();
    await waitForBoard(page, ['Səhifə 2 / 2']);
    expect(await listedIds(page)).toEqual(second);
    await page.goBack();
    await waitForBoard(page, ['Səhifə 1 / 2']);
    expect(await listedIds(page)).toEqual(first);
    await page.close();
  }, 60_000);

  it('says when no vacancy matches, with a button that clears the filters; axe finds nothing serious', async () => {
    const page = await open('?experience_min=100');
    await waitForBoard(page, ['Heç bir vakansiya uyğun gəlmir — filtrləri təmizləyin.', 'Filtrləri təmizlə']);
    await noViolations(page);
    await documentScreenshot(page, screenshot('empty-az'));
    await page.click(`${IN_BOARD}button[lang=en]`);
    await waitForBoard(page, ['No vacancy matches — clear the filters.', 'Clear the filters']);
    await noViolations(page);
    await documentScreenshot(page, screenshot('empty-en'));
    await page.click(`${IN_BOARD}[part=empty] button`);
    await waitForBoard(page, ['23 vacancies']);
    expect(search(page)).toBe('?lang=en');
    await page.close();
  }, 60_000);

  it('opens a job page whose JSON-LD in document.head is the API’s body, in both languages; Escape goes back; axe finds nothing serious', async () => {
    const page = await open();
    const [id] = await listedIds(page);
    const [title] = await boardTexts(page, '[part=link]');
    await page.click(`${IN_BOARD}[part=link]`);
    await waitForBoard(page, ['← Bütün vakansiyalar', 'Müraciət et']);
    expect(search(page)).toBe(`?job=${id}`);
    const posting = async (lang: string) =>
      (await fromApi(`/${id}`, { Accept: 'application/ld+json', 'Accept-Language': lang })).text();
    await page.waitForFunction(() => document.title !== 'Careers');
    expect(await headJsonLd(page)).toBe(await posting('az'));
    expect(jobPostingProblems(JSON.parse((await headJsonLd(page)) ?? ''))).toEqual([]);
    expect(await page.title()).toBe(`\u2068${title}\u2069 — \u2068Pasha Bank\u2069`);
    expect(await focused(page)).toMatch(/^h3 /);
    await noViolations(page);
    await documentScreenshot(page, screenshot('job-az'));

    await page.click(`${IN_BOARD}button[lang=en]`);
    await waitForBoard(page, ['← All vacancies', 'Apply', 'Salary']);
    await page.waitForFunction(() => document.head.innerHTML.includes('"inLanguage":"en"'));
    expect(await headJsonLd(page)).toBe(await posting('en'));
    await noViolations(page);
    await documentScreenshot(page, screenshot('job-en'));

    await page.keyboard.press('Escape');
    await waitForBoard(page, ['23 vacancies']);
    expect(search(page)).toBe('?lang=en');
    expect(await headJsonLd(page)).toBeNull();
    expect(await page.title()).toBe('Careers');
    expect(await focused(page)).toBe(`a[link] ${title}`);
    await page.close();
  }, 60_000);

  it('is usable by the keyboard alone: filter, next page, open a job, back, search', async () => {
    const page = await open();
    await tabTo(page, /^input\[experience_max\]/);
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    await waitForBoard(page, ['18 vakansiya · Səhifə 1 / 2']);
    expect(search(page)).toBe('?experience_max=10');

    await tabTo(page, /^a\[page-link\] Növbəti/);
    await page.keyboard.press('Enter');
    await waitForBoard(page, ['Səhifə 2 / 2']);
    // The focus is on the status line, above the list: the next Tab reaches the page's first vacancy.
    expect(await focused(page)).toMatch(/^p\[status\]/);
    const second = await listedIds(page);
    expect(second).toEqual(await apiIds('experience_max=10&page=2'));
    await tabTo(page, /^a\[link\]/, 1);
    await page.keyboard.press('Enter');
    await waitForBoard(page, ['← Bütün vakansiyalar']);
    expect(search(page)).toBe(`?experience_max=10&page=2&job=${second[0]}`);

    await page.keyboard.press('Escape');
    await waitForBoard(page, ['Səhifə 2 / 2']);
    expect(await focused(page)).toMatch(/^a\[link\]/);

    // Open it again, and back by the link (Tab to it, Enter).
    await page.keyboard.press('Enter');
    await waitForBoard(page, ['← Bütün vakansiyalar']);
    await tabTo(page, /^a\[back\]/);
    await page.keyboard.press('Enter');
    await waitForBoard(page, ['Səhifə 2 / 2']);
    expect(await listedIds(page)).toEqual(second);

    // A type by the arrow keys on its list (Full Time), then words in the search box.
    await page.keyboard.down('Shift');
    await tabTo(page, /^select\[type\]/);
    await page.keyboard.up('Shift');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('type') === '1');
    await waitForBoard(page, ['Səhifə 1 / 1']);
    expect(await listedIds(page)).toEqual(await apiIds('experience_max=10&type=1'));
    await page.keyboard.down('Shift');
    await tabTo(page, /^input\[q\]/);
    await page.keyboard.up('Shift');
    await page.keyboard.type('engineer');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'engineer');
    await waitForBoard(page, ['Səhifə 1 /']);
    expect(await listedIds(page)).toEqual(await apiIds('experience_max=10&type=1&q=engineer'));
    await page.close();
  }, 90_000);

  it('takes its page size, the filters it shows and its first filters from attributes', async () => {
    const page = await open();
    await page.evaluate(() => {
      const board = document.querySelector('vacancy-board');
      board?.setAttribute('per-page', '5');
      board?.setAttribute('filters', 'type');
      board?.setAttribute('type', '1');
    });
    await waitForBoard(page, ['9 vakansiya · Səhifə 1 / 2']);
    expect(await listedIds(page)).toEqual(await apiIds('per_page=5&type=1'));
    const hidden = await page.$$eval(`${IN_BOARD}form [data-f]`, (fields) =>
      fields.map((field) => (field as unknown as { hidden: boolean; dataset: { f: string } }).hidden),
    );
    expect(hidden).toEqual([true, false, true, true, true, true, true]);

    // A job page at the vendor's URL: the list links there, and leaves the page.
    await page.evaluate(() =>
      document.querySelector('vacancy-board')?.setAttribute('job-url', '/jobs/{id}.html'),
    );
    await waitForBoard(page, ['9 vakansiya']);
    const [id] = await listedIds(page);
    expect(await page.$eval(`${IN_BOARD}[part=link]`, (link) => link.getAttribute('href'))).toBe(
      `/jobs/${id}.html`,
    );
    await page.close();
  }, 60_000);

  it('keeps its styles to itself: the page’s do not reach in, its own do not leak out; custom properties and ::part theme it', async () => {
    const page = await open();
    await page.addStyleTag({
      content: `a, li, p { color: rgb(255, 0, 0) !important; font-size: 40px; }
        vacancy-board { --vb-accent: rgb(0, 89, 79); }
        vacancy-board::part(company) { display: none; }`,
    });
    const outside = await page.evaluate(() => {
      const probe = document.createElement('button');
      document.body.append(probe);
      const style = getComputedStyle(probe);
      return { background: style.backgroundColor, radius: style.borderTopLeftRadius };
    });
    const inside = await page.$eval(`${IN_BOARD}[part=link]`, (link) => {
      const style = getComputedStyle(link as unknown as Element);
      return { color: style.color, fontSize: style.fontSize };
    });
    expect(inside.color).toBe('rgb(0, 89, 79)');
    expect(inside.fontSize).not.toBe('40px');
    expect(
      await page.$eval(
        `${IN_BOARD}[part=company]`,
        (h2) => getComputedStyle(h2 as unknown as Element).display,
      ),
    ).toBe('none');
    // A button of the page keeps the browser's look, not the board's.
    expect(outside.background).not.toBe('rgb(0, 89, 79)');
    expect(outside.radius).toBe('0px');
    await page.close();
  }, 60_000);

  it('says it is loading while the API answers, and shows the API’s 404 for a vacancy that is not there', async () => {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    // The listing's GET held until the test has seen the loading state.
    let release: (() => void) | undefined;
    const hold = (request: HTTPRequest) => {
      if (request.method() === 'GET' && request.url().includes('/vendor/vacancies') && !release)
        release = () => void request.continue();
      else void request.continue();
    };
    page.on('request', hold);
    await page.goto(api.careerPageUrl);
    await waitForBoard(page, ['Yüklənir…'], 20_000, true);
    release?.();
    await waitForBoard(page, ['23 vakansiya']);
    page.off('request', hold);
    await page.close();

    const other = await browser.newPage();
    await other.goto(`${api.careerPageUrl}?job=999999&lang=en`);
    await waitForBoard(other, ['Vacancy not found.', '← All vacancies']);
    expect(await headJsonLd(other)).toBeNull();
    await other.click(`${IN_BOARD}[part=error] [part=back]`);
    await waitForBoard(other, ['23 vacancies']);
    await other.close();
  }, 60_000);

  it('says a vacancy has closed (the API’s 410) — the company, and when, in both languages — with the way back; no JSON-LD, noindex while it shows; axe finds nothing serious', async () => {
    // The demo's vacancy 1004 is Pasha Bank's, past its deadline of 2025-10-31: expired when that day ended in Baku
    // (2025-10-31T20:00:00.000Z). A link to it may live on anywhere: this page is its first.
    const page = await browser.newPage();
    await page.emulateTimezone('Asia/Baku');
    await page.goto(`${api.careerPageUrl}?job=1004`);
    await waitForBoard(page, ['Bu vakansiya bağlanıb.', '← Bütün vakansiyalar']);
    expect(await boardTexts(page, '[part~=closed] h3')).toEqual(['Bu vakansiya bağlanıb.']);
    // The company, as on every other page, and the day it closed in the board's language.
    expect(await boardTexts(page, '[part=company]')).toEqual(['Pasha Bank']);
    // As the browser's Intl.DateTimeFormat writes the day in Azerbaijani (1 noyabr 2025; a browser without
    // Azerbaijani's data writes it as its default locale does).
    const day = await page.evaluate(() =>
      new Intl.DateTimeFormat('az', { dateStyle: 'long' }).format(new Date('2025-10-31T20:00:00.000Z')),
    );
    expect(await boardTexts(page, '[part~=closed] [part=meta]')).toEqual([`Bağlanıb: ${day}`]);
    expect(await headJsonLd(page)).toBeNull();
    expect(await headRobots(page)).toEqual(['noindex']);
    expect(await page.title()).toBe('Bu vakansiya bağlanıb. — \u2068Pasha Bank\u2069');
    await noViolations(page);

    await page.click(`${IN_BOARD}button[lang=en]`);
    await waitForBoard(page, ['This vacancy has closed.', '← All vacancies']);
    expect(search(page)).toBe('?job=1004&lang=en');
    expect(await boardTexts(page, '[part=company]')).toEqual(['Pasha Bank']);
    expect(await boardTexts(page, '[part~=closed] [part=meta]')).toEqual(['Closed: November 1, 2025']);
    expect(await headRobots(page)).toEqual(['noindex']);
    await noViolations(page);

    // Back to the list: the noindex goes with the closed page.
    await page.click(`${IN_BOARD}[part=back]`);
    await waitForBoard(page, ['23 vacancies']);
    expect(search(page)).toBe('?lang=en');
    expect(await headRobots(page)).toEqual([]);
    expect(await page.title()).toBe('Careers');

    // From an open job's page (its JSON-LD in the head) to a closed one and back: each page's own head.
    await page.click(`${IN_BOARD}[part=link]`);
    await waitForBoard(page, ['← All vacancies', 'Apply']);
    await page.waitForFunction(() => document.head.innerHTML.includes('JobPosting'));
    await page.evaluate(() => document.querySelector('vacancy-board')?.setAttribute('job', '1004'));
    await waitForBoard(page, ['This vacancy has closed.']);
    expect(await headJsonLd(page)).toBeNull();
    expect(await headRobots(page)).toEqual(['noindex']);
    await page.evaluate(() => document.querySelector('vacancy-board')?.setAttribute('job', ''));
    await waitForBoard(page, ['23 vacancies']);
    expect(await headRobots(page)).toEqual([]);
    await page.close();
  }, 60_000);

  describe('search, city and category, with the facets’ counts', () => {
    it('search narrows the list to the vacancies whose words match', async () => {
      const page = await open();
      await page.type(`${IN_BOARD}input[name=q]`, 'engineer');
      await page.keyboard.press('Enter');
      const found = await apiIds('q=engineer');
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThan(15);
      await waitForBoard(page, [`${found.length} vakansiya · Səhifə 1 / 1`]);
      expect(search(page)).toBe('?q=engineer');
      expect(await listedIds(page)).toEqual(found);
      await page.close();
    }, 60_000);

    it('city and category choices show the facets’ counts and narrow the list; axe finds nothing serious', async () => {
      const page = await open();
      const counted = (await boardTexts(page, '[data-f=city] label')).join(' | ');
      expect(counted).toMatch(/Bakı \(\d+\)/);
      expect(await boardTexts(page, 'select[name=type] option')).toContainEqual(
        expect.stringMatching(/^Uzaqdan \(\d+\)$/),
      );
      await page.click(`${IN_BOARD}input[name=city][value=baku]`);
      await page.waitForFunction(() => new URL(location.href).searchParams.get('city') === 'baku');
      const inBaku = await apiIds('city=baku');
      await waitForBoard(page, [`${inBaku.length} vakansiya`]);
      expect(await listedIds(page)).toEqual(inBaku);
      // The city's own facet still counts the other cities (what choosing one more would add).
      expect((await boardTexts(page, '[data-f=city] label')).length).toBeGreaterThan(1);
      expect(
        await page.$eval(
          `${IN_BOARD}input[name=city][value=baku]`,
          (box) => (box as unknown as { checked: boolean }).checked,
        ),
      ).toBe(true);
      // By the keyboard: Tab to the next city, Space ticks it (both cities, either one), Space again unticks it.
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatch(/^input\[city\]/);
      await page.keyboard.press('Space');
      await page.waitForFunction(() =>
        /^baku,[a-z-]+$/.test(new URL(location.href).searchParams.get('city') ?? ''),
      );
      await waitForBoard(page, ['vakansiya']);
      expect(await focused(page)).toMatch(/^input\[city\]/);
      await page.keyboard.press('Space');
      await page.waitForFunction(() => new URL(location.href).searchParams.get('city') === 'baku');
      await waitForBoard(page, [`${inBaku.length} vakansiya`]);
      await page.click(`${IN_BOARD}input[name=category][value=it]`);
      await page.waitForFunction(() => new URL(location.href).searchParams.get('category') === 'it');
      const itInBaku = await apiIds('city=baku&category=it');
      await waitForBoard(page, [`${itInBaku.length} vakansiya`]);
      expect(await listedIds(page)).toEqual(itInBaku);
      await noViolations(page);
      await documentScreenshot(page, screenshot('facets-az'));
      await page.click(`${IN_BOARD}button[lang=en]`);
      await waitForBoard(page, ['Baku (', 'Information Technology (']);
      await noViolations(page);
      await documentScreenshot(page, screenshot('facets-en'));
      await page.reload();
      await waitForBoard(page, ['Baku (']);
      expect(await listedIds(page)).toEqual(itInBaku);
      await page.close();
    }, 60_000);

    it('shows every city of a vacancy — two and how many more in the list, all on the job page — and a city choice finds it by any of them; axe finds nothing serious', async () => {
      const page = await open();
      // Vacancy 1013 is in Gəncə, Sumqayıt and Mingəçevir; Mingəçevir is one of its others.
      await page.click(`${IN_BOARD}input[name=city][value=mingachevir]`);
      await page.waitForFunction(() => new URL(location.href).searchParams.get('city') === 'mingachevir');
      const inMingachevir = await apiIds('city=mingachevir');
      expect(inMingachevir).toContain('1013');
      await waitForBoard(page, [`${inMingachevir.length} vakansiya`]);
      expect(await listedIds(page)).toEqual(inMingachevir);
      const line = await page.$eval(`${IN_BOARD}[part=link][data-id="1013"]`, (link) =>
        (link.closest('li')?.querySelector('[part=meta]')?.textContent ?? '').trim(),
      );
      expect(line).toMatch(/^Gəncə, Sumqayıt \+1 · Tam iş günü · /);
      await noViolations(page);
      await page.click(`${IN_BOARD}[part=link][data-id="1013"]`);
      await waitForBoard(page, ['Müraciət et']);
      expect((await boardTexts(page, '[part=job] [part=meta]')).join()).toContain(
        ' · Gəncə, Sumqayıt, Mingəçevir · ',
      );
      await noViolations(page);
      await page.close();
    }, 60_000);

    it('shows each vacancy’s pay with its currency and period in the page’s language and its workplace; the workplace choice counts and narrows; axe finds nothing serious', async () => {
      const page = await open();
      expect((await boardTexts(page, '[data-f=workplace] label')).join(' | ')).toMatch(/Hibrid \(2\)/);
      await page.click(`${IN_BOARD}input[name=workplace][value=hybrid]`);
      await page.waitForFunction(() => new URL(location.href).searchParams.get('workplace') === 'hybrid');
      const hybrid = await apiIds('workplace=hybrid');
      await waitForBoard(page, [`${hybrid.length} vakansiya`]);
      expect(await listedIds(page)).toEqual(hybrid);
      const azerbaijani = await boardTexts(page, '[part=meta]');
      for (const line of azerbaijani) expect(line).toContain('Hibrid');
      // 1024: 1,500–2,000 USD a month; 1014: 1,800–2,600 in the deployment's AZN — as the browser's Intl.NumberFormat
      // writes them in Azerbaijani (a browser without Azerbaijani's data writes them as its default locale does).
      const [usd, azn] = await page.evaluate(() =>
        (['USD', 'AZN'] as const).map((currency, i) =>
          new Intl.NumberFormat('az', {
            style: 'currency',
            currency,
            currencyDisplay: 'code',
            maximumFractionDigits: 0,
          }).formatRange(i === 0 ? 1500 : 1800, i === 0 ? 2000 : 2600),
        ),
      );
      expect(azerbaijani).toContainEqual(expect.stringContaining(`${usd} / ay`));
      expect(azerbaijani).toContainEqual(expect.stringContaining(`${azn} / ay`));
      await noViolations(page);
      await page.click(`${IN_BOARD}button[lang=en]`);
      await waitForBoard(page, ['Hybrid (']);
      const english = await boardTexts(page, '[part=meta]');
      // Intl writes a no-break space between the code and the amount.
      expect(english).toContainEqual(expect.stringMatching(/Hybrid · USD\s1,500–2,000 a month/));
      // The job page states them too.
      await page.click(`${IN_BOARD}[part=link][data-id="1024"]`);
      await waitForBoard(page, ['← All vacancies', 'a month']);
      // The amount says it is a range: no salary type after it in parentheses of its own around the label's.
      expect(await boardTexts(page, '[part=salary]')).toEqual([
        expect.stringMatching(/^Salary: USD\s1,500–2,000 a month$/),
      ]);
      expect((await boardTexts(page, '[part=job] [part=meta]')).join()).toContain('Hybrid');
      await page.close();
    }, 60_000);
  });
  it('a filter from an attribute, cleared by the visitor, stays cleared: the URL says so (q=), a reload and back and forward keep it', async () => {
    const total = async (query: string) =>
      ((await (await fromApi(`?${query}`)).json()) as { pagination: { total: number } }).pagination.total;
    const [senior, all] = await Promise.all([total('q=Senior'), total('')]);
    expect(senior).toBeLessThan(all);
    const page = await browser.newPage();
    await withAttributes(page, { q: 'Senior' });
    const query = () =>
      page.$eval(`${IN_BOARD}input[name=q]`, (input) => (input as { value?: string }).value);
    await page.goto(api.careerPageUrl);
    await waitForBoard(page, ['Pasha Bank', `${senior} vakansiya ·`]);
    expect([search(page), await query()]).toEqual(['', 'Senior']);

    await page.click(`${IN_BOARD}input[name=q]`, { count: 3 });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await waitForBoard(page, [`${all} vakansiya ·`]);
    expect([search(page), await query()]).toEqual(['?q=', '']);
    await page.reload();
    await waitForBoard(page, ['Pasha Bank', `${all} vakansiya ·`]);
    expect([search(page), await query()]).toEqual(['?q=', '']);

    await page.goBack();
    await waitForBoard(page, ['Pasha Bank', `${senior} vakansiya ·`]);
    expect(await query()).toBe('Senior');
    await page.goForward();
    await waitForBoard(page, ['Pasha Bank', `${all} vakansiya ·`]);
    expect([search(page), await query()]).toEqual(['?q=', '']);

    // The button of the empty state clears them the same way.
    await page.goto(`${api.careerPageUrl}?q=Senior&experience_min=100`);
    await waitForBoard(page, ['Heç bir vakansiya uyğun gəlmir — filtrləri təmizləyin.', 'Filtrləri təmizlə']);
    await page.click(`${IN_BOARD}[part=empty] button`);
    await waitForBoard(page, [`${all} vakansiya ·`]);
    expect(search(page)).toBe('?q=');
    await page.close();
  }, 60_000);

  describe('on a phone and by keyboard', () => {
    /** Where an element of the board is drawn (the viewport's pixels). */
    const drawn = (page: Page, css: string) =>
      page.$eval(`${IN_BOARD}${css}`, (element) => {
        const rect = (
          element as unknown as { getBoundingClientRect(): { top: number; bottom: number; width: number } }
        ).getBoundingClientRect();
        return { top: rect.top, bottom: rect.bottom, width: rect.width };
      });

    it('at 390×844 the first vacancy shows without scrolling: the filters fold behind a button that opens them; axe finds nothing serious', async () => {
      const page = await browser.newPage();
      await page.setViewport({ width: 390, height: 844 });
      await page.goto(api.careerPageUrl);
      await waitForBoard(page, ['Pasha Bank', '23 vakansiya ·']);
      expect((await drawn(page, '[part=link]')).bottom).toBeLessThanOrEqual(844);
      const fold = `${IN_BOARD}[part~=fold]`;
      const display = (css: string) =>
        page.$eval(`${IN_BOARD}${css}`, (element) => getComputedStyle(element as never).display);
      expect(await display('form')).toBe('none');
      expect(await page.$eval(fold, (button) => button.getAttribute('aria-expanded'))).toBe('false');
      await noViolations(page);

      await page.click(fold);
      expect(await display('form')).toBe('grid');
      expect(await page.$eval(fold, (button) => button.getAttribute('aria-expanded'))).toBe('true');
      await page.select(`${IN_BOARD}select[name=type]`, '3');
      await waitForBoard(page, ['5 vakansiya ·', 'Filtrlər (1)']);
      expect(await display('form')).toBe('grid');
      await noViolations(page);
      await page.click(fold);
      expect(await display('form')).toBe('none');

      // Wider, the filters show and the button is not there.
      await page.setViewport({ width: 1024, height: 800 });
      expect([await display('form'), await display('[part~=fold]')]).toEqual(['grid', 'none']);
      await page.close();
    }, 60_000);

    it('the board’s first Tab stop is a link past the filters: Tab, Enter, Tab reach the first vacancy', async () => {
      const page = await open();
      expect((await drawn(page, '[part=skip]')).width).toBeLessThanOrEqual(1);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('a[skip] Vakansiyalara keç');
      expect((await drawn(page, '[part=skip]')).width).toBeGreaterThan(1);
      await page.keyboard.press('Enter');
      expect(await focused(page)).toMatch(/^p\[status\] 23 vakansiya/);
      await page.keyboard.press('Tab');
      const [first] = await boardTexts(page, '[part=link]');
      expect(await focused(page)).toBe(`a[link] ${first}`);
      await noViolations(page);
      await page.close();
    }, 60_000);

    it('the empty state shows no heading over no choices', async () => {
      const page = await open('?experience_min=100');
      await waitForBoard(page, ['Heç bir vakansiya uyğun gəlmir']);
      const shown = await page.$$eval(`${IN_BOARD}form fieldset`, (sets) =>
        sets
          .filter((set) => !(set as unknown as { hidden: boolean }).hidden)
          .map((set) => set.textContent ?? ''),
      );
      expect(shown).toEqual([]);
      expect(await boardText(page)).not.toMatch(/Şəhər|Kateqoriya|İş yeri/);
      await page.close();
    }, 60_000);
  });

  describe('what a vacancy holds, shown on a phone as it is', () => {
    /** A 110-character URL, and a 100-character title without a space. */
    const LONG_URL = `https://careers.example.az/apply/${'x'.repeat(110 - 33)}`;
    const LONG_TITLE = `Senior${'Engineer'.repeat(12)}`.slice(0, 100);
    /** The document's width and the viewport's. */
    const widths = (page: Page) =>
      page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);

    it('nothing it holds widens the page at 320 and 375 px: a 100-character title in the list, a 110-character URL on the job page', async () => {
      expect([LONG_URL.length, LONG_TITLE.length]).toEqual([110, 100]);
      const page = await browser.newPage();
      await rewriteVacancies(page, { title: LONG_TITLE, description: `Apply at ${LONG_URL} today.` });
      for (const width of [320, 375]) {
        await page.setViewport({ width, height: 800 });
        await page.goto(api.careerPageUrl);
        await waitForBoard(page, ['Pasha Bank', LONG_TITLE]);
        expect(await widths(page)).toEqual([width, width]);
        await page.click(`${IN_BOARD}[part=link]`);
        await waitForBoard(page, ['Müraciət et', LONG_URL]);
        expect(await widths(page)).toEqual([width, width]);
      }
      await page.close();
    }, 60_000);
    it('a title or a city that turns text around (U+202E) turns only itself: each stored string is isolated, in the list, on the job page and in document.title', async () => {
      const title = '\u202Egnp.exe';
      const city = '\u202EukaB';
      const page = await browser.newPage();
      await rewriteVacancies(page, { title, city, company: '\u202EknaB ahsaP' });
      await page.goto(api.careerPageUrl);
      await waitForBoard(page, [title]);
      /** Each stored string's element in the board: its tag and dir, in the order of the document. */
      const isolated = (css: string) =>
        page.$$eval(`${IN_BOARD}${css}`, (nodes) =>
          nodes.map((node) => `${node.tagName.toLowerCase()} ${node.getAttribute('dir') ?? ''}`.trim()),
        );
      /**
       * The first meta line's parts as drawn: its text, and whether each `<bdi>` is drawn left of the next (the
       * line reads left to right as its text does: nothing was turned around).
       */
      const metaLine = (css: string) =>
        page.$eval(`${IN_BOARD}${css}`, (meta) => {
          const parts = Array.from(meta.querySelectorAll('bdi'), (bdi) =>
            (bdi as { getBoundingClientRect(): { left: number; right: number } }).getBoundingClientRect(),
          );
          return {
            text: meta.textContent,
            inOrder: parts.every(
              (rect, i) => i === 0 || (parts[i - 1]?.right ?? Number.POSITIVE_INFINITY) <= rect.left,
            ),
            parts: parts.length,
          };
        });
      expect(await isolated('[part=company]')).toEqual(['h2 auto']);
      expect((await isolated('[part=link]'))[0]).toBe('a auto');
      const listed = await metaLine('[part=meta]');
      expect(listed.text).toMatch(new RegExp(`^${city} · .+ · ${'Son tarix'}: \\d{4}-\\d{2}-\\d{2}$`));
      expect(listed).toMatchObject({ inOrder: true });
      expect(listed.parts).toBeGreaterThanOrEqual(3);
      expect(await isolated('[part=item]:first-child [part=meta] > *')).toEqual(
        Array(listed.parts).fill('bdi'),
      );

      await page.click(`${IN_BOARD}[part=link]`);
      await waitForBoard(page, ['Müraciət et']);
      expect(await page.title()).toBe('\u2068\u202Egnp.exe\u2069 — \u2068\u202EknaB ahsaP\u2069');
      // The title, and the description (no requirements or responsibilities are in this vacancy's answer, or they too).
      expect(await isolated('[part=job] > [dir]')).toEqual(expect.arrayContaining(['h3 auto', 'p auto']));
      const job = await metaLine('[part=job] [part=meta]');
      expect(job).toMatchObject({ inOrder: true });
      expect(job.text).toContain(` · ${city} · `);
      expect(await isolated('[part=salary] > *')).toEqual(expect.arrayContaining(['bdi']));
      await page.keyboard.press('Escape');
      await waitForBoard(page, [title, 'Son tarix']);
      expect(await page.title()).toBe('Careers');
      await page.close();
    }, 60_000);
  });
});
