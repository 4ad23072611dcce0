/**
 * The `<vacancy-board>` component's error states, in a real browser against the local API with its rate limits on:
 * the API's own message from a page whose origin the key does not name (403), with a revoked key (401), with a
 * secret key (403), and a 429 with its wait — never a CORS failure or a blank page — and axe-core finds no serious
 * or critical violation on them, in either language.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'puppeteer-core';
import { KEY_USE_MESSAGES } from '../../../lambda/domain/keys/key-use';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { ERROR_MESSAGES, RETRY_AFTER_SECONDS } from '../../../lambda/platform/http/errors';
import { demoPageKey } from '../../../lib/local/career-page';
import { DEMO_SEED_FILE, type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { issueApiKey, revokeApiKey } from '../../../lib/ops/api-keys';
import { settingsOfCdkJson } from '../../../lib/settings';
import { BROWSER_LAUNCH_MS, documentScreenshot, launchBrowserBeside } from '../../../testkit/browser';
import {
  boardText,
  IN_BOARD,
  seriousViolations,
  servePage,
  waitForBoard,
} from '../../../testkit/vacancy-board';

const screenshot = (name: string) =>
  new URL(`../../../docs/images/vacancy-board-${name}.png`, import.meta.url).pathname;

/**
 * The browser tier of this server: a few requests per vendor, and its clock stopped (`rateClock`), so that a spent
 * tier stays spent and the 429 comes when the test says, whatever the machine's speed.
 */
const BROWSER_BURST = 6;

/** What the functions passed to `page.evaluate` see of the page (the project's types have no DOM). */
declare const location: { readonly href: string };

describe('<vacancy-board> error states, in a browser', () => {
  let api: LocalApi;
  let browser: Browser;
  const servers: Server[] = [];
  const documentClient = () => createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));

  /** A page served on an origin of its own with the key `key` makes for that origin. */
  async function pageWith(key: (origin: string) => Promise<string>): Promise<string> {
    const served = await servePage(api.url);
    servers.push(served.server);
    served.page.key = await key(served.origin);
    return served.url;
  }

  beforeAll(async () => {
    const settings = settingsOfCdkJson();
    [api, browser] = await launchBrowserBeside(
      startLocalApi({
        port: 0,
        dynamodbPort: 0,
        seedFile: DEMO_SEED_FILE,
        rateLimits: true,
        rateClock: () => 0,
        settings: {
          ...settings,
          rateTiers: { ...settings.rateTiers, browser: { rate: 1, burst: BROWSER_BURST } },
        },
      }),
      (started) => started.stop(),
    );
  }, BROWSER_LAUNCH_MS);
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) server.close();
    await api?.stop();
  });

  it('shows the API’s message from an origin the key does not name (403), in both languages; axe finds nothing serious', async () => {
    const page = await browser.newPage();
    const served = await servePage(api.url, demoPageKey('pasha-bank'));
    servers.push(served.server);
    await page.goto(served.url);
    await waitForBoard(page, [KEY_USE_MESSAGES.origin]);
    expect(await boardText(page)).not.toContain('API-yə qoşulmaq mümkün olmadı');
    // The contract fixes the API's message; the board names the page's own origin beside it (the caller's own).
    expect(await boardText(page)).toContain(
      `Bu səhifənin origin-i ${served.origin}: açar onun üçün verilməyib.`,
    );
    expect(await page.$eval(`${IN_BOARD}[part=error]`, (node) => node.getAttribute('role'))).toBe('alert');
    expect(await seriousViolations(page)).toEqual([]);
    await documentScreenshot(page, screenshot('error-az'));
    await page.click(`${IN_BOARD}button[lang=en]`);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('lang') === 'en');
    await waitForBoard(page, [KEY_USE_MESSAGES.origin, 'English']);
    expect(await boardText(page)).toContain(
      `This page's origin is ${served.origin}: the key was not issued for it.`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await documentScreenshot(page, screenshot('error-en'));
    await page.close();
  }, 60_000);

  it('shows the API’s message for a revoked key (401) and for a secret key (403)', async () => {
    const revoked = await pageWith(async (origin) => {
      const issued = await issueApiKey(documentClient(), api.tables.vendors, 'pasha-bank', 'revoked', [
        origin,
      ]);
      if (!issued) throw new Error('no key issued');
      expect(await revokeApiKey(documentClient(), api.tables.vendors, issued.keyId)).toHaveProperty(
        'revoked',
      );
      return issued.apiKey;
    });
    const page = await browser.newPage();
    await page.goto(revoked);
    await waitForBoard(page, [ERROR_MESSAGES[401]]);
    await page.goto(await pageWith(async () => 'vvk_demo_pasha_bank_primary'));
    await waitForBoard(page, [KEY_USE_MESSAGES.secretInBrowser]);
    await page.close();
  }, 60_000);

  it('shows a 429 with its wait and a button to try again', async () => {
    let key = '';
    const url = await pageWith(async (origin) => {
      const issued = await issueApiKey(documentClient(), api.tables.vendors, 'caspian-digital', 'page', [
        origin,
      ]);
      key = issued?.apiKey ?? '';
      // The vendor's browser tier spent, as a busy page would spend it.
      for (let i = 0; i < BROWSER_BURST; i++) {
        const response = await fetch(`${api.url}/vendor/vacancies`, {
          headers: { Authorization: `Bearer ${key}`, Origin: origin },
        });
        expect(response.status).toBe(200);
      }
      return key;
    });
    const page = await browser.newPage();
    await page.goto(url);
    await waitForBoard(page, [
      ERROR_MESSAGES[429],
      `${RETRY_AFTER_SECONDS} saniyədən sonra`,
      'Yenidən cəhd et',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);
});
