import { appendFileSync, readFileSync } from 'node:fs';
import { TestEnvironment } from 'jest-environment-node';

/** The worker's active resources (handles and requests) by type. */
function resourceCounts() {
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/**
 * The CPU time this worker process and the children it has reaped have used (ms): fields 14–17 of
 * `/proc/self/stat`, in clock ticks (100 a second). Null where there is no `/proc`.
 */
function cpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
  } catch {
    return null;
  }
}

/**
 * Jest's Node environment, except that `process.env.TZ` is the real one. Jest gives each test file a copy of
 * `process.env`, so setting `TZ` in a test would never reach Node's time-zone hook, and `lambda/platform/time/zone-clock.ts`
 * (which switches `TZ` to compute wall-clock times without ICU's costly `Intl` start-up) would silently
 * compute in UTC. Every other variable stays sandboxed.
 */
export default class NodeEnvironmentWithRealTimeZone extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    const sandboxed = this.global.process.env;
    // A file's own variables, from its docblock — `@jest-environment-options {"env": {"VVA_SETTLE_MS": "1000"}}` —
    // set before any of its modules loads (the settings are read once, at import): a window a test drives shorter.
    Object.assign(sandboxed, config.projectConfig.testEnvironmentOptions?.env);
    this.global.process.env = new Proxy(sandboxed, {
      get: (target, key) => (key === 'TZ' ? process.env.TZ : Reflect.get(target, key)),
      set: (target, key, value) => {
        if (key !== 'TZ') return Reflect.set(target, key, value);
        process.env.TZ = value;
        return true;
      },
      deleteProperty: (target, key) => {
        if (key !== 'TZ') return Reflect.deleteProperty(target, key);
        delete process.env.TZ;
        return true;
      },
      has: (target, key) => (key === 'TZ' ? 'TZ' in process.env : Reflect.has(target, key)),
    });
  }

  async setup() {
    await super.setup();
    this.cpuAtStart = cpuMs();
    this.wallAtStart = Date.now();
    this.resourcesAtStart = resourceCounts();
  }

  /**
   * With `VVA_TEST_CPU` naming a file, a line of JSON there for each test file: its path, the CPU time its worker
   * (and the processes it started and reaped) used while it ran, and its wall time — where a run's time goes.
   */
  async teardown() {
    const log = process.env.VVA_TEST_CPU;
    const cpu = cpuMs();
    if (log && cpu !== null && this.cpuAtStart !== null) {
      // What the file left open in its worker (sockets, timers, processes): what keeps a worker from exiting.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const left = Object.entries(resourceCounts())
        .map(([type, count]) => [type, count - (this.resourcesAtStart[type] ?? 0)])
        .filter(([, count]) => count > 0);
      appendFileSync(
        log,
        `${JSON.stringify({ file: this.testPath, cpuMs: cpu - this.cpuAtStart, wallMs: Date.now() - this.wallAtStart, ...(left.length > 0 && { left: Object.fromEntries(left) }) })}\n`,
      );
    }
    await super.teardown();
  }
}
