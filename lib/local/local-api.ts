import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { FeedFiles } from '../../lambda/domain/feed-registry/feed-files';
import type { TableNames } from '../../lambda/domain/schema/tables';
import { FUNCTION_LIMITS, FUNCTION_NAMES, type FunctionName } from '../../lambda/domain/service/limits';
import { functionEnvironment } from '../../lambda/domain/settings/environment';
import type { Resolver } from '../../lambda/domain/webhook-registry/public-address';
import { findApiKey, hashApiKey } from '../../lambda/functions/authorizer/key-lookup';
import type { DeliveryAttempt } from '../../lambda/functions/webhooks/dispatcher';
import { awsFailure } from '../../lambda/platform/aws/failure';
import { createDynamoDBClient } from '../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../lambda/platform/dynamodb/document-client';
import { zoneClock } from '../../lambda/platform/time/zone-clock';
import { createTables, localTableNames } from '../create-tables';
import { recordLocalDeployment } from '../deployment/local-deployment';
import { folderFeedFiles, removePartialFiles } from '../feed-folder';
import { storeApiKey } from '../ops/api-keys';
import { type ServiceSettings, settingsOfCdkJson } from '../settings';
import { CAREER_PAGE_PATH, careerPageOrigin, careerPages, demoPageKey } from './career-page';
import { type EmbeddedDynamoDB, startEmbeddedDynamoDB } from './embedded-dynamodb';
import type { IndexRepair } from './engine-repair';
import { type ExpiryRunner, startExpiryRunner } from './expiry-runner';
import { type FeedRunner, startFeedRunner } from './feed-runner';
import { feedPages } from './feed-serving';
import { tapFunctionOutput } from './function-output';
import {
  answerRefusedRequests,
  createLocalGateway,
  type GatewayHandlers,
  type GatewayOptions,
  notReadyGateway,
  PARSER_MAX_HEADER_BYTES,
} from './gateway';
import { type InboxFolder, watchInboxFolder } from './inbox-folder';
import { lambdaContext } from './lambda-runtime';
import { RateLimiter } from './rate-limiter';
import { REFERENCE_PATH, referencePages } from './reference-page';
import { inboxReportLine, type LogFormat, RequestLog, webhookAttemptLine } from './request-log';
import { loadSeed, readSeedFile, type Seed, type SeedSummary, type SeedVendor, usableSeedKeys } from './seed';
import { ServedTally } from './served-tally';
import { type SummaryGuardRunner, startSummaryGuardRunner } from './summary-guard-runner';
import { startWebhookRunner, type WebhookRunner } from './webhook-runner';

/** The demo data shipped with the repository: three vendors (one suspended) and about sixty vacancies. */
export const DEMO_SEED_FILE = new URL('./demo-seed.json', import.meta.url).pathname;

/** How to run the local API. */
export interface LocalApiOptions {
  /** HTTP port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Port of the embedded DynamoDB on 127.0.0.1 (reachable by the ops CLI and AWS tools); 0 picks a free one. */
  readonly dynamodbPort?: number;
  /** An engine that already runs (DynamoDB Local, another dynalite): used instead of the embedded one. */
  readonly dynamodbEndpoint?: string;
  /**
   * Folder that keeps the embedded engine's data across restarts, and the feeds' files (in its `feeds/`); in memory
   * (and a temporary folder) when absent.
   */
  readonly dataDir?: string;
  /**
   * Seed file to load. Absent: the demo seed, loaded only when the tables are new (so data kept in
   * `dataDir`, or in an engine given by `dynamodbEndpoint`, is not overwritten at every start).
   */
  readonly seedFile?: string;
  /** Prefix of the table names, so that several local APIs can share one engine (tests). */
  readonly tablePrefix?: string;
  /** Function timeouts to enforce; the deployed ones (`FUNCTION_LIMITS`) unless given (tests shorten them). */
  readonly timeoutsMs?: Partial<GatewayOptions['timeoutsMs']>;
  /** Throttle each vendor by its rate tier, and all by the stage, as the deployed usage plans do. */
  readonly rateLimits?: boolean;
  /**
   * The clock the rate limits' buckets refill by (`performance.now()`, in milliseconds, unless given): a test that
   * stops it makes a spent tier stay spent, so a 429 comes when the test says, whatever the machine's speed.
   */
  readonly rateClock?: () => number;
  /**
   * The deployment settings, `cdk.json`'s by default: the functions get the environment the stack would give them
   * (`functionEnvironment`), but for the links' base URL, which is the server's own address; the tiers and stage
   * limits apply with `rateLimits`. docs/operating.md#settings says which settings mean nothing locally.
   */
  readonly settings?: ServiceSettings;
  /**
   * Print a line per request (`request-log.ts`) in this format, the functions' own lines folded in (`text`) or as
   * they are (`json`). Absent: no request lines, the functions' lines as they are (tests, the benchmark).
   */
  readonly log?: LogFormat;
  /** A folder to watch as the inbox (`inbox-folder.ts`): files put in its `incoming/` are imported. */
  readonly inboxDir?: string;
  /** Resolves webhook hosts for delivery (a test's; the system's by default). */
  readonly webhookResolver?: Resolver;
}

