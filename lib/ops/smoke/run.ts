/**
 * The smoke check's orchestration (docs/operating.md#smoke-check): a temporary vendor of its own, made with the ops
 * CLI's functions (vendors, keys, the import, webhooks, feeds); the checks of `checks.ts`, one after another, each bounded
 * in time; then, always, the removal of everything it made. It reads and writes nothing of any other vendor: every
 * write names the temporary vendor, and its vacancy ids are fresh random ones (an id another vendor holds would be
 * refused by the import, never taken over).
 */

import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { settlesAt } from '../../../lambda/domain/change-feed/settle';
import { feedUrl } from '../../../lambda/domain/feed-registry/feed';
import { parseImportFile } from '../../../lambda/domain/import/file';
import { importVacancies } from '../../../lambda/domain/import/import';
import { readChangeKey } from '../../../lambda/domain/schema/change-index';
import { ITEM } from '../../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../../../lambda/domain/settings/recovery-waits';
import type { UrlRules } from '../../../lambda/domain/webhook-registry/endpoint';
import { issueApiKey, listApiKeys, revokeApiKey } from '../api-keys';
import { ApiUnreachableError, CheckFailedError, ChecksInterruptedError } from '../errors';
import { addFeed, listFeeds, removeFeed } from '../feeds';
import type { Target } from '../target';
import { deleteVendorUsageKeys, syncUsageKeys } from '../usage-keys';
import { deleteVacancy, purgeTombstones, setVacancyStatus } from '../vacancies';
import { getVendorRecord, putVendor, setVendorStatus } from '../vendors';
import { addEndpoint, listEndpoints, removeEndpoint } from '../webhooks';
import {
  FEED_CHECK,
  GATEWAY_CHECKS,
  type NamedCheck,
  type SmokeContext,
  type SmokeVacancy,
  VENDOR_CHECKS,
  WEBHOOK_CHECK,
} from './checks';
import { Api, REQUEST_TIMEOUT_MS } from './http';

/**
 * The origin of the temporary publishable key: `.invalid` is reserved (RFC 2606), so it is no one's page — the
 * smoke check's requests are the only ones that can carry it.
 */
export const SMOKE_ORIGIN = 'https://smoke.invalid';

/** The temporary vendor's id prefix: `smoke-` and 10 random hex digits. */
export const SMOKE_VENDOR_PREFIX = 'smoke-';

/** The types of the temporary vacancies, newest first: the `type` filter keeps some and not the others. */
const VACANCY_TYPES = [1, 3, 1, 2, 3];

/**
 * How long a change may take to reach a sync or a webhook receiver by default (seconds): a webhook's first attempt
 * comes within 60 s of the change on AWS (docs/api.md#webhooks), and may take 10 s; a sync sees a change after the
 * 5-second settle window, so it is the webhook that needs the time.
 */
export const DEFAULT_CHANGE_WAIT_SECONDS = 75;

/** How often a check waiting for a change looks again. */
export const POLL_MS = 1_000;

/** The time bound of one check (more for one that waits for a change): a few requests, each bounded. */
export const CHECK_TIMEOUT_MS = 3 * REQUEST_TIMEOUT_MS;

/** One line of the report: a setup step, a check, or a cleanup step. */
export interface CheckResult {
  readonly name: string;
  readonly phase: 'setup' | 'check' | 'cleanup';
  readonly ok: boolean;
  readonly ms: number;
  /** Why it failed, in one line. */
  readonly error?: string;
}

/** What a smoke check found. */
export interface SmokeReport {
  /** Every setup step, check and cleanup step passed. */
  readonly ok: boolean;
  readonly apiUrl: string;
  /** Where its vendor, keys and vacancies were written. */
  readonly target: string;
  /** The temporary vendor; null when none was created (the API did not answer). */
  readonly vendorId: string | null;
  readonly startedAt: string;
  readonly durationMs: number;
  /** The setup steps and the checks, in the order they ran. */
  readonly checks: readonly CheckResult[];
  /** Checks not run: the API did not answer at all, or the setup failed. */
  readonly notRun: readonly string[];
  readonly cleanup: readonly CheckResult[];
}

