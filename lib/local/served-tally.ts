/**
 * What the local server served, as the deployed dashboard would show it (docs/operating.md#dashboard): requests
 * by status, and the functions' own metrics — read from the EMF lines they print, as CloudWatch reads them
 * from their logs. `npm start` prints it on Ctrl-C.
 */
import { FUNCTION_METRICS } from '../../lambda/domain/service/metrics';

/** Adds `by` to the count of `key`. */
function increment<K>(counts: Map<K, number>, key: K, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

/** Counts of values: exact percentiles in memory bounded by the number of distinct values, not of requests. */
class Tally {
  readonly #counts = new Map<number, number>();
  #total = 0;

  add(value: number): void {
    increment(this.#counts, value);
    this.#total += 1;
  }

  get total(): number {
    return this.#total;
  }

  /** The nearest-rank percentile (`p` in 0–100); undefined when empty. */
  percentile(p: number): number | undefined {
    const rank = Math.max(1, Math.ceil((p / 100) * this.#total));
    let seen = 0;
    for (const value of [...this.#counts.keys()].sort((a, b) => a - b)) {
      seen += this.#counts.get(value) ?? 0;
      if (seen >= rank) return value;
    }
    return undefined;
  }
}

/** The metric values of one EMF line, by metric name (a value repeated in one line is an array). */
type EmfValues = ReadonlyMap<string, readonly number[]>;

/** A metric's values in an EMF line, parsed as CloudWatch does: the names its `_aws` block declares. */
export function emfValues(line: unknown): EmfValues | undefined {
  if (typeof line !== 'object' || line === null || !('_aws' in line)) return undefined;
  const record = line as Record<string, unknown> & {
    _aws?: { CloudWatchMetrics?: { Metrics?: { Name?: unknown }[] }[] };
  };
  const values = new Map<string, number[]>();
  for (const directive of record._aws?.CloudWatchMetrics ?? []) {
    for (const { Name } of directive.Metrics ?? []) {
      if (typeof Name !== 'string' || !Object.hasOwn(record, Name)) continue;
      const value = record[Name];
      values.set(
        Name,
        [value].flat().filter((v): v is number => typeof v === 'number'),
      );
    }
  }
  return values;
}

/** The running summary of a local server. */
export class ServedTally {
  readonly #started = Date.now();
  readonly #statuses = new Map<number, number>();
  readonly #readUnits = new Tally();
  readonly #calls = new Tally();
  readonly #items = new Tally();
  readonly #coldStarts = new Map<string, number>();
  #keysRefused = 0;
  readonly #expiry = { runs: 0, expired: 0, recounted: 0, unfinished: 0 };

  /** One answered request. */
  recordStatus(status: number): void {
    increment(this.#statuses, status);
  }

  /** One EMF line a function printed. */
  recordMetrics(line: unknown): void {
    const values = emfValues(line);
    if (!values) return;
    const each = (name: string, use: (value: number) => void) => {
      for (const value of values.get(name) ?? []) use(value);
    };
    each(FUNCTION_METRICS.readUnits, (value) => this.#readUnits.add(value));
    each(FUNCTION_METRICS.dynamodbCalls, (value) => this.#calls.add(value));
    each(FUNCTION_METRICS.itemsReturned, (value) => this.#items.add(value));
    each(FUNCTION_METRICS.keysRefused, (value) => {
      this.#keysRefused += value;
    });
    each(FUNCTION_METRICS.vacanciesExpired, (value) => {
      this.#expiry.runs += 1;
      this.#expiry.expired += value;
    });
    each(FUNCTION_METRICS.summariesRecounted, (value) => {
      this.#expiry.recounted += value;
    });
    each(FUNCTION_METRICS.expiryUnfinished, (value) => {
      this.#expiry.unfinished += value;
    });
    const functionName = (line as Record<string, unknown>).function_name;
    each(FUNCTION_METRICS.coldStart, (value) => {
      const name = typeof functionName === 'string' ? functionName : 'function';
      increment(this.#coldStarts, name, value);
    });
  }

  /** The summary, a few lines of text. */
  format(now = Date.now()): string {
    const requests = [...this.#statuses.values()].reduce((sum, count) => sum + count, 0);
    const seconds = Math.round((now - this.#started) / 1000);
    const lines = [`Served ${requests} request${requests === 1 ? '' : 's'} in ${seconds} s.`];
    if (requests > 0) {
      const byStatus = [...this.#statuses].sort(([a], [b]) => a - b);
      lines.push(`  by status:   ${byStatus.map(([status, count]) => `${status} × ${count}`).join(', ')}`);
    }
    const spread = (tally: Tally) =>
      `p50 ${tally.percentile(50)}, p99 ${tally.percentile(99)}, max ${tally.percentile(100)}`;
    if (this.#readUnits.total > 0) {
      lines.push(
        `  listings:    ${this.#readUnits.total} served`,
        `  read units per listing:     ${spread(this.#readUnits)}`,
        `  DynamoDB calls per listing: ${spread(this.#calls)}`,
        `  items per listing:          ${spread(this.#items)}`,
      );
    }
    if (this.#keysRefused > 0) lines.push(`  keys refused by the authorizer: ${this.#keysRefused}`);
    const { runs, expired, recounted, unfinished } = this.#expiry;
    if (runs > 0) {
      lines.push(
        `  expiry job: ${runs} run${runs === 1 ? '' : 's'}, ${expired} vacancies expired, ${recounted} summaries recounted` +
          (unfinished > 0 ? `, ${unfinished} unfinished` : ''),
      );
    }
    if (this.#coldStarts.size > 0) {
      const starts = [...this.#coldStarts].map(([name, count]) => `${name} ${count}`).join(', ');
      lines.push(`  cold starts: ${starts}`);
    }
    return lines.join('\n');
  }
}
