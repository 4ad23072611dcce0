/**
 * What `npm start` prints while it serves (docs/api.md#the-local-server): a line per request — method, path and
 * the names of the query's parameters, status, time, read units where a listing read, request id — for every
 * status, the gateway's own included; short in a terminal, JSON with `--log-format json`; never a query value, a
 * header or a key. And what it does when stopped with requests in flight: answers them, then exits 0 with no trace.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';

const KEY = 'vvk_demo_pasha_bank_primary';
const OTHER_KEY = 'vvk_demo_caspian_digital';
/** As a developer runs it: the functions log at their deployed level. */
const LOGGING = { POWERTOOLS_LOG_LEVEL: 'INFO' };

/** One request; its status and request id. */
async function call(url: string, init: RequestInit = {}): Promise<{ status: number; requestId: string }> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { status: response.status, requestId: response.headers.get('x-request-id') ?? '' };
}

/** The printed line, whole, that names a request id. */
const lineOf = (output: string, requestId: string) =>
  output
    .slice(0, output.lastIndexOf('\n'))
    .split('\n')
    .find((line) => requestId !== '' && line.includes(requestId) && !line.startsWith('{"level"'));

/** The JSON lines printed, once the access line of `requestId` is among them: it follows the function's own. */
async function jsonLinesUntilAccess(server: NpmStart, requestId: string): Promise<Record<string, unknown>[]> {
  const parsed = (stdout: string) =>
    stdout
      .slice(0, stdout.lastIndexOf('\n'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const isAccess = (line: Record<string, unknown>) => line.requestId === requestId && !('level' in line);
  return parsed(await server.printed((stdout) => parsed(stdout).some(isAccess)));
}

describe('npm start, text log', () => {
  let server: NpmStart;
  beforeAll(async () => {
    // A tier of one request a second, burst one, so that a burst of ten is throttled whatever the machine's pace.
    server = await startNpmStart(
      ['--rate-limits', '-c', 'rateTiers={"standard":{"rate":1,"burst":1}}'],
      LOGGING,
    );
  });
  afterAll(async () => server?.stop('SIGKILL'));

  it('prints one short line per request, for every status, with read units where a listing read', async () => {
    const listing = `${server.url}/vendor/vacancies`;
    const auth = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
    const answered = [
      {
        ...(await call(`${listing}?per_page=2&lang=en`, auth(KEY))),
        shown: 'GET /vendor/vacancies?per_page&lang',
      },
      { ...(await call(`${server.url}/nowhere?x=1`)), shown: 'GET /nowhere?x' },
      { ...(await call(listing, { method: 'DELETE' })), shown: 'DELETE /vendor/vacancies' },
      { ...(await call(listing, auth('vvk_not_a_key'))), shown: 'GET /vendor/vacancies' },
      { ...(await call(`${listing}?per_page=0`, auth(OTHER_KEY))), shown: 'GET /vendor/vacancies?per_page' },
      ...(await Promise.all(Array.from({ length: 10 }, () => call(listing, auth(KEY))))).map((answer) => ({
        ...answer,
        shown: 'GET /vendor/vacancies',
      })),
    ];
    const statuses = new Set(answered.map(({ status }) => status));
    for (const status of [200, 404, 405, 401, 422, 429]) expect(statuses).toContain(status);

    const output = await server.printed((printed) =>
      answered.every(({ requestId }) => lineOf(printed, requestId) !== undefined),
    );
    for (const { status, requestId, shown } of answered) {
      const line = lineOf(output, requestId);
      expect(line).toMatch(
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  ${shown.replace(/[?]/g, '\\?')}  ${status}  \\d+ ms  `),
      );
      if (status === 200) expect(line).toMatch(/ \d+(\.\d+)? RU {2}/);
      else expect(line).not.toContain(' RU ');
    }
    // The functions' info lines are folded into those lines: no raw JSON, and never a key.
    expect(output).not.toContain('{"level":"INFO"');
    expect(output.slice(server.banner.length)).not.toContain(KEY);
    expect(output).not.toContain('vvk_not_a_key');
  });
});

describe('npm start --log-format json', () => {
  let server: NpmStart;
  beforeAll(async () => {
    server = await startNpmStart(['--log-format', 'json'], LOGGING);
  });
  afterAll(async () => server?.stop('SIGKILL'));

  it("prints the access line as JSON, with the deployed access log's names, beside the functions' own lines", async () => {
    const { status, requestId } = await call(`${server.url}/vendor/vacancies?per_page=3&token=${KEY}`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(status).toBe(200);
    const lines = await jsonLinesUntilAccess(server, requestId);
    const access = lines.find((line) => line.requestId === requestId && !('level' in line));
    expect(access).toEqual({
      requestId,
      requestTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: 'GET',
      path: '/vendor/vacancies',
      query: ['per_page', 'token'],
      status: 200,
      latency: expect.any(Number),
      readUnits: expect.any(Number),
    });
    // The listing's own line carries the same request id, as on AWS (its correlation id).
    const served = lines.find((line) => line.message === 'Listing served');
    expect(served).toMatchObject({ correlation_id: requestId, readUnits: access?.readUnits });
    // A query value is never printed, whatever it is (a key pasted in by mistake, here).
    expect(server.stdout().slice(server.banner.length)).not.toContain(KEY);
  });

  it('prints a closed vacancy’s 410 with the read units of its one read, the function’s line marking it gone', async () => {
    // The demo seed's vacancy 1004 is Pasha Bank's, past its deadline: recorded expired.
    const { status, requestId } = await call(`${server.url}/vendor/vacancies/1004`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(status).toBe(410);
    const lines = await jsonLinesUntilAccess(server, requestId);
    const access = lines.find((line) => line.requestId === requestId && !('level' in line));
    expect(access).toMatchObject({
      path: '/vendor/vacancies/1004',
      status: 410,
      readUnits: expect.any(Number),
    });
    const served = lines.find(
      (line) => line.message === 'Vacancy served' && line.correlation_id === requestId,
    );
    expect(served).toMatchObject({ vacancyId: 1004, gone: true, readUnits: access?.readUnits });
    expect(access?.readUnits as number).toBeLessThanOrEqual(1);
  });

  it('refuses a log format it does not know, in one line', async () => {
    await expect(startNpmStart(['--log-format', 'yaml'])).rejects.toThrow(
      /--log-format is one of text, json, not "yaml"/,
    );
  });

  it('refuses an option it does not know in one line, naming the nearest it knows', async () => {
    await expect(startNpmStart(['--prot', '4311'])).rejects.toThrow(
      /unknown option --prot \(did you mean --port\?\); npm start -- --help lists them\./,
    );
  });
});

describe('npm start, stopped with requests in flight', () => {
  it('answers them (or refuses in the envelope), then closes the engine and exits 0 with no trace', async () => {
    const server = await startNpmStart([], LOGGING);
    const listing = `${server.url}/vendor/vacancies?per_page=100`;
    const headers = { Authorization: `Bearer ${KEY}` };
    const first = await fetch(listing, { headers });
    expect(first.status).toBe(200);
    // A flood, and Ctrl-C once the first of it is answered: the rest are in flight or still arriving.
    let stopped: Promise<number | null> | undefined;
    const flood = Array.from({ length: 40 }, () =>
      fetch(listing, { headers }).then(
        async (response) => {
          stopped ??= server.stop('SIGINT');
          return { status: response.status, body: await response.text() };
        },
        // Refused before it was sent: it came after the server stopped listening. A request cut off in flight (a
        // reset connection) would be another code.
        (error: Error & { cause?: { code?: string } }) => ({ status: 0, body: error.cause?.code ?? '' }),
      ),
    );
    const answers = await Promise.all(flood);
    expect(await (stopped ?? server.stop('SIGINT'))).toBe(0);
    for (const { status, body } of answers) {
      expect([0, 200, 503]).toContain(status);
      // Not sent: refused, or its connection closed before the request reached the server (HTTP's race on a
      // kept-alive connection, which a client retries).
      if (status === 0) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(body);
      if (status === 503) expect(JSON.parse(body)).toMatchObject({ status: 'error' });
    }
    expect(answers.filter(({ status }) => status === 200).length).toBeGreaterThan(0);
    // Every request the server received was answered: as many answers as its request log has lines.
    const logged = server
      .stdout()
      .slice(server.banner.length)
      .split('\n')
      .filter((line) => / GET \/vendor\/vacancies\?per_page {2}\d{3} {2}/.test(line));
    expect(logged.length).toBe(1 + answers.filter(({ status }) => status !== 0).length);
    expect(server.stderr()).not.toMatch(/Database is not open|Error|at .*\.ts:\d+/);
    expect(server.stdout()).toContain('Served ');
  }, 60_000);
});

describe('npm start on a port in use', () => {
  it('says so in one line, naming the option that moves it', async () => {
    const first = await startNpmStart();
    try {
      const port = new URL(first.url).port;
      await expect(startNpmStart(['--port', port])).rejects.toThrow(
        new RegExp(
          `127\\.0\\.0\\.1:${port} is already in use \\(another npm start\\?\\): stop that, or choose another port with --port <n>`,
        ),
      );
    } finally {
      await first.stop('SIGKILL');
    }
  }, 60_000);
});
