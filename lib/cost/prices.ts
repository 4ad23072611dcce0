/**
 * The prices of what a deployment is billed for every month whether or not anyone calls it (docs/operating.md#cost):
 * AWS's published on-demand list prices for us-east-1, without the free tier. Kept here, once, so that the idle cost
 * is computed from the synthesized stack (`fixed-costs.ts`), never typed. Check them against the pricing pages when
 * they change: CloudWatch, Lambda, EventBridge Scheduler, AWS WAF, KMS, Secrets Manager, Route 53.
 */
export const PRICES = {
  /** A standard-resolution metric an alarm reads (a metric-math alarm pays for each metric in it), per month. */
  alarmMetric: 0.1,
  /** A custom metric — from EMF or from a metric filter — per month (the first 10,000 tier). */
  customMetric: 0.3,
  /** A CloudWatch dashboard, per month. */
  dashboard: 3,
  /** A Contributor Insights rule, per month. */
  contributorInsightsRule: 0.5,
  /** An AWS WAF web ACL, and each rule in it, per month. */
  wafWebAcl: 5,
  wafRule: 1,
  /** A customer managed KMS key, per month (AWS managed keys are free). */
  kmsKey: 1,
  /** A Secrets Manager secret, per month. */
  secret: 0.4,
  /** A Route 53 hosted zone, per month. */
  hostedZone: 0.5,
  /** An invocation by EventBridge Scheduler. */
  schedulerInvocation: 1 / 1_000_000,
  /** A Lambda request, and a GB-second of arm64 compute. */
  lambdaRequest: 0.2 / 1_000_000,
  lambdaGbSecond: 0.0000133334,
} as const;

/**
 * What a scheduled run of a function takes when nobody uses the API: the expiry job with nothing to expire reads one
 * page of each expiry shard and of the vendors, about half a second (its `Expiry run` log line says `durationMs`).
 * Counted generously.
 */
export const IDLE_SCHEDULED_RUN_SECONDS = 1;
