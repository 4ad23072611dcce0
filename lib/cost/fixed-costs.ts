/**
 * What a deployment costs every month while nobody calls it (docs/operating.md#cost), computed from its synthesized
 * CloudFormation template against the price table (`prices.ts`): alarm metrics, dashboards, Contributor Insights
 * rules, custom metrics — from metric filters, and from what each function emits in EMF unless its metrics are
 * disabled (`POWERTOOLS_METRICS_DISABLED`) — AWS WAF, KMS keys, secrets, hosted zones, and the scheduled runs of
 * the expiry job. A test holds the tables of the docs to it (`npm run cost` prints them).
 */
import { FUNCTION_NAMES, type FunctionName } from '../../lambda/domain/service/limits';
import { FUNCTION_METRICS, METRICS_EMITTED } from '../../lambda/domain/service/metrics';
import type { CfnTemplate } from '../synth/template';
import { IDLE_SCHEDULED_RUN_SECONDS, PRICES } from './prices';

/** One line of the bill: what, how many, the unit price, and the month's cost. */
export interface CostLine {
  readonly item: string;
  readonly count: number;
  readonly unitPrice: number;
  readonly monthly: number;
}

const resourcesOf = (template: CfnTemplate, type: string) =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

const line = (item: string, count: number, unitPrice: number): CostLine => ({
  item,
  count,
  unitPrice,
  monthly: Math.round(count * unitPrice * 10_000) / 10_000,
});

/**
 * The metrics an alarm reads: each metric of a metric-math alarm (its expressions are free), else its one metric —
 * an alarm on an expression alone (a Contributor Insights rule's) counts as one.
 */
function alarmMetrics(properties: Record<string, unknown>): number {
  const metrics = properties.Metrics as { MetricStat?: unknown }[] | undefined;
  return metrics ? Math.max(1, metrics.filter((metric) => metric.MetricStat !== undefined).length) : 1;
}

/** The function of a template's Lambda function, by the id `ServiceFunctions` gives it. */
function functionOf(logicalId: string): FunctionName | undefined {
  return FUNCTION_NAMES.find((name) =>
    logicalId.startsWith(`Functions${name[0]?.toUpperCase()}${name.slice(1)}Function`),
  );
}

