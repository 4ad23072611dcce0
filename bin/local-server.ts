#!/usr/bin/env node
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LISTING_PATH } from '../lambda/domain/service/routes';
import { httpUrl } from '../lambda/domain/settings/checks';
/**
 * `npm start`: the whole API on localhost — embedded DynamoDB, demo data, and the real authorizer and listing
 * handlers behind an API Gateway stand-in. `npm start -- --help` lists the options.
 */
import { INDEX_SETTLE_MS } from '../lambda/domain/settings/recovery-waits';

import { startLocalApi } from '../lib/local/local-api';
import { LOG_FORMATS, type LogFormat } from '../lib/local/request-log';
import { settingsOfCdkJson } from '../lib/settings';

const USAGE = `Usage: npm start -- [options]

  --port <n>            HTTP port (default: $PORT or 3000)
  --dynamodb-port <n>   port of the embedded DynamoDB, for the ops CLI and AWS tools (default: 8000)
  --dynamodb-endpoint <url>
                        serve from an engine that already runs (DynamoDB Local, another dynalite) instead
                        of the embedded one; tables are created if missing, the demo seed loaded only into
                        new tables
  --seed <file>         seed file to load (default: the demo seed, when the tables are new)
  --rate-limits         throttle each vendor by its rate tier and all by the stage, as API Gateway's usage
                        plans do (tiers and limits from cdk.json; off by default, so scripts run at full speed)
  --data-dir <dir>      keep the embedded engine's data (and the feeds' files, in <dir>/feeds/) in this folder
                        across restarts (default: in memory, the feeds' files in a temporary folder)
  --log-format <f>      text (default): a short line per request — method, path, status, time, read units,
                        request id — with the functions' warnings and errors; json: the same line as JSON and the
                        functions' own structured lines, as Lambda prints them
  --inbox <dir>         watch <dir>/incoming/ as the deployed inbox bucket: a file put there (.ndjson, .json,
                        optionally .gz; snapshots under incoming/snapshots/<vendorId>/) is imported, moved to
                        done/, failed/ or held/, and reported in <dir>/reports/
  -c, --context <name=value>
                        a setting, as "cdk deploy -c" takes it, over cdk.json's (repeatable), e.g.
                        -c defaultLocale=en -c serviceTimeZone=Europe/Berlin
  -h, --help            show this help`;

/** The request collection (`.http` files), for an API client. */
const REQUEST_COLLECTION = 'examples/http/';

/**
 * How to sync, as the banner says it. Page 1 already carries `next_sync_url`: keeping it before the last page loses
 * the other pages' changes (docs/api.md#incremental-sync); and a sync right after the start sees the seed only as far
 * as the settle window has let it through.
 */
const SYNC_HINT = [
  'Sync what changed since a time: follow pagination.next_page_url until it is null, and only then keep the',
  "last page's pagination.next_sync_url, for the next sync (every page carries one: keep it sooner and the",
  `pages after are lost). A change reaches a sync ${INDEX_SETTLE_MS / 1000} seconds after it was written: a sync in the first seconds`,
  'after a start sees part of the seed, the next one the rest. Start from 1970 for everything, tombstones included:',
];

/** A port clash as one line naming the option that moves it; undefined for any other error. */
function portInUse(error: unknown, ports: { http: number; dynamodb: number }): Error | undefined {
  const { code, port: taken } = (error ?? {}) as { code?: unknown; port?: unknown };
  if (code !== 'EADDRINUSE') return undefined;
  const option = taken === ports.dynamodb && taken !== ports.http ? '--dynamodb-port' : '--port';
  return new Error(
    `127.0.0.1:${taken} is already in use (another npm start?): stop that, or choose another port with ${option} <n> (0 picks a free one).`,
  );
}

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > 65_535)
    throw new Error(`${name} must be a port number, not "${value}".`);
  return number;
}

