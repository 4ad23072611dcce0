/**
 * The JobPosting of a hostile vacancy, embedded in a job page as docs/api.md#jobposting says, in a real browser: the
 * page has one script element, nothing in the vacancy runs (no alert, no global set), and the script's text is the
 * document. (test/integration/lambda/domain/vacancy/job-posting.embed.test.ts checks the same over arbitrary strings with an HTML parser.)
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'puppeteer-core';
import { BROWSER_LAUNCH_MS, launchBrowser } from '../../../testkit/browser';
import { jobPage, servedJobPosting } from '../../../testkit/job-page';

/** What the functions passed to `page.evaluate` see of the page (the project's types have no DOM). */
declare const document: {
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
};
declare const window: Record<string, unknown>;

/** Each string sets the global `pwned` and alerts, should it ever run. */
const run = (n: number) => `window.pwned=${n};alert(${n})`;
const HOSTILE = {
  title: `Engineer</script><script>${run(1)}</script>`,
  url: `https://example.az/jobs/1?a=</script><script>${run(2)}</script>`,
  description: `<!--<script>${run(3)}</script>`,
  requirements: `</script ><img src=x onerror="${run(4)}">`,
  responsibilities: `\u2028\u2029</SCRIPT><script>${run(5)}</script>`,
  company: `Acme</script><script>${run(6)}</script>`,
  website: `https://x.az/"></script><script>${run(7)}</script>`,
  logo: `https://x.az/"></script><script>${run(8)}</script>.png`,
};

describe('a hostile vacancy’s JobPosting in a job page, in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, BROWSER_LAUNCH_MS);
  afterAll(async () => browser?.close());

  it('runs nothing of the vacancy: one script element, its text the document', async () => {
    const response = await servedJobPosting(HOSTILE);
    expect(response.statusCode).toBe(200);
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.setContent(jobPage(response.body), { waitUntil: 'load' });
    const seen = await page.evaluate(() => ({
      scripts: Array.from(document.querySelectorAll('script'), (script) => script.textContent ?? ''),
      pwned: window.pwned ?? null,
    }));
    await page.close();
    expect(dialogs).toEqual([]);
    expect(seen.pwned).toBeNull();
    expect(seen.scripts).toHaveLength(1);
    expect(JSON.parse(seen.scripts[0] ?? '')).toEqual(JSON.parse(response.body));
    expect(JSON.parse(response.body)).toMatchObject({
      title: HOSTILE.title,
      url: HOSTILE.url,
      hiringOrganization: { name: HOSTILE.company, sameAs: HOSTILE.website, logo: HOSTILE.logo },
    });
  });
});