/** Runs a month of a schedule expression: `rate(1 hour)`, `cron(5 * * * ? *)` (hourly) and the like. */
function runsPerMonth(expression: string): number {
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  const perDay = { minute: 1_440, minutes: 1_440, hour: 24, hours: 24, day: 1, days: 1 } as const;
  if (rate) return (30 * perDay[rate[2] as keyof typeof perDay]) / Number(rate[1]);
  const cron = /^cron\((\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\)$/.exec(expression);
  if (cron && /^\d+$/.test(cron[1] as string) && cron[2] === '*' && ['*', '?'].includes(cron[3] as string))
    return 720;
  if (cron && /^\d+$/.test(cron[1] as string) && /^\d+$/.test(cron[2] as string)) return 30;
  throw new Error(`A schedule the cost model does not read: ${expression}`);
}

/** The monthly fixed costs of a template, one line each (lines of nothing left out). */
export function fixedCosts(template: CfnTemplate): CostLine[] {
  const lines: CostLine[] = [];
  const alarms = resourcesOf(template, 'AWS::CloudWatch::Alarm');
  const alarmMetricCount = alarms.reduce((sum, [, alarm]) => sum + alarmMetrics(alarm.Properties ?? {}), 0);
  lines.push(line(`alarm metrics (${alarms.length} alarms)`, alarmMetricCount, PRICES.alarmMetric));

  // Custom metrics: each distinct namespace, name and dimensions, whoever makes it.
  const custom = new Set<string>();
  for (const [, filter] of resourcesOf(template, 'AWS::Logs::MetricFilter')) {
    for (const transformation of (filter.Properties?.MetricTransformations ?? []) as Record<
      string,
      unknown
    >[]) {
      custom.add(
        JSON.stringify([
          transformation.MetricNamespace,
          transformation.MetricName,
          transformation.Dimensions ?? [],
        ]),
      );
    }
  }
  const fromFilters = custom.size;
  for (const [logicalId, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
    const name = functionOf(logicalId);
    const variables = ((fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables ?? {}) as Record<string, unknown>;
    if (!name || variables.POWERTOOLS_METRICS_DISABLED === 'true') continue;
    for (const metric of METRICS_EMITTED[name]) {
      custom.add(
        JSON.stringify(['emf', FUNCTION_METRICS[metric], metric === 'coldStart' ? name : 'service']),
      );
    }
  }
  lines.push(
    line(
      `custom metrics (${fromFilters} from log metric filters, ${custom.size - fromFilters} from the functions' EMF)`,
      custom.size,
      PRICES.customMetric,
    ),
  );

  lines.push(
    line('dashboards', resourcesOf(template, 'AWS::CloudWatch::Dashboard').length, PRICES.dashboard),
  );
  lines.push(
    line(
      'Contributor Insights rules',
      resourcesOf(template, 'AWS::CloudWatch::InsightRule').length,
      PRICES.contributorInsightsRule,
    ),
  );
  const acls = resourcesOf(template, 'AWS::WAFv2::WebACL');
  lines.push(line('AWS WAF web ACLs', acls.length, PRICES.wafWebAcl));
  lines.push(
    line(
      'AWS WAF rules',
      acls.reduce((sum, [, acl]) => sum + ((acl.Properties?.Rules as unknown[] | undefined)?.length ?? 0), 0),
      PRICES.wafRule,
    ),
  );
  lines.push(
    line('KMS keys (customer managed)', resourcesOf(template, 'AWS::KMS::Key').length, PRICES.kmsKey),
  );
  lines.push(
    line(
      'Secrets Manager secrets',
      resourcesOf(template, 'AWS::SecretsManager::Secret').length,
      PRICES.secret,
    ),
  );
  lines.push(
    line(
      'Route 53 hosted zones',
      resourcesOf(template, 'AWS::Route53::HostedZone').length,
      PRICES.hostedZone,
    ),
  );

  // What runs on a schedule with nobody calling: each run an invocation, a Lambda request and its compute.
  const functionMemory = new Map(
    resourcesOf(template, 'AWS::Lambda::Function').map(([id, fn]) => [
      id,
      Number(fn.Properties?.MemorySize ?? 128),
    ]),
  );
  for (const [, schedule] of resourcesOf(template, 'AWS::Scheduler::Schedule')) {
    const runs = runsPerMonth(String(schedule.Properties?.ScheduleExpression));
    const target = JSON.stringify((schedule.Properties?.Target as { Arn?: unknown } | undefined)?.Arn ?? '');
    const [id, memory = 128] =
      [...functionMemory].find(([logicalId]) => target.includes(`"${logicalId}"`)) ?? [];
    const name = id ? (functionOf(id) ?? id) : 'a function';
    const perRun =
      PRICES.schedulerInvocation +
      PRICES.lambdaRequest +
      (memory / 1024) * IDLE_SCHEDULED_RUN_SECONDS * PRICES.lambdaGbSecond;
    lines.push(
      line(`scheduled runs of ${name} (${memory} MB, ~${IDLE_SCHEDULED_RUN_SECONDS} s each)`, runs, perRun),
    );
  }
  return lines.filter(({ count }) => count > 0);
}

/** The month's total of some lines, in dollars to the cent. */
export const monthlyTotal = (lines: readonly CostLine[]) =>
  Math.round(lines.reduce((sum, { monthly }) => sum + monthly, 0) * 100) / 100;

/** Dollars as the docs write them: to the cent, or to two significant digits under a cent. */
function dollars(value: number): string {
  if (value === 0 || value >= 0.01) return `$${value.toFixed(2)}`;
  // Two significant digits: $0.0033, $0.0000046.
  return `$${value.toFixed(1 - Math.floor(Math.log10(value)))}`;
}

/** The lines as the docs' table: what, how many, the price, the month. */
export function costTable(lines: readonly CostLine[]): string {
  return [
    '| what | count | price | per month |',
    '|---|---|---|---|',
    ...lines.map(
      ({ item, count, unitPrice, monthly }) =>
        `| ${item} | ${count} | ${dollars(unitPrice)} | ${dollars(monthly)} |`,
    ),
    `| **idle total** | | | **${dollars(monthlyTotal(lines))}** |`,
  ].join('\n');
}
