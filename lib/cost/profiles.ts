/**
 * The fixed monthly costs of each monitoring profile (docs/operating.md#cost): the stack synthesized as `cdk synth`
 * builds it from `cdk.json` (`lib/synth/template.ts`), one profile at a time, priced by
 * `fixedCosts`.
 */
import { MONITORING_PROFILES, type MonitoringProfile } from '../settings';
import { type CfnTemplate, synthesizedTemplate } from '../synth/template';
import { type CostLine, fixedCosts } from './fixed-costs';

/** Each profile's fixed costs, with the default settings otherwise: from each profile's template. */
export function profileCosts(
  templates: Readonly<Record<MonitoringProfile, CfnTemplate>> = Object.fromEntries(
    MONITORING_PROFILES.map((monitoring) => [monitoring, synthesizedTemplate({ monitoring })]),
  ) as Record<MonitoringProfile, CfnTemplate>,
): Record<MonitoringProfile, CostLine[]> {
  return Object.fromEntries(
    MONITORING_PROFILES.map((monitoring) => [monitoring, fixedCosts(templates[monitoring])]),
  ) as Record<MonitoringProfile, CostLine[]>;
}
