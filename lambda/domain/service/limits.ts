/**
 * The service's limits, written once: what each function may spend on a request, the bounds of `per_page`, the
 * webhooks' wake-ups and the service's name. (What an operator may choose is a setting: `domain/settings/settings.ts`.)
 */
/** The bounds of `per_page`, a request's and the default alike (docs/api.md#query-parameters). */
export const PER_PAGE_LIMITS = { min: 1, max: 100 } as const;

/** What one function may spend on a request, and how its DynamoDB calls are sized to fit in it. */
export interface FunctionLimits {
  /** Lambda timeout: the stack deploys it, the local server enforces it. */
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  /**
   * Kept back from the function's remaining time when a request starts: DynamoDB calls are aborted this long
   * before the timeout, which leaves the time to answer 503 instead of being cut off by Lambda (a 502).
   */
  readonly reserveMs: number;
  /** SDK attempts per call (the first included), and the limits of one attempt. */
  readonly dynamodb: {
    readonly maxAttempts: number;
    readonly connectionTimeoutMs: number;
    readonly requestTimeoutMs: number;
  };
}

/**
 * The functions (docs/design.md#time-budget). One DynamoDB call, with every SDK attempt at its
 * limits and the SDK's backoff between them, fits in the budget (timeout less reserve); a request that makes
 * several calls is cut off by its deadline instead.
 */
export const FUNCTION_LIMITS = {
  // Two GetItems, and a policy; the answer is cached per key for minutes, so it rarely runs.
  authorizer: {
    timeoutSeconds: 5,
    memoryMb: 256,
    reserveMs: 500,
    dynamodb: { maxAttempts: 2, connectionTimeoutMs: 500, requestTimeoutMs: 1_000 },
  },
  // Lambda's CPU share grows with memory: at 512 MB a cold start and a 100-item page stay well under 100 ms.
  listing: {
    timeoutSeconds: 10,
    memoryMb: 512,
    reserveMs: 1_000,
    dynamodb: { maxAttempts: 3, connectionTimeoutMs: 500, requestTimeoutMs: 2_000 },
  },
  // The MCP server (docs/api.md#agents-mcp): a tool call is a listing's request in another envelope — the listing's
  // reads, time budget and memory.
  mcp: {
    timeoutSeconds: 10,
    memoryMb: 512,
    reserveMs: 1_000,
    dynamodb: { maxAttempts: 3, connectionTimeoutMs: 500, requestTimeoutMs: 2_000 },
  },
  // Hourly, and nobody waits on it: patient with a throttling DynamoDB, and what it leaves the next run does.
  expiry: {
    timeoutSeconds: 300,
    memoryMb: 256,
    reserveMs: 15_000,
    dynamodb: { maxAttempts: 8, connectionTimeoutMs: 1_000, requestTimeoutMs: 5_000 },
  },
  // Files of up to 100,000 records and 512 MB (docs/operating.md#the-inbox): Lambda's longest run, and memory for
  // the file and its records — 0.93 GB at the peak for 100,000 records in 274 MB, measured — with room for a file
  // twice as large. It stops a minute before its timeout to move the file and write its report.
  inbox: {
    timeoutSeconds: 900,
    memoryMb: 3_072,
    reserveMs: 60_000,
    dynamodb: { maxAttempts: 8, connectionTimeoutMs: 1_000, requestTimeoutMs: 5_000 },
  },
  // Woken by the vacancies table's stream, and by one-time schedules for retries: a few deliveries of at most 10 s
  // each, one endpoint at a time; it stops before its time is spent and has the rest sent by the next run.
  webhooks: {
    timeoutSeconds: 120,
    memoryMb: 256,
    reserveMs: 25_000,
    dynamodb: { maxAttempts: 3, connectionTimeoutMs: 1_000, requestTimeoutMs: 3_000 },
  },
  // Woken by the vacancies table's stream (a few schedules made, in a second) and by a vendor's one-time schedule:
  // one build of all its feeds, streamed — a call's worth of vacancies, each writer's chunk and a part being
  // uploaded (8 MiB a file) held at once, whatever the vendor's size. 100,000 vacancies are some 1,000 BatchGetItems
  // and a few hundred MB of XML gzipped on the way: minutes at most, so 5 of them; 1,024 MB for the CPU share that
  // gzip and the writers use (Lambda's CPU grows with memory), not for what is held.
  feeds: {
    timeoutSeconds: 300,
    memoryMb: 1_024,
    reserveMs: 15_000,
    dynamodb: { maxAttempts: 8, connectionTimeoutMs: 1_000, requestTimeoutMs: 5_000 },
  },
} as const satisfies Record<string, FunctionLimits>;

/**
 * The webhooks function's wake-ups (docs/design.md#webhooks; the policy is `lambda/functions/webhooks/wake-up.ts`): one due
 * within `inRunWaitMs` is waited for in the run, a later one is a one-time schedule; a dispatch stops before its next
 * event when less than `stopMarginMs` of the run's time is left (a delivery takes up to 10 s), and its endpoint is
 * woken again to go on.
 */
export const WEBHOOK_WAKE_UPS = { inRunWaitMs: 20_000, stopMarginMs: 15_000 } as const;

/** The functions of the service. */
export type FunctionName = keyof typeof FUNCTION_LIMITS;
/** Their names, for what is done for each function. */
export const FUNCTION_NAMES = Object.keys(FUNCTION_LIMITS) as FunctionName[];

/** The service's name in its logs and metrics. */
export const SERVICE_NAME = 'vendor-vacancy-api';
