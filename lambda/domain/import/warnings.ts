/**
 * What an import warns of, never refuses (docs/operating.md#imports): a listable vacancy that states no pay in a
 * deployment whose jobs are in the EU — the Pay Transparency Directive (2023/970, Art. 5) wants the starting pay or
 * its range in the vacancy notice. A warning is a line of the report; it changes nothing written, nor the exit code.
 */
import type { Vacancy } from '../schema/vacancy';

/** A record the import took, with something to say about it: its line, and what. */
export interface Warning {
  readonly line: number;
  readonly reason: string;
}

/** The 27 member states of the European Union, by their ISO 3166-1 alpha-2 codes (Greece is `GR`). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);

/** The warning of a listable vacancy without pay in an EU deployment. */
export const PAY_NOT_STATED = 'pay not stated: EU Directive 2023/970 Art. 5';

/**
 * The warnings of the records an import took: for a deployment whose `jobCountry` is in the EU, each listable one
 * (`active`, its deadline `today` or later) whose salary is negotiable. None elsewhere, or where the country is unknown.
 */
export function payWarnings(
  entries: Iterable<{ readonly line: number; readonly vacancy: Vacancy }>,
  jobCountry: string | undefined,
  today: string,
): Warning[] {
  if (jobCountry === undefined || !EU_MEMBER_STATES.has(jobCountry)) return [];
  const warnings: Warning[] = [];
  for (const { line, vacancy } of entries) {
    const listable = vacancy.status === 'active' && vacancy.deadline >= today;
    if (listable && vacancy.salary_type === 'negotiable') warnings.push({ line, reason: PAY_NOT_STATED });
  }
  return warnings;
}