/** The server's options (`USAGE` says each). */
const OPTIONS = {
  port: { type: 'string' },
  'dynamodb-port': { type: 'string' },
  'dynamodb-endpoint': { type: 'string' },
  seed: { type: 'string' },
  'rate-limits': { type: 'boolean' },
  'data-dir': { type: 'string' },
  'log-format': { type: 'string', default: 'text' },
  inbox: { type: 'string' },
  context: { type: 'string', short: 'c', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * The number of edits that turn one word into another — a letter put in, left out or changed, or two neighbours
 * swapped (`--prot` is one from `--port`) — as commander counts them for its suggestions.
 */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) {
      const at = (x: number, y: number) => d[x]?.[y] as number;
      let best = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  return d[a.length]?.[b.length] as number;
}

/** The arguments parsed; an option it does not know is refused in one line naming the nearest it knows, if any. */
function parseOptions() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (error) {
    const unknown = /Unknown option '(--?[^']+)'/.exec((error as Error).message)?.[1];
    if (unknown === undefined) throw error;
    const given = unknown.replace(/^-+/, '');
    const [nearest] = Object.keys(OPTIONS)
      .map((name) => ({ name, distance: editDistance(given, name) }))
      .filter(({ name, distance }) => distance <= Math.max(1, Math.floor(name.length * 0.4)))
      .sort((x, y) => x.distance - y.distance);
    throw new Error(
      `unknown option ${unknown}${nearest ? ` (did you mean --${nearest.name}?)` : ''}; npm start -- --help lists them.`,
    );
  }
}