/** How a smoke check runs. */
export interface SmokeOptions {
  /** The API's base URL (the stage's, or the custom domain). */
  readonly apiUrl: string;
  /** A receiver to add as the temporary vendor's webhook endpoint, and the URL rules of the target. */
  readonly webhook?: { readonly url: string; readonly rules: UrlRules };
  /** How long a change may take to reach a sync or a webhook (ms); `DEFAULT_CHANGE_WAIT_SECONDS` unless given. */
  readonly changeWaitMs?: number;
  /** One line for an error that is not a check's finding (an AWS error, say). */
  readonly explain: (error: unknown) => string;
  /** Told of each result as it comes (the CLI prints its line). */
  readonly onResult?: (result: CheckResult) => void;
  /** Ends the checks early (Ctrl-C): the one running fails as interrupted, and the cleanup runs all the same. */
  readonly signal?: AbortSignal;
}

/**
 * What the smoke check set out to make, for the cleanup. Each is recorded before its write, not after: a write that
 * failed may still have landed (docs/design.md#the-summary), and the cleanup looks for it all the same.
 */
interface Made {
  vendor?: boolean;
  endpoint?: boolean;
  keys?: boolean;
  /** The ids of the keys and the endpoint as their writes returned them (an index may list them a moment later). */
  keyIds: string[];
  endpointId?: string;
  vacancyIds: number[];
  feed?: boolean;
}

/** The import records of the temporary vacancies: valid, active until the end of next year, newest first. */
function smokeRecords(vendorId: string, now: Date): { records: object[]; vacancies: SmokeVacancy[] } {
  // Fresh random ids, far above the ids platforms number from.
  const firstId = 2 ** 52 + randomInt(0, 2 ** 47) * 8;
  const deadline = `${now.getUTCFullYear() + 1}-12-31`;
  // The full-time one is hybrid and paid in euros: the pay-and-place check finds it by them. The part-time one is in
  // Gəncə and Sumqayıt too: the many-places check finds it by Gəncə.
  const vacancies: SmokeVacancy[] = VACANCY_TYPES.map((type, index) => ({
    id: firstId + index,
    type,
    ...(type === 1 && { salaryCurrency: 'EUR', workplace: 'hybrid' as const }),
    ...(type === 2 && { additionalCities: ['ganja', 'sumgait'] }),
  }));
  const records = vacancies.map(({ id, type, salaryCurrency, workplace, additionalCities }, index) => ({
    id,
    vendor_id: vendorId,
    status: 'active',
    title: `Smoke check ${index + 1}`,
    url: `${SMOKE_ORIGIN}/vacancies/${id}`,
    description: 'A vacancy of the smoke check; removed when it ends.',
    requirements: '',
    responsibilities: '',
    category: 'other',
    city: 'baku',
    ...(additionalCities && { additional_cities: additionalCities }),
    type,
    salary_type: 'negotiable',
    salary_min: null,
    salary_max: null,
    salary: null,
    experience_min: 0,
    experience_max: null,
    deadline,
    ...(salaryCurrency && { salary_currency: salaryCurrency }),
    ...(workplace && { workplace }),
    // A minute apart, the newest first: the listing's order is known.
    created_at: new Date(Math.floor(now.getTime() / 1000) * 1000 - (index + 1) * 60_000)
      .toISOString()
      .replace('.000Z', 'Z'),
  }));
  return { records, vacancies };
}

/** A result, and whether the checks after it are not to run (no answer at all, or an interruption). */
type StepResult = CheckResult & { readonly endsChecks?: boolean };

/**
 * Runs a step within `bound` ms: a result, never an exception. The step gets a signal that aborts when the bound is
 * reached or `interrupt` aborts, so its requests and waits stop then too.
 */
