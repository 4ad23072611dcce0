/**
 * What a vacancy is, written once: the fields of the vacancy object (docs/api.md#the-vacancy-object, in its order), the fields of an
 * import record (docs/operating.md#imports), the statuses, types, salary types and periods, and workplaces. Types are derived from these lists, so a
 * field added here is a field everywhere.
 */

/**
 * Statuses an operator gives a vacancy (an import record's, `set-status`'s); only `active` ones with a deadline not
 * yet passed are listed.
 */
export const VACANCY_STATUSES = ['active', 'inactive', 'draft', 'closed'] as const;
export type VacancyStatus = (typeof VACANCY_STATUSES)[number];

/** Statuses the service records itself: `expired` once the deadline has passed, `deleted` on a tombstone. */
export const SERVICE_STATUSES = ['expired', 'deleted'] as const;

/** Every status a stored item can have. */
export const STORED_STATUSES = [...VACANCY_STATUSES, ...SERVICE_STATUSES] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];

/** Employment type codes (docs/api.md#dictionary); their labels are in the dictionary. */
export const VACANCY_TYPES = [1, 2, 3, 4] as const;
export type VacancyType = (typeof VACANCY_TYPES)[number];

/** How the salary fields are to be read; their labels are in the dictionary. */
export const SALARY_TYPES = ['range', 'fixed', 'negotiable'] as const;
export type SalaryType = (typeof SALARY_TYPES)[number];

/** What a salary may be paid per: the deployment's `salaryPeriod`, a JobPosting's `unitText` (schema.org's values). */
export const SALARY_PERIODS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type SalaryPeriod = (typeof SALARY_PERIODS)[number];

/** A salary period as a record gives it and a response serves it: `SALARY_PERIODS` in lower case. */
export type ServedSalaryPeriod = Lowercase<SalaryPeriod>;
export const SERVED_SALARY_PERIODS = SALARY_PERIODS.map((period) =>
  period.toLowerCase(),
) as readonly ServedSalaryPeriod[];

/**
 * Where the work is done (docs/api.md#pay-and-place), in the order a facet breaks ties by; their labels are in the
 * dictionary.
 */
export const WORKPLACES = ['onsite', 'hybrid', 'remote'] as const;
export type Workplace = (typeof WORKPLACES)[number];

/** The type that is a place of work, not a kind of employment: Remote, whose workplace can only be `remote`. */
export const REMOTE_TYPE = 3 satisfies VacancyType;

/** A vacancy's workplace when its record names none: `remote` for the Remote type, `onsite` for the others. */
export const defaultWorkplace = (type: number): Workplace => (type === REMOTE_TYPE ? 'remote' : 'onsite');

/** The locales the service answers in. */
export const LOCALES = ['az', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The vacancy object of a response: its 15 fields in the specification's order, each with the kind of value
 * it holds — `text` as stored, `label` a dictionary code shown in the response's locale, `amount` an integer
 * or null, `date` `YYYY-MM-DD`, `dateTime` `YYYY-MM-DD HH:MM:SS` in the service time zone.
 */
export const VACANCY_OBJECT = {
  id: 'id',
  title: 'text',
  url: 'text',
  description: 'text',
  requirements: 'text',
  responsibilities: 'text',
  category: 'label',
  city: 'label',
  type: 'label',
  salary_min: 'amount',
  salary_max: 'amount',
  salary: 'amount',
  salary_type: 'label',
  deadline: 'date',
  created_at: 'dateTime',
} as const;

type FieldKind = (typeof VACANCY_OBJECT)[keyof typeof VACANCY_OBJECT];
type FieldsOfKind<K extends FieldKind> = {
  [F in keyof typeof VACANCY_OBJECT]: (typeof VACANCY_OBJECT)[F] extends K ? F : never;
}[keyof typeof VACANCY_OBJECT];

/** A field of the vacancy object. */
export type VacancyField = keyof typeof VACANCY_OBJECT;
/** The 15 fields of the vacancy object, in order. */
export const VACANCY_FIELDS = Object.keys(VACANCY_OBJECT) as VacancyField[];
/** The fields shown through the dictionary: `category`, `city`, `type`, `salary_type`. */
export type LabelledField = FieldsOfKind<'label'>;
/** The fields a client sees exactly as imported. */
export type TextField = FieldsOfKind<'text'>;
export const TEXT_FIELDS = VACANCY_FIELDS.filter(
  (field): field is TextField => VACANCY_OBJECT[field] === 'text',
);
/** The salary amounts: an integer or null. */
export type AmountField = FieldsOfKind<'amount'>;
export const AMOUNT_FIELDS = VACANCY_FIELDS.filter(
  (field): field is AmountField => VACANCY_OBJECT[field] === 'amount',
);

interface ValueOfKind {
  id: number;
  text: string;
  label: string;
  amount: number | null;
  date: string;
  dateTime: string;
}

/** A vacancy object of the response (docs/api.md#the-vacancy-object). */
export type VacancyObject = { [F in VacancyField]: ValueOfKind[(typeof VACANCY_OBJECT)[F]] };

/**
 * A vacancy as the import tool and seed files give it, once validated: the fields of the vacancy object
 * (coded fields as codes, `created_at` as an instant) plus its vendor, status and experience range, and the pay and
 * place its record gave.
 */
export type Vacancy = { readonly [F in TextField]: string } & {
  readonly [F in AmountField]: number | null;
} & {
  readonly id: number;
  readonly vendor_id: string;
  /** An operator's status; a stored vacancy may also be `expired`. */
  readonly status: Exclude<StoredStatus, 'deleted'>;
  readonly category: string;
  readonly city: string;
  readonly type: VacancyType;
  readonly salary_type: SalaryType;
  readonly experience_min: number;
  readonly experience_max: number | null;
  /** `YYYY-MM-DD`. */
  readonly deadline: string;
  /** The instant of creation, to the second. */
  readonly created_at: Date;
  /** ISO 4217; absent: the deployment's `salaryCurrency` (docs/api.md#pay-and-place). */
  readonly salary_currency?: string;
  /** Absent: the deployment's `salaryPeriod`. */
  readonly salary_period?: ServedSalaryPeriod;
  /** Absent: the type's default (`defaultWorkplace`). */
  readonly workplace?: Workplace;
  /**
   * The cities besides `city` (the primary), in the record's order (docs/api.md#many-places); absent when there are
   * none, never empty.
   */
  readonly additional_cities?: readonly string[];
};

/**
 * The optional fields of a record for pay and place (docs/api.md#pay-and-place): absent (or null) in a record, they
 * are not stored, and read as their defaults — so an item stored before they existed needs no rewrite.
 */
export const PAY_AND_PLACE_FIELDS = [
  'salary_currency',
  'salary_period',
  'workplace',
] as const satisfies readonly (keyof Vacancy)[];

/** Cities a vacancy may name besides its primary `city`, at most (docs/api.md#many-places). */
export const MAX_ADDITIONAL_CITIES = 19;

/** Every field of an import record. */
export const RECORD_FIELDS = [
  'id',
  'vendor_id',
  'status',
  ...VACANCY_FIELDS.filter((field) => field !== 'id'),
  'experience_min',
  'experience_max',
  ...PAY_AND_PLACE_FIELDS,
  'additional_cities',
] as const satisfies readonly (keyof Vacancy)[];

/** Record fields that may be null (or absent, meaning null). */
export const NULLABLE_FIELDS = [
  ...AMOUNT_FIELDS,
  'experience_max',
] as const satisfies readonly (keyof Vacancy)[];
