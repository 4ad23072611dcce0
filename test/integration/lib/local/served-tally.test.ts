/**
 * `npm start`'s summary on Ctrl-C: what it served, by status, and the listing's read units per request — taken
 * from the functions' EMF lines, which stay off the terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FUNCTION_METRICS, METRICS_NAMESPACE } from '../../../../lambda/domain/service/metrics';
import { tapFunctionOutput } from '../../../../lib/local/function-output';
import { emfValues, ServedTally } from '../../../../lib/local/served-tally';
import { type NpmStart, startNpmStart } from '../../../../testkit/npm-start';

/** An EMF line as Powertools prints it. */
const emf = (values: Record<string, number>, extra: Record<string, string> = {}) => ({
  _aws: {
    Timestamp: 0,
    CloudWatchMetrics: [
      {
        Namespace: METRICS_NAMESPACE,
        Dimensions: [['service']],
        Metrics: Object.keys(values).map((Name) => ({ Name, Unit: 'Count' })),
      },
    ],
  },
  service: 'vendor-vacancy-api',
  ...extra,
  ...values,
});

describe('the served summary', () => {
  it('reads only the metrics an EMF line declares', () => {
    const line = { ...emf({ ReadUnits: 3 }), Undeclared: 7 };
    expect(emfValues(line)).toEqual(new Map([['ReadUnits', [3]]]));
    expect(emfValues({ level: 'INFO', message: 'Listing served' })).toBeUndefined();
  });

  it('states statuses and exact percentiles of read units per listing', () => {
    const summary = new ServedTally();
    for (const status of [200, 200, 422, 200, 401]) summary.recordStatus(status);
    // 100 listings: 98 of 1.5 units, then 12 and 40 — p50 1.5, p99 12, max 40.
    for (let i = 0; i < 100; i += 1) {
      const readUnits = i === 98 ? 12 : i === 99 ? 40 : 1.5;
      summary.recordMetrics(
        emf({
          [FUNCTION_METRICS.readUnits]: readUnits,
          [FUNCTION_METRICS.dynamodbCalls]: 2,
          [FUNCTION_METRICS.itemsReturned]: 15,
        }),
      );
    }
    summary.recordMetrics(emf({ ColdStart: 1 }, { function_name: 'listing' }));
    summary.recordMetrics(emf({ [FUNCTION_METRICS.keysRefused]: 1 }));
    const text = summary.format();
    expect(text).toContain('Served 5 requests');
    expect(text).toContain('200 × 3, 401 × 1, 422 × 1');
    expect(text).toContain('100 served');
    expect(text).toMatch(/read units per listing: +p50 1\.5, p99 12, max 40/);
    expect(text).toContain('keys refused by the authorizer: 1');
    expect(text).toContain('cold starts: listing 1');
  });

  it('takes EMF lines off a stream, hands log lines on, and lets everything else through', () => {
    const written: string[] = [];
    const stream = {
      write(chunk: string) {
        written.push(chunk);
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    const lines: unknown[] = [];
    const logs: unknown[] = [];
    const untap = tapFunctionOutput([stream], {
      onMetrics: (line) => lines.push(line),
      onLog: (line) => logs.push(line) === 1,
    });
    stream.write(`${JSON.stringify(emf({ ReadUnits: 2 }))}\n`);
    stream.write('{"level":"INFO","message":"Listing served"}\n');
    stream.write('{"level":"WARN","message":"taken off"}\n');
    stream.write('{"not":"a log line"}\n');
    stream.write('{"level":"INFO",\n');
    untap();
    stream.write(`${JSON.stringify(emf({ ReadUnits: 5 }))}\n`);
    expect(lines).toEqual([emf({ ReadUnits: 2 })]);
    expect(logs).toEqual([
      { level: 'INFO', message: 'Listing served' },
      { level: 'WARN', message: 'taken off' },
    ]);
    expect(written).toEqual([
      '{"level":"INFO","message":"Listing served"}\n',
      '{"not":"a log line"}\n',
      '{"level":"INFO",\n',
      `${JSON.stringify(emf({ ReadUnits: 5 }))}\n`,
    ]);
  });
});

describe('npm start, stopped with Ctrl-C', () => {
  let server: NpmStart;
  let listing = '';

  beforeAll(async () => {
    // As a developer runs it: metrics on (the test environment turns them off), logs quiet.
    server = await startNpmStart([], {
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    });
    listing = `${server.url}/vendor/vacancies`;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('prints what it served: requests by status, read units per listing; never the EMF lines', async () => {
    const get = async (query: string, key = 'vvk_demo_pasha_bank_primary') => {
      const response = await fetch(`${listing}?${query}`, { headers: { Authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await get('per_page=1')).toBe(200);
    expect(await get('per_page=100')).toBe(200);
    expect(await get('per_page=0')).toBe(422);
    expect(await get('per_page=1', 'vvk_not_a_key')).toBe(401);

    await server.stop('SIGINT');
    const output = server.stdout();
    expect(output).toMatch(/Served 4 requests/);
    expect(output).toContain('200 × 2, 401 × 1, 422 × 1');
    expect(output).toContain('listings:    2 served');
    expect(output).toMatch(/read units per listing: +p50 \d+(\.\d+)?, p99 \d+(\.\d+)?/);
    expect(output).toContain('keys refused by the authorizer: 1');
    expect(output).toContain('cold starts: expiry 1, authorizer 1, listing 1');
    expect(output).toMatch(/expiry job: 1 run, \d+ vacancies expired, 0 summaries recounted\n/);
    expect(output).not.toContain('"_aws"');
  });
});