/** How long stopping waits for requests in flight: the longest a request may take, the listing's timeout. */
const DRAIN_MS =
  FUNCTION_LIMITS.listing.timeoutSeconds * 1000 + FUNCTION_LIMITS.authorizer.timeoutSeconds * 1000;

/**
 * The environment of each function in the local server: the stack's (`functionEnvironment`), with the local tables
 * and engine, and the server's own address as the links' base URL (the one setting that means nothing locally —
 * docs/operating.md#settings).
 */
export function localEnvironments(
  settings: ServiceSettings,
  tables: TableNames,
  endpoint: string,
  url: string,
): Record<FunctionName, Record<string, string>> {
  const local = { ...settings, publicBaseUrl: url };
  return Object.fromEntries(
    FUNCTION_NAMES.map((name) => [name, functionEnvironment(name, local, tables, endpoint)]),
  ) as Record<FunctionName, Record<string, string>>;
}

/** A running local API. */
export interface LocalApi {
  /** `http://127.0.0.1:<port>`: the base of `/vendor/vacancies`. */
  readonly url: string;
  readonly dynamodbEndpoint: string;
  /** The interactive API reference (`/docs`). */
  readonly referenceUrl: string;
  /** The example career page, on an origin of its own (`http://localhost:<port>/career-page/`). */
  readonly careerPageUrl: string;
  /** Whether the engine is the embedded one (else one that was given). */
  readonly embedded: boolean;
  /** The embedded engine's store was not closed cleanly last time: what was mended at start (`engine-repair.ts`). */
  readonly repaired?: IndexRepair;
  readonly tables: TableNames;
  /** The seed loaded at start, if any. */
  readonly seed?: { readonly file: string; readonly data: Seed; readonly summary: SeedSummary };
  /**
   * The seed keys it may show (the banner, the reference page, the career page): the loaded seed's vendors and keys;
   * or, when the tables already held data and no seed was given, the demo seed's vendors as stored now with only the
   * keys of the file whose hash is still stored for them and not revoked (`usableSeedKeys`: keys are stored only as
   * hashes, so no other key can be shown). `vendors` is empty when none is left.
   */
  readonly seedKeys: {
    readonly file: string;
    readonly vendors: readonly SeedVendor[];
    /** Whether the seed was loaded at this start (else read again for its keys). */
    readonly loaded: boolean;
  };
  /** The career page's publishable key (`key`), or why the page has none (`missing`). */
  readonly careerPageKey: { readonly key: string } | { readonly missing: string };
  /** What it has served: statuses, and the functions' metrics (their EMF lines, kept off the terminal). */
  readonly served: ServedTally;
  /** The inbox folder, when one is watched. */
  readonly inbox?: InboxFolder;
  /** The webhook dispatch: the DynamoDB requests it has made (none while nothing changes and nothing is owed). */
  readonly webhooks: Pick<WebhookRunner, 'requests' | 'consumed' | 'pending'>;
  /**
   * Resolves once the background work the engine's writes started is done (`coalescing-runner.ts`): no webhook
   * dispatch, feed build or summary guard running, waiting or armed — a retry or a lease's guard is waited for until
   * it has fired. What a test awaits instead of a guess at how long the work takes.
   */
  idle(): Promise<void>;
  /**
   * The feeds' files it serves at `/feeds/<token>/<file>`, and their folder: `<dataDir>/feeds/`, or a temporary one
   * (removed at stop) when the data is kept in memory or by an engine that was given.
   */
  readonly feeds: { readonly folder: string; readonly files: FeedFiles };
  /**
   * Stops: no new request is started (one that arrives is refused, 503), those in flight are answered, then the
   * server and the engine close.
   */
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the whole API on localhost: a DynamoDB engine (the embedded one, or the one given) with the tables of
 * `lambda/domain/schema/tables.ts` (created if missing), the seed, and an HTTP server that plays API Gateway around the
 * real Lambda entry points (`lambda/*\/handler.ts`), which read their configuration from the environment exactly
 * as on AWS. Pagination URLs are built from the server's own address (`PUBLIC_BASE_URL`), never from a request.
 * One local API per process: the entry points configure themselves once, when first imported.
 */
export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const settings = options.settings ?? settingsOfCdkJson();
  let webhooks: WebhookRunner | undefined;
  let guards: SummaryGuardRunner | undefined;
  let feedBuilds: FeedRunner | undefined;
  const engine: EmbeddedDynamoDB | undefined = options.dynamodbEndpoint
    ? undefined
    : await startEmbeddedDynamoDB({
        port: options.dynamodbPort ?? 0,
        ...(options.dataDir && { dataDir: options.dataDir }),
        // The engine sees every write, as Streams would on AWS: it wakes the webhook dispatch and the feeds' builds,
        // and has the summaries' guards armed for the leases writers take.
        onWrite: (write) => {
          webhooks?.onWrite(write);
          guards?.onWrite(write);
          feedBuilds?.onWrite(write);
        },
      });
  const endpoint = options.dynamodbEndpoint ?? (engine as EmbeddedDynamoDB).endpoint;
  const client = createDynamoDBClient({ endpoint });
  const server = createServer({ maxHeaderSize: PARSER_MAX_HEADER_BYTES, requireHostHeader: false });
  const tables = localTableNames(options.tablePrefix);
  const served = new ServedTally();
  const requestLog = options.log && new RequestLog(options.log, (line) => process.stdout.write(`${line}\n`));
  const untap = tapFunctionOutput([process.stdout, process.stderr], {
    onMetrics: (line) => served.recordMetrics(line),
    onLog: (line) => requestLog?.functionLine(line) ?? true,
  });
  let expiry: ExpiryRunner | undefined;
  let inbox: InboxFolder | undefined;
  let temporaryFeedFolder: string | undefined;
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  const stop = async () => {
    // From now on a request is answered 503 with `Connection: close` rather than started, so a client's connection
    // is never cut under a request it sent; the requests in flight are answered (their handlers still need the
    // engine), for as long as one may take; only then does the server stop listening and the engine close.
    stopping = true;
    const expiryStopped = expiry?.stop();
    const webhooksStopped = webhooks?.stop();
    const feedBuildsStopped = feedBuilds?.stop();
    const guardsStopped = guards?.stop();
    const inboxStopped = inbox?.stop();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DRAIN_MS);
    });
    while (inFlight.size > 0) {
      const drained = await Promise.race([
        Promise.all(inFlight).then(() => true),
        deadline.then(() => false),
      ]);
      if (!drained) break;
    }
    clearTimeout(timer);
    await expiryStopped;
    await webhooksStopped;
    await feedBuildsStopped;
    await guardsStopped;
    await inboxStopped;
    const closed = server.listening
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : Promise.resolve();
    server.closeAllConnections();
    await closed;
    untap();
    client.destroy();
    await engine?.stop();
    if (temporaryFeedFolder) await rm(temporaryFeedFolder, { recursive: true, force: true });
  };
  // Every request is answered, logged and counted from the moment the port opens: until the API is ready (the
  // engine, the seed, the functions), with the 503 of a service not there yet, to retry after `Retry-After`.
  const notReady = notReadyGateway();
  let gateway: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;
  server.on('request', (_request, response) => {
    const answered = new Promise<void>((resolve) => response.once('close', resolve));
    inFlight.add(answered);
    void answered.then(() => inFlight.delete(answered));
    response.once('finish', () => served.recordStatus(response.statusCode));
  });
  // A request the parser refused is counted as an answered one, when it was read far enough to be named.
  answerRefusedRequests(server, (refused) => {
    served.recordStatus(refused.status);
    requestLog?.refused(refused);
  });
  requestLog?.attach(server);
  server.on('request', (request, response) => {
    if (gateway) void gateway(request, response);
    else notReady(request, response);
  });
  try {
    const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames);
    const fresh = !Object.values(tables).every((name) => existing.has(name));
    await createTables(client, tables);

    const port = await listen(server, options.port);
    const url = `http://127.0.0.1:${port}`;
    // The handlers share this process: its environment is the union of theirs (no variable means two things).
    Object.assign(process.env, ...Object.values(localEnvironments(settings, tables, endpoint, url)), {
      // As Lambda sets it for a container started on demand: the functions count their cold starts.
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    });
    const documentClient = createDocumentClient(client);
    const feedFolder = options.dataDir
      ? join(options.dataDir, 'feeds')
      : await mkdtemp(join(tmpdir(), 'vacancy-feeds-'));
    if (!options.dataDir) temporaryFeedFolder = feedFolder;
    // What a build killed with the last server left (its partial files): gone before this one's first build.
    else await removePartialFiles(feedFolder);
    const feedFiles = folderFeedFiles(feedFolder);
    await recordLocalDeployment(documentClient, tables.vendors, {
      ...settings,
      feeds: { base: url, folder: feedFolder },
    });

    let seed: LocalApi['seed'];
    const seedFile = options.seedFile ?? (fresh ? DEMO_SEED_FILE : undefined);
    if (seedFile) {
      const rules = {
        clock: zoneClock(settings.serviceTimeZone),
        rateTiers: Object.keys(settings.rateTiers),
      };
      const data = await readSeedFile(seedFile, rules);
      const summary = await loadSeed(documentClient, tables, data, settings.defaultRateTier, rules.clock);
      seed = { file: seedFile, data, summary };
    }
    // Tables that already held data: the demo seed's keys still stored there (and only those) can be shown again.
    const seedKeys: LocalApi['seedKeys'] = seed
      ? { file: seed.file, vendors: seed.data.vendors, loaded: true }
      : {
          file: DEMO_SEED_FILE,
          vendors: await usableSeedKeys(
            documentClient,
            tables,
            await readSeedFile(DEMO_SEED_FILE, {
              clock: zoneClock(settings.serviceTimeZone),
              rateTiers: Object.keys(settings.rateTiers),
            }),
          ),
          loaded: false,
        };

    // The summaries' guards: what a killed writer left is recovered by itself (docs/design.md#a-kill-timeline).
    guards = startSummaryGuardRunner({
      endpoint,
      tables,
      onError: (error) =>
        console.error(
          `A summary's recovery failed (${awsFailure(error)}); the next write or restart tries again, or now "vacancy-admin vacancies expire".`,
        ),
    });
    await guards.started;

    // The expiry job, as the schedule runs it: now, and after each day boundary of the service zone.
    const expiryHandler = (await import('../../lambda/functions/expiry/handler')).handler;
    expiry = startExpiryRunner({
      clock: zoneClock(settings.serviceTimeZone),
      run: () =>
        expiryHandler(
          {},
          lambdaContext('expiry', {
            timeoutMs: FUNCTION_LIMITS.expiry.timeoutSeconds * 1000,
            memoryMb: FUNCTION_LIMITS.expiry.memoryMb,
          }),
        ),
      onError: (error) =>
        console.error(
          `The expiry job failed (${awsFailure(error)}); it runs again after the next day boundary, or now with "vacancy-admin vacancies expire".`,
        ),
    });
    await expiry.started;

    webhooks = startWebhookRunner({
      endpoint,
      tables,
      apiBaseUrl: settings.publicBaseUrl || url,
      retrySchedule: settings.webhookRetrySchedule,
      poll: engine === undefined,
      onDisabled: (endpoint, reason) =>
        console.error(
          `Webhook endpoint ${endpoint.endpointId} of ${endpoint.vendorId} disabled: ${reason}. Nothing is lost: "vacancy-admin webhook enable ${endpoint.endpointId}" resumes from the first change not delivered.`,
        ),
      onError: (error) =>
        console.error(
          `The webhook dispatch failed (${awsFailure(error)}); it tries again at the next change.`,
        ),
      // A line per attempt, beside the request lines.
      ...(options.log && {
        onAttempt: (attempt: DeliveryAttempt) =>
          process.stdout.write(`${webhookAttemptLine(attempt, options.log as LogFormat)}\n`),
      }),
      ...(options.webhookResolver && { resolve: options.webhookResolver }),
    });

    // The feeds' builds: every feed now (a temporary folder starts empty), then each vendor's after its changes.
    feedBuilds = startFeedRunner({
      endpoint,
      tables,
      files: feedFiles,
      feedBase: url,
      settings: {
        clock: zoneClock(settings.serviceTimeZone),
        jobCountry: settings.jobCountry,
        salaryCurrency: settings.salaryCurrency,
        salaryPeriod: settings.salaryPeriod,
      },
      poll: engine === undefined,
      onError: (error) =>
        console.error(`A feed's build failed (${awsFailure(error)}); it is built again at the next change.`),
    });
    await feedBuilds.started;

    if (options.inboxDir) {
      inbox = await watchInboxFolder({
        folder: options.inboxDir,
        client: documentClient,
        tables,
        clock: zoneClock(settings.serviceTimeZone),
        maxClosePercent: settings.snapshotMaxClose,
        jobCountry: settings.jobCountry,
        onReport: (report) => process.stdout.write(`${inboxReportLine(report, options.log ?? 'json')}\n`),
        onError: (error, key) =>
          console.error(
            `The inbox could not handle ${key} (${awsFailure(error)}); it stays where it is: put it again.`,
          ),
      });
    }

    const handlers: GatewayHandlers = {
      authorizer: (await import('../../lambda/functions/authorizer/handler')).handler,
      listing: (await import('../../lambda/functions/vacancies/handler')).handler,
      mcp: (await import('../../lambda/functions/mcp/handler')).handler,
    };
    const demoVendor = seedKeys.vendors.find((vendor) => vendor.status === 'active');
    const demoKey = demoVendor?.api_keys[0];
    // The example career page, with a publishable key of the demo vendor for the page's origin (this port's): written
    // at every start (a restart may be on another port), unless that key was revoked since.
    const careerPageKey = await (async (): Promise<LocalApi['careerPageKey']> => {
      if (!demoVendor)
        return {
          missing: seedKeys.loaded
            ? 'the seed has no active vendor'
            : 'no vendor of the demo seed is active here with a seed key not revoked',
        };
      const apiKey = demoPageKey(demoVendor.id);
      const stored = seedKeys.loaded
        ? undefined
        : await findApiKey(documentClient, tables.vendors, hashApiKey(apiKey));
      if (stored?.revokedAt) return { missing: `its key, ${stored.keyId}, was revoked` };
      await storeApiKey(
        documentClient,
        tables.vendors,
        {
          apiKey,
          vendorId: demoVendor.id,
          label: 'career page (npm start)',
          origins: [careerPageOrigin(port)],
        },
        { replace: true },
      );
      return { key: apiKey };
    })();
    const reference = referencePages({ apiUrl: url, ...(demoKey && { demoKey }) });
    const careerPage = careerPages({
      apiUrl: url,
      key: 'key' in careerPageKey ? careerPageKey.key : '',
    });
    // No key and no rate tier: a job board fetches a feed by its URL alone.
    const feeds = feedPages(feedFiles, (error) =>
      console.error(
        `A feed's file could not be served (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      ),
    );
    // Ready: from now on the API answers.
    gateway = createLocalGateway(handlers, {
      domainName: `127.0.0.1:${port}`,
      localPages: (request, response, requestId) =>
        feeds(request, response) ||
        reference(request, response, requestId) ||
        careerPage(request, response, requestId),
      stopping: () => stopping,
      timeoutsMs: {
        authorizer: FUNCTION_LIMITS.authorizer.timeoutSeconds * 1000,
        listing: FUNCTION_LIMITS.listing.timeoutSeconds * 1000,
        mcp: FUNCTION_LIMITS.mcp.timeoutSeconds * 1000,
        ...options.timeoutsMs,
      },
      ...(options.rateLimits && {
        rateLimiter: new RateLimiter(
          settings.rateTiers,
          { rate: settings.throttlingRateLimit, burst: settings.throttlingBurstLimit },
          options.rateClock,
        ),
      }),
    });
    return {
      url,
      referenceUrl: `${url}${REFERENCE_PATH}`,
      careerPageUrl: `${careerPageOrigin(port)}${CAREER_PAGE_PATH}`,
      dynamodbEndpoint: endpoint,
      embedded: engine !== undefined,
      ...(engine?.repaired && { repaired: engine.repaired }),
      tables,
      ...(seed && { seed }),
      seedKeys,
      careerPageKey,
      served,
      ...(inbox && { inbox }),
      webhooks: {
        requests: () => webhooks?.requests() ?? 0,
        consumed: () => webhooks?.consumed() ?? { readUnits: 0, writeUnits: 0 },
        pending: () => webhooks?.pending() ?? 0,
      },
      feeds: { folder: feedFolder, files: feedFiles },
      async idle() {
        // One runner's work can wake another's (a build recorded is a write of the vendors table): idle when all
        // three are at once — and the embedded engine answers nothing, since a write it is still answering (one a
        // killed client sent) wakes them when it lands.
        const runners = [webhooks, feedBuilds, guards].filter((runner) => runner !== undefined);
        for (;;) {
          await engine?.idle();
          if (runners.every((runner) => runner.pending() === 0)) return;
          await Promise.all(runners.map((runner) => runner.idle()));
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