async function timed(
  name: string,
  phase: CheckResult['phase'],
  bound: number,
  step: (signal: AbortSignal) => Promise<void>,
  explain: (error: unknown) => string,
  interrupt?: AbortSignal,
  /** Told of the step's own promise, which may go on after the bound: a write of the setup is awaited before the cleanup. */
  running?: (step: Promise<void>) => void,
): Promise<StepResult> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new CheckFailedError(`no result within ${Math.round(bound / 1000)} s`)),
    bound,
  );
  const onInterrupt = () => controller.abort(new ChecksInterruptedError('interrupted'));
  if (interrupt?.aborted) onInterrupt();
  interrupt?.addEventListener('abort', onInterrupt, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason));
  });
  try {
    const stepping = step(controller.signal);
    running?.(stepping);
    await Promise.race([aborted, stepping]);
    return { name, phase, ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      name,
      phase,
      ok: false,
      ms: Math.round(performance.now() - started),
      error: error instanceof CheckFailedError ? error.message : explain(error),
      ...((error instanceof ApiUnreachableError || error instanceof ChecksInterruptedError) && {
        endsChecks: true,
      }),
    };
  } finally {
    clearTimeout(timer);
    interrupt?.removeEventListener('abort', onInterrupt);
  }
}

/** Waits for a promise to settle, for at most `ms`. */
async function settled(promise: Promise<unknown>, ms: number): Promise<void> {
  const timeout = new AbortController();
  try {
    await Promise.race([
      promise.catch(() => undefined),
      wait(ms, undefined, { signal: timeout.signal }).catch(() => undefined),
    ]);
  } finally {
    timeout.abort();
  }
}

/**
 * Proves a deployment end to end with a temporary vendor (docs/operating.md#smoke-check): makes the vendor, its keys,
 * a few vacancies and (with `webhook`) an endpoint; runs the checks over HTTP; then removes what it made, whatever
 * happened — keys revoked, endpoint removed, vacancies deleted and their tombstones purged, the vendor suspended and,
 * on a stack, its API Gateway keys deleted. A check that gets no answer at all ends the checks: the others would say
 * the same.
 */
