/**
 * Pay and place (docs/api.md#pay-and-place): a vacancy's salary currency and period and where the work is done, as
 * every answer, feed and JobPosting states them — the record's own values, or, where it gave none, the deployment's
 * `salaryCurrency` and `salaryPeriod` and the type's workplace — its cities (docs/api.md#many-places), and the extra
 * fields a response carries when asked for with `include`.
 */
import {
  defaultWorkplace,
  type Locale,
  type SalaryPeriod,
  type ServedSalaryPeriod,
  type Workplace,
} from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';
import { localize } from './dictionary';

/** What a request may ask to include (`include=pay,workplace,locations`), in the order the extra fields come. */
export const INCLUDE_NAMES = ['pay', 'workplace', 'locations'] as const;
export type IncludeName = (typeof INCLUDE_NAMES)[number];

/** The deployment's defaults of a vacancy's pay (docs/operating.md#settings). */
export interface PayDefaults {
  /** ISO 4217. */
  readonly salaryCurrency: string;
  /** Upper-case, as JSON-LD's `unitText`. */
  readonly salaryPeriod: SalaryPeriod;
}

/** What a vacancy states of its pay and place, defaults applied. */
export interface PayAndPlace {
  readonly currency: string;
  readonly period: ServedSalaryPeriod;
  readonly workplace: Workplace;
}

/** What a vacancy states of its pay and place: its own values, else the defaults. */
export function payAndPlace(
  vacancy: Pick<ListedVacancy, 'type' | 'salary_currency' | 'salary_period' | 'workplace'>,
  defaults: PayDefaults,
): PayAndPlace {
  return {
    currency: vacancy.salary_currency ?? defaults.salaryCurrency,
    period: vacancy.salary_period ?? (defaults.salaryPeriod.toLowerCase() as ServedSalaryPeriod),
    workplace: vacancy.workplace ?? defaultWorkplace(vacancy.type),
  };
}

/** A city of a vacancy as `locations` shows it: its code, and its label in the response's locale. */
export interface Location {
  readonly city: string;
  readonly label: string;
}

/** Every city of a vacancy, the primary first, then the additional ones in the record's order. */
export const citiesOf = (vacancy: Pick<ListedVacancy, 'city' | 'additional_cities'>): readonly string[] => [
  vacancy.city,
  ...(vacancy.additional_cities ?? []),
];

/** A vacancy's `locations` (docs/api.md#many-places): each of its cities, the primary first, labelled in `locale`. */
export const locationsOf = (
  vacancy: Pick<ListedVacancy, 'city' | 'additional_cities'>,
  locale: Locale,
): Location[] => citiesOf(vacancy).map((city) => ({ city, label: localize('city', city, locale) }));

/**
 * The extra fields of a vacancy object (docs/api.md#pay-and-place). A type, not an interface: a vacancy object is read
 * as a record of its fields too.
 */
export type IncludedFields = {
  salary_currency?: string;
  /** Null when the salary is negotiable. */
  salary_period?: ServedSalaryPeriod | null;
  workplace?: Workplace;
  locations?: Location[];
};

/**
 * The extra fields `include` asks for, in their one order whatever order it named them in: `salary_currency` and
 * `salary_period` for `pay` (the period null for a negotiable salary: there is no amount to be paid per anything),
 * `workplace` for `workplace`, `locations` (labelled in `locale`) for `locations`.
 */
export function includedFields(
  vacancy: ListedVacancy,
  include: readonly IncludeName[],
  defaults: PayDefaults,
  locale: Locale,
): IncludedFields {
  if (include.length === 0) return {};
  const stated = payAndPlace(vacancy, defaults);
  return {
    ...(include.includes('pay') && {
      salary_currency: stated.currency,
      salary_period: vacancy.salary_type === 'negotiable' ? null : stated.period,
    }),
    ...(include.includes('workplace') && { workplace: stated.workplace }),
    ...(include.includes('locations') && { locations: locationsOf(vacancy, locale) }),
  };
}

let currencyCodes: ReadonlySet<string> | undefined;

/**
 * Whether `code` is an ISO 4217 currency code: three capitals that the runtime's ICU knows as a currency (read once,
 * on first use, so a cold start that never checks one does not pay for the list).
 */
export function isCurrencyCode(code: unknown): code is string {
  currencyCodes ??= new Set(Intl.supportedValuesOf('currency'));
  return typeof code === 'string' && /^[A-Z]{3}$/.test(code) && currencyCodes.has(code);
}
