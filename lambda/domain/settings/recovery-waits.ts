/**
 * The waits that bound how long a killed process holds things up (docs/design.md#a-kill-timeline,
 * docs/operating.md#recovery-waits): the settle window of the indexes, the summary writers' lease, how late a write
 * may still land, and the webhook dispatch's lease. Each is what AWS needs by default, and no deployment may go
 * below that: a value below it is taken only with a DynamoDB endpoint of one's own (`DYNAMODB_ENDPOINT`: the local
 * server, the tests), where nothing signs a request and the engine answers at once, so that tests can wait seconds
 * where AWS needs minutes. Read once per process, from its environment.
 */
import { whole } from './checks';
import type { Environment } from './environment';
import { SettingError } from './errors';

/** One wait: the variable that shortens it (in ms), what AWS needs, and why. */
export interface RecoveryWaitDefinition {
  readonly variable: string;
  /** What AWS needs (ms): the default, and the least a deployment takes. */
  readonly awsMs: number;
  readonly why: string;
  /** The least it may be even on an engine of one's own (ms); 1 when not given. */
  readonly leastMs?: number;
}

/** The waits, each written once. */
export const RECOVERY_WAITS = {
  settleMs: {
    variable: 'VVA_SETTLE_MS',
    awsMs: 5_000,
    why: 'a write lands within 2 s of its stamp, a stamp may lag DynamoDB by a second, and an index follows its table',
    // A snapshot is the settled time rounded up to a whole second: a shorter window would put it after now.
    leastMs: 1_000,
  },
  summaryLeaseMs: {
    variable: 'VVA_SUMMARY_LEASE_MS',
    // Renewed every 15 s while the writer writes (at half its length): the shorter the lease, the sooner a dead
    // writer's summary is recovered (docs/design.md#a-kill-timeline) — 30 s keeps that within 7 minutes with a
    // schedule's own minute of lateness to spare.
    awsMs: 30_000,
    why: "a writer's lease must outlast its slowest write and its renewal, under DynamoDB's retries",
  },
  lateWriteMs: {
    variable: 'VVA_LATE_WRITE_MS',
    awsMs: 300_000,
    why: 'a signed AWS request is accepted for 5 minutes after it was signed',
  },
  webhookLeaseMs: {
    variable: 'VVA_WEBHOOK_LEASE_MS',
    awsMs: 30_000,
    why: 'a delivery takes up to 10 s, with its DynamoDB writes around it',
  },
} as const satisfies Record<string, RecoveryWaitDefinition>;

export type RecoveryWaits = { readonly [K in keyof typeof RECOVERY_WAITS]: number };

/**
 * The waits from an environment: each variable unset takes what AWS needs; one set below it is refused
 * (`SettingError`, one line) unless the environment names a DynamoDB endpoint of its own.
 */
export function recoveryWaits(env: Environment = process.env): RecoveryWaits {
  const ownEngine = Boolean(env.DYNAMODB_ENDPOINT);
  const waits: Record<string, number> = {};
  for (const [name, definition] of Object.entries(RECOVERY_WAITS)) {
    const raw = env[definition.variable];
    if (raw === undefined || raw === '') {
      waits[name] = definition.awsMs;
      continue;
    }
    const least = ownEngine ? ((definition as RecoveryWaitDefinition).leastMs ?? 1) : definition.awsMs;
    const value = whole(least, 24 * 3_600_000)(raw);
    if (value === undefined)
      throw new SettingError(
        `${definition.variable} = ${JSON.stringify(raw)} is not allowed: a whole number of milliseconds from ${least}${ownEngine ? '' : ` (on AWS: ${definition.why})`}.`,
      );
    waits[name] = value;
  }
  return waits as RecoveryWaits;
}

/** This process's waits. */
export const WAITS: RecoveryWaits = recoveryWaits();

/**
 * How long the indexes may take to show a write: a summary is trusted only this long after its last writer let go
 * (rule 3 of `isCurrent`), and a recount waits this long before it counts.
 */
export const INDEX_SETTLE_MS = WAITS.settleMs;

/**
 * How late a write can reach DynamoDB after it was sent: a signed AWS request is refused once its signature is
 * 5 minutes old, so a write sent under a lease has landed, or never will, 5 minutes after the lease ran out. A lease
 * is taken over (by a recount) only then (docs/design.md#the-summary). Shorter only on an engine of one's own.
 */
export const LATE_WRITE_MS = WAITS.lateWriteMs;