export async function runSmoke(target: Target, options: SmokeOptions): Promise<SmokeReport> {
  const started = new Date();
  const api = new Api(options.apiUrl);
  const vendorId = `${SMOKE_VENDOR_PREFIX}${randomBytes(5).toString('hex')}`;
  const company = `Smoke check ${vendorId}`;
  const { documentClient: client, tables } = target;
  const changeMs = options.changeWaitMs ?? DEFAULT_CHANGE_WAIT_SECONDS * 1_000;
  const checks: CheckResult[] = [];
  const cleanup: CheckResult[] = [];
  const notRun: string[] = [];
  const made: Made = { keyIds: [], vacancyIds: [] };
  const report = (into: CheckResult[], { endsChecks: _, ...result }: StepResult) => {
    into.push(result);
    options.onResult?.(result);
    return result;
  };
  // A setup step is not interrupted (what it writes must be known to the cleanup): an interruption ends the setup
  // after it. One that outlives its bound is awaited before the cleanup, for the same reason.
  let settingUp: Promise<void> | undefined;
  const step = async (name: string, run: (signal: AbortSignal) => Promise<void>) => {
    const result = await timed(
      name,
      'setup',
      CHECK_TIMEOUT_MS,
      run,
      options.explain,
      undefined,
      (running) => {
        settingUp = running;
      },
    );
    report(checks, result);
    return result.ok && !options.signal?.aborted;
  };

  const { records, vacancies } = smokeRecords(vendorId, started);
  let rateTier = target.rateTiers.defaultTier;
  let secretKey = '';
  let publishableKey = '';
  const feeds = 'base' in target.feeds ? target.feeds : undefined;
  let feedOfVendor: string | undefined;
  const vendorChecks = [
    ...(feeds ? [FEED_CHECK] : []),
    ...VENDOR_CHECKS,
    ...(options.webhook ? [WEBHOOK_CHECK] : []),
  ];
  const names = (list: readonly NamedCheck<never>[]) => list.map((check) => check.name);
  const summary = (): SmokeReport => ({
    ok: notRun.length === 0 && [...checks, ...cleanup].every((result) => result.ok),
    apiUrl: api.base,
    target: target.description,
    vendorId: made.vendor ? vendorId : null,
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    checks,
    notRun,
    cleanup,
  });
  /** Runs checks in order; false when one ended them (no answer at all, or an interruption): the rest do not run. */
  const runChecks = async <C>(list: readonly NamedCheck<C>[], context: C): Promise<boolean> => {
    for (const [index, check] of list.entries()) {
      const bound = CHECK_TIMEOUT_MS + (check.mayWait ? changeMs : 0);
      const result = await timed(
        check.name,
        'check',
        bound,
        (signal) => check.run(context, signal),
        options.explain,
        options.signal,
      );
      report(checks, result);
      if (result.endsChecks) {
        notRun.push(...names(list.slice(index + 1)));
        return false;
      }
    }
    return true;
  };

  // The gateway's own answers first: a target that does not answer fails here, and nothing is made for it.
  if (!(await runChecks(GATEWAY_CHECKS, { api, origin: SMOKE_ORIGIN }))) {
    notRun.push(...names(vendorChecks));
    return summary();
  }
  try {
    const setUp =
      (await step('vendor created', async () => {
        if (await getVendorRecord(client, tables.vendors, vendorId))
          throw new CheckFailedError(`vendor ${vendorId} exists already; run the smoke check again`);
        made.vendor = true;
        const saved = await putVendor(
          client,
          tables.vendors,
          { vendorId, company },
          { defaultRateTier: target.rateTiers.defaultTier },
        );
        rateTier = saved.rateTier;
        // On a stack, API Gateway admits the vendor's requests only with its usage keys in their plans.
        if (target.usageKeys) await syncUsageKeys(target.usageKeys, saved);
      })) &&
      // Before anything else is written: a receiver the target refuses ends the run at once.
      (!options.webhook ||
        (await step('webhook endpoint added', async () => {
          const { url, rules } = options.webhook as NonNullable<SmokeOptions['webhook']>;
          made.endpoint = true;
          made.endpointId = (await addEndpoint(client, tables.vendors, vendorId, url, rules)).endpointId;
        }))) &&
      (await step('keys issued', async () => {
        made.keys = true;
        const secret = await issueApiKey(client, tables.vendors, vendorId, 'smoke check');
        if (secret) made.keyIds.push(secret.keyId);
        const publishable = await issueApiKey(client, tables.vendors, vendorId, 'smoke check', [
          SMOKE_ORIGIN,
        ]);
        if (publishable) made.keyIds.push(publishable.keyId);
        if (!secret || !publishable) throw new CheckFailedError(`vendor ${vendorId} vanished`);
        secretKey = secret.apiKey;
        publishableKey = publishable.apiKey;
      })) &&
      (await step('vacancies imported', async () => {
        // As `vacancies import` reads a file: NDJSON bytes, then the import's own checks and writes.
        const ndjson = records.map((record) => JSON.stringify(record)).join('\n');
        const sources = parseImportFile(ndjson);
        made.vacancyIds.push(...vacancies.map((vacancy) => vacancy.id));
        const imported = await importVacancies(client, tables, sources, { clock: target.clock });
        if (imported.rejected.length > 0 || imported.interrupted)
          throw new CheckFailedError(
            `the import ${imported.interrupted ? `stopped: ${imported.interrupted}` : `refused ${imported.rejected.map((r) => `line ${r.line}: ${r.reasons.join('; ')}`).join(', ')}`}`,
          );
      })) &&
      // A target that serves feeds: an `indeed` feed of the vendor, built at once (locally, as the server sees it).
      (!feeds ||
        (await step('feed added', async () => {
          made.feed = true;
          const feed = await addFeed(client, tables.vendors, vendorId, 'indeed', target.defaultLocale);
          await target.buildFeeds?.(vendorId);
          feedOfVendor = feedUrl(feeds.base, feed);
        })));

    if (!setUp) notRun.push(...names(vendorChecks));
    else {
      const context: SmokeContext = {
        api,
        company,
        rateTier,
        secretKey,
        publishableKey,
        origin: SMOKE_ORIGIN,
        vacancies,
        ...(feedOfVendor && { feedUrl: feedOfVendor }),
        waits: { changeMs, pollMs: POLL_MS },
        closeVacancy: async (id) => {
          const outcome = await setVacancyStatus(client, tables, id, 'closed', {
            vendorId,
            clock: target.clock,
          });
          if (!('changed' in outcome)) throw new CheckFailedError(`vacancy ${id} could not be closed`);
          return { id, updatedAt: outcome.now[ITEM.updatedAt] };
        },
        ...(made.endpointId && {
          webhookProgress: async () => {
            const endpoint = (await listEndpoints(client, tables.vendors, vendorId)).find(
              (candidate) => candidate.endpointId === made.endpointId,
            );
            if (!endpoint) throw new CheckFailedError(`webhook endpoint ${made.endpointId} is gone`);
            return {
              ...(endpoint.lastAttempt && { lastOutcome: endpoint.lastAttempt.outcome }),
              deliveredThrough: readChangeKey(endpoint.position).updatedAt,
            };
          },
        }),
      };
      await runChecks(vendorChecks, context);
    }
  } finally {
    if (settingUp) await settled(settingUp, CHECK_TIMEOUT_MS);
    await removeWhatWasMade(target, vendorId, made, options, (result) => report(cleanup, result));
  }
  return summary();
}

