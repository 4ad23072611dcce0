/**
 * The sync hint of `npm start`'s banner — the README shows the same banner, held to it by the transcript test —
 * followed to the letter, on a sync of several pages: every change arrives, the first sync's and the next one's.
 * (Keeping page 1's `next_sync_url`, as an earlier hint said, lost every page after it.) The server's settle window is
 * its least (1 s, as a test may have it), and the test waits what the banner says it is.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { admin } from '../../../testkit/admin-cli';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

interface SyncPage {
  data: { id: number; status: string }[];
  pagination: { next_page_url: string | null; next_sync_url: string };
}

describe("the banner's sync hint, followed literally", () => {
  let server: NpmStart;
  beforeAll(async () => {
    server = await startNpmStart([], { VVA_SETTLE_MS: '1000' });
  });
  afterAll(async () => server?.stop('SIGKILL'));

  it('walks next_page_url until null, then keeps next_sync_url: every change, now and next time', async () => {
    const lines = server.banner.split('\n');
    const hintAt = lines.findIndex((line) => line.startsWith('Sync what changed since a time'));
    const hint = lines.slice(hintAt, hintAt + 3).join(' ');
    // The instruction, in its order: the pages to the end first, only then the next sync's URL.
    expect(hint).toMatch(
      /follow pagination\.next_page_url until it is null, and only then keep the last page's pagination\.next_sync_url/,
    );
    const curl = lines.slice(hintAt).find((line) => line.includes('updated_since=')) ?? '';
    const [, key = '', first = ''] = /Bearer (\S+)' '([^']+)'/.exec(curl) ?? [];
    const dynamodb = /DynamoDB \(embedded\): (\S+)/.exec(server.banner)?.[1] ?? '';
    // How long a change takes to reach a sync, as the banner says, and a little more.
    const settled = () => {
      const seconds = Number(/A change reaches a sync (\d+) seconds? after it was written/.exec(hint)?.[1]);
      expect(seconds).toBeGreaterThan(0);
      return new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 500));
    };

    const get = async (url: string) => {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      return (await response.json()) as SyncPage;
    };
    /** What the hint says: follow next_page_url until null, then keep the last page's next_sync_url. */
    const follow = async (start: string) => {
      const changes: SyncPage['data'] = [];
      let pages = 0;
      let page = await get(start);
      for (;;) {
        pages += 1;
        changes.push(...page.data);
        if (page.pagination.next_page_url === null) break;
        page = await get(page.pagination.next_page_url);
      }
      return { changes, pages, keep: page.pagination.next_sync_url };
    };

    // Everything the vendor has, as the listing shows it.
    const listed = new Set<number>();
    for (let url: string | null = `${server.url}/vendor/vacancies?per_page=100`; url; ) {
      const body = (await (
        await fetch(url, { headers: { Authorization: `Bearer ${key}` } })
      ).json()) as SyncPage;
      for (const vacancy of body.data) listed.add(vacancy.id);
      url = body.pagination.next_page_url;
    }

    // The demo data is written at start: a sync sees it once the settle window is behind it.
    await settled();
    const full = await follow(first);
    expect(full.pages).toBeGreaterThan(1);
    const active = new Set(full.changes.filter((change) => change.status === 'active').map(({ id }) => id));
    expect(active).toEqual(listed);

    // A change, once the sync's settle window is behind the first walk's snapshot.
    const [closed] = [...listed];
    await settled();
    await admin(['--endpoint', dynamodb, 'vacancies', 'set-status', String(closed), 'closed']);
    await settled();
    const next = await follow(full.keep);
    expect(next.changes).toContainEqual(expect.objectContaining({ id: closed, status: 'closed' }));
  }, 60_000);
});