async function main(): Promise<void> {
  const values = parseOptions();
  if (values.help) {
    console.log(USAGE);
    return;
  }

  const overrides: Record<string, string> = {};
  for (const pair of values.context ?? []) {
    const [name = '', ...rest] = pair.split('=');
    if (rest.length === 0)
      throw new Error(`-c takes name=value, such as -c defaultLocale=en, not "${pair}".`);
    overrides[name] = rest.join('=');
  }
  const settings = settingsOfCdkJson(overrides);
  const logFormat = values['log-format'] as LogFormat;
  if (!LOG_FORMATS.includes(logFormat))
    throw new Error(`--log-format is one of ${LOG_FORMATS.join(', ')}, not "${logFormat}".`);
  const endpoint = values['dynamodb-endpoint'];
  if (endpoint !== undefined && !httpUrl(endpoint)) {
    throw new Error(
      `--dynamodb-endpoint must be an http(s) URL such as http://127.0.0.1:8000, not "${endpoint}".`,
    );
  }
  if (endpoint !== undefined && (values['data-dir'] || values['dynamodb-port'])) {
    throw new Error(
      '--data-dir and --dynamodb-port are for the embedded engine, not with --dynamodb-endpoint.',
    );
  }
  const ports = {
    http: port(values.port ?? process.env.PORT, '--port', 3000),
    dynamodb: port(values['dynamodb-port'], '--dynamodb-port', 8000),
  };
  const api = await startLocalApi({
    port: ports.http,
    ...(endpoint ? { dynamodbEndpoint: endpoint } : { dynamodbPort: ports.dynamodb }),
    ...(values['data-dir'] && { dataDir: values['data-dir'] }),
    ...(values.seed && { seedFile: values.seed }),
    settings,
    ...(values['rate-limits'] && { rateLimits: true }),
    log: logFormat,
    ...(values.inbox && { inboxDir: resolve(values.inbox) }),
  }).catch((error: unknown) => {
    throw portInUse(error, ports) ?? error;
  });

  const listing = `${api.url}${LISTING_PATH}`;
  const lines = [
    '',
    `Vendor Vacancy API: ${listing}`,
    `API reference:      ${api.referenceUrl}   (try it in the browser; requests to run: ${REQUEST_COLLECTION})`,
    'key' in api.careerPageKey
      ? `Career page:        ${api.careerPageUrl}   (a vendor's page, calling the API from another origin)`
      : `Career page:        ${api.careerPageUrl}   without a key (${api.careerPageKey.missing}): it shows "Unauthenticated."`,
    `DynamoDB (${api.embedded ? 'embedded' : 'given'}): ${api.dynamodbEndpoint}   tables: ${Object.values(api.tables).join(', ')}`,
    ...(api.repaired
      ? [
          `  not stopped cleanly last time: its indexes were rebuilt from its tables (${api.repaired.items} items; ${api.repaired.removed} index entries removed, ${api.repaired.added} written)`,
        ]
      : []),
  ];
  const seedFile = relative(process.cwd(), api.seedKeys.file);
  if (api.seed) {
    const { summary } = api.seed;
    lines.push(
      `Seed: ${seedFile} (${summary.vendors} vendors, ${summary.apiKeys} keys, ${summary.vacancies} vacancies)`,
    );
  } else {
    lines.push(
      api.seedKeys.vendors.length > 0
        ? `Seed: none loaded (tables already had data); the keys below are ${seedFile}'s still stored here, not revoked`
        : 'Seed: none loaded (tables already had data)',
    );
  }
  const vendors = api.seedKeys.vendors;
  if (vendors.length === 0) {
    // Keys are stored only as hashes: none but the seed file's own can be shown, and none of those is left.
    lines.push(
      '',
      `API keys: none to show — no key of ${seedFile} is stored here and not revoked, and any other`,
      '  key is kept only as its hash. Issue one (it is shown once) and use it:',
      `  npx vacancy-admin --endpoint ${api.dynamodbEndpoint} key issue <vendor-id>`,
      `  (npx vacancy-admin --endpoint ${api.dynamodbEndpoint} vendor list shows the vendors)`,
    );
  } else {
    const data = { vendors };
    lines.push('', 'API keys:');
    for (const vendor of data.vendors) {
      const tier = vendor.rate_tier ?? settings.defaultRateTier;
      lines.push(
        `  ${vendor.id.padEnd(18)} ${vendor.status.padEnd(10)} ${tier.padEnd(10)} ${vendor.api_keys.join('  ')}`,
      );
    }
    const example = data.vendors.find((vendor) => vendor.status === 'active')?.api_keys[0];
    if (example)
      lines.push(
        '',
        'Try:',
        `  curl -s -H 'Authorization: Bearer ${example}' '${listing}?per_page=2&lang=en'`,
        '',
        ...SYNC_HINT,
        `  curl -s -H 'Authorization: Bearer ${example}' '${listing}?updated_since=1970-01-01T00:00:00Z&per_page=10&lang=en'`,
        '  or let the reference client do both (run it again: it fetches only what changed):',
        `  npx tsx examples/sync/sync.ts --base-url ${api.url} --api-key ${example} --db /tmp/${data.vendors.find((vendor) => vendor.api_keys[0] === example)?.id}.db`,
      );
    const agent = data.vendors.find((vendor) => vendor.status === 'active' && vendor.agent_tokens?.length);
    const token = agent?.agent_tokens?.[0];
    if (agent && token)
      lines.push(
        '',
        `For AI assistants (MCP): ${api.url}/mcp with a key above, or ${agent.id}'s public URL, no key`,
        `  (add it to Claude or ChatGPT as a custom connector: docs/api.md#agents-mcp):`,
        `  ${api.url}/mcp/${token}`,
      );
  }
  if (!('key' in api.careerPageKey))
    lines.push(
      '',
      "The career page's key is npm start's own, for the demo seed's first active vendor; start with a new --data-dir",
      'to have it again, or issue a key of your own for a page you serve (examples/career-page/README.md):',
      `  npx vacancy-admin --endpoint ${api.dynamodbEndpoint} key issue ${vendors.find((vendor) => vendor.status === 'active')?.id ?? '<vendor-id>'} --publishable --origin ${new URL(api.careerPageUrl).origin}`,
    );
  if (values.inbox) {
    const within = relative(process.cwd(), resolve(values.inbox));
    const inbox = within === '' ? '.' : within.startsWith('..') ? resolve(values.inbox) : within;
    lines.push(
      '',
      `Inbox: ${inbox}/incoming/ — put a file there (a vendor's complete set in incoming/snapshots/ under its id);`,
      `  it moves to done/, failed/ or held/, and its report is written in ${inbox}/reports/`,
    );
  }
  const tiers = Object.entries(settings.rateTiers)
    .map(([name, { rate, burst }]) => `${name} ${rate}/s burst ${burst}`)
    .join(', ');
  lines.push(
    '',
    values['rate-limits']
      ? `Rate limits: on (${tiers}; stage ${settings.throttlingRateLimit}/s burst ${settings.throttlingBurstLimit})`
      : `Rate limits: off (--rate-limits to enforce the tiers: ${tiers})`,
    '',
    'Ctrl-C to stop (and see a summary of what was served: statuses, read units per listing).',
    '',
  );
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping (answering the requests in flight)…`);
    await api.stop();
    console.log(`\n${api.served.format()}\n`);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  // Started by a program with an IPC channel (the tests): `{ idle: n }` is answered `{ idle: n }` once the background
  // work the engine's writes started is done (`LocalApi.idle`). The channel keeps nothing alive.
  if (process.send) {
    process.on('message', (message: { idle?: number }) => {
      if (message.idle !== undefined) void api.idle().then(() => process.send?.({ idle: message.idle }));
    });
    process.channel?.unref();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
