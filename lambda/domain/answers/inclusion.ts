/**
 * What a question asked to include (docs/api.md#pay-and-place) with the deployment's defaults it is stated with — the
 * listing's, a sync's and one vacancy's alike — or nothing, when it asked for none.
 */
import type { IncludeName } from '../vacancy/pay-and-place';
import type { Inclusion } from '../vacancy/presenter';
import { type AnswerSettings, payDefaultsOf } from './settings';

/** The inclusion of a question's `include`, or undefined when it gave none. */
export function inclusion(
  include: readonly IncludeName[] | undefined,
  settings: AnswerSettings,
): Inclusion | undefined {
  return include ? { include, defaults: payDefaultsOf(settings) } : undefined;
}
