/**
 * What the bundles of the `default` monitoring profile resolve `@aws-lambda-powertools/metrics` and its middleware
 * to (lib/stack/bundling.ts). Those functions publish no metric: `createFunctionMetrics` never reaches Powertools
 * there (the bundler's `VVA_METRICS` is false), but esbuild cannot drop a module whose classes extend an import, so
 * the bundler swaps it for this one — 11 KB less for every cold start to compile (docs/design.md#cold-start). Should
 * anything construct it all the same, the function fails at cold start, where the bundles test sees it.
 */

const LEFT_OUT = 'Powertools Metrics is left out of this build (monitoring profile "default").';

/** The one unit the service's metrics use. */
export const MetricUnit = { Count: 'Count' } as const;

/** Never constructed in a build without metrics. */
export class Metrics {
  constructor() {
    throw new Error(LEFT_OUT);
  }
}

/** Never called in a build without metrics. */
export function logMetrics(): never {
  throw new Error(LEFT_OUT);
}
