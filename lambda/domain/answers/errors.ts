/**
 * The answers' errors (docs/api.md#errors): what the core says when it cannot answer — a question with invalid
 * fields, a vacancy not found, a vacancy no longer open, changes no longer kept. Each carries the contract's message;
 * no status, no header: each door says it its own way (the HTTP door as a 422, 404 or 410 in the error envelope, the
 * MCP door as a tool's error result).
 */

/** Messages per invalid field of a question, each field by the name the API gives it (`per_page`, `city` …). */
export type FieldErrors = Record<string, string[]>;

/**
 * The fields of every question, in the order their errors come (docs/api.md#errors): the listing's and a sync's
 * parameters, then the one-vacancy tool's `id`.
 */
export const FIELD_ORDER = [
  'type',
  'experience_min',
  'experience_max',
  'per_page',
  'page',
  'lang',
  'updated_since',
  'category',
  'city',
  'workplace',
  'q',
  'facets',
  'include',
  'cursor',
  'id',
] as const;

/** A field of a question. */
export type FieldName = (typeof FIELD_ORDER)[number];

/**
 * A question with invalid fields: every one named, with its reasons, in `FIELD_ORDER`. Thrown by the checks of a
 * question (`query.ts`), with what the door could not read itself; the door answers it as it answers invalid input.
 */
export class InvalidQueryError extends Error {
  override readonly name = 'InvalidQueryError';
  /** The invalid fields, in `FIELD_ORDER`. */
  readonly fields: FieldErrors;

  constructor(fields: FieldErrors) {
    super('The given data was invalid.');
    this.fields = Object.fromEntries(
      FIELD_ORDER.flatMap((name) => (Object.hasOwn(fields, name) ? [[name, fields[name] as string[]]] : [])),
    );
  }
}

/** The message of a vacancy that is not the key's vendor's active one. */
export const VACANCY_NOT_FOUND = 'Vacancy not found.';

/**
 * A vacancy that is not the vendor's active one — not an id, not there (a purged tombstone too), another vendor's, a
 * draft, inactive: one error for all, so that nothing tells whether an id exists elsewhere (docs/api.md#one-vacancy).
 */
export class VacancyNotFoundError extends Error {
  override readonly name = 'VacancyNotFoundError';
  constructor() {
    super(VACANCY_NOT_FOUND);
  }
}

/** The message of a vacancy of the vendor's that is no longer open. */
export const VACANCY_GONE = 'This vacancy is no longer open.';

/** The full sync's `updated_since`: every vacancy the vendor has, never refused as too old. */
export const FULL_SYNC = '1970-01-01T00:00:00Z';

/** A sync from before the vendor's purge horizon (docs/api.md#incremental-sync): its changes are no longer kept. */
export class ChangesPurgedError extends Error {
  override readonly name = 'ChangesPurgedError';
  constructor(readonly horizon: string) {
    super(`Changes before ${horizon} are no longer kept; sync again from ${FULL_SYNC}.`);
  }
}
