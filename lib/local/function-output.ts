/**
 * What the functions print, taken apart the way CloudWatch takes apart a Lambda's log: their EMF lines (metrics,
 * never shown) and their structured log lines (shown as the local server's log format asks), and everything else,
 * written as it was. The local server runs the functions in its own process, so this is where their output passes.
 */

/** A structured log line of a function (Powertools Logger): at least its level and message. */
export interface FunctionLogLine {
  readonly level: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

/** What to do with the functions' lines. */
export interface FunctionOutputHandlers {
  /** An EMF line: taken off the stream. */
  readonly onMetrics: (line: unknown) => void;
  /** A log line: whether it is still written to the stream as it was (`false` takes it off). */
  readonly onLog: (line: FunctionLogLine) => boolean;
}

/** One line, parsed: an EMF document, a log line, or neither. */
function classify(chunk: unknown): { metrics: unknown } | { log: FunctionLogLine } | undefined {
  if (typeof chunk !== 'string' || !chunk.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(chunk);
  } catch {
    return undefined; // not a whole JSON line after all
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  if ('_aws' in parsed) return { metrics: parsed };
  const { level, message } = parsed as Record<string, unknown>;
  if (typeof level === 'string' && typeof message === 'string') return { log: parsed as FunctionLogLine };
  return undefined;
}

/**
 * Routes what is written to `streams` (the process's stdout and stderr: Powertools writes info to one, warnings and
 * errors to the other, each line in one `write` call): EMF lines to `onMetrics`, log lines to `onLog`. Returns the
 * function that puts the streams back.
 */
export function tapFunctionOutput(
  streams: readonly NodeJS.WriteStream[],
  handlers: FunctionOutputHandlers,
): () => void {
  const restores = streams.map((stream) => {
    const write = stream.write;
    const tapped = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const line = classify(chunk);
      const keep = line === undefined || ('log' in line ? handlers.onLog(line.log) : false);
      if (line && 'metrics' in line) handlers.onMetrics(line.metrics);
      if (keep) return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    };
    stream.write = tapped as typeof stream.write;
    return () => {
      if (stream.write === tapped) stream.write = write;
    };
  });
  return () => {
    for (const restore of restores) restore();
  };
}