/**
 * Removes what the smoke check made, each step on its own (one failing does not keep the others from running):
 * the endpoint, the feed, the keys, the vacancies, the vendor's status, the tombstones, the vendor's API Gateway keys.
 */
async function removeWhatWasMade(
  target: Target,
  vendorId: string,
  made: Made,
  options: SmokeOptions,
  report: (result: CheckResult) => void,
): Promise<void> {
  const { documentClient: client, tables } = target;
  const step = async (name: string, bound: number, run: (signal: AbortSignal) => Promise<void>) =>
    report(await timed(`cleanup: ${name}`, 'cleanup', bound, run, options.explain));

  if (made.endpoint)
    await step('webhook endpoint removed', CHECK_TIMEOUT_MS, async () => {
      const listed = (await listEndpoints(client, tables.vendors, vendorId)).map((e) => e.endpointId);
      for (const endpointId of new Set([...(made.endpointId ? [made.endpointId] : []), ...listed]))
        await removeEndpoint(client, tables.vendors, endpointId);
    });
  if (made.feed)
    await step('feed removed', CHECK_TIMEOUT_MS, async () => {
      const files = 'base' in target.feeds ? target.feeds.files : undefined;
      for (const feed of await listFeeds(client, tables.vendors, vendorId))
        await removeFeed(client, tables.vendors, feed.feedId, files);
    });
  if (made.keys)
    await step('keys revoked', CHECK_TIMEOUT_MS, async () => {
      const live = (await listApiKeys(client, tables.vendors, vendorId)).filter((key) => !key.revokedAt);
      for (const keyId of new Set([...made.keyIds, ...live.map((key) => key.keyId)]))
        await revokeApiKey(client, tables.vendors, keyId);
    });
  // Only the vacancies this vendor holds are deleted: an id the import refused (another vendor's) is left alone.
  let deleted = 0;
  let deletedAt = 0;
  if (made.vacancyIds.length > 0)
    await step('vacancies deleted', CHECK_TIMEOUT_MS, async () => {
      for (const id of made.vacancyIds) {
        const outcome = await deleteVacancy(client, tables, id, { vendorId });
        if ('changed' in outcome) deleted += 1;
      }
      deletedAt = Date.now();
    });
  if (made.vendor)
    await step('vendor suspended', CHECK_TIMEOUT_MS, async () => {
      // False only when its creation never landed: nothing to suspend.
      await setVendorStatus(client, tables.vendors, vendorId, 'suspended');
    });
  if (deleted > 0)
    // A purge removes only tombstones older than the settle window (lib/ops/vacancies.ts): it waits that long first.
    await step('vacancies purged', CHECK_TIMEOUT_MS + INDEX_SETTLE_MS, async (signal) => {
      let removed = 0;
      for (;;) {
        await wait(Math.max(POLL_MS, settlesAt(deletedAt) - Date.now()), undefined, { signal });
        removed += (await purgeTombstones(client, tables, vendorId, Date.now())).removed;
        if (removed >= deleted) return;
      }
    });
  const { usageKeys } = target;
  if (made.vendor && usageKeys)
    await step('usage keys deleted', CHECK_TIMEOUT_MS, async () => {
      const vendor = await getVendorRecord(client, tables.vendors, vendorId);
      if (vendor) await deleteVendorUsageKeys(usageKeys, vendor);
    });
}
