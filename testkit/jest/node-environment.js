import { TestEnvironment } from 'jest-environment-node';

/**
 * Jest's Node environment, except that `process.env.TZ` is the real one. Jest gives each test file a copy of
 * `process.env`, so setting `TZ` in a test would never reach Node's time-zone hook, and `lambda/platform/time/zone-clock.ts`
 * (which switches `TZ` to compute wall-clock times without ICU's costly `Intl` start-up) would silently
 * compute in UTC. Every other variable stays sandboxed.
 */
export default class NodeEnvironmentWithRealTimeZone extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const sandboxed = this.global.process.env;
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
}
