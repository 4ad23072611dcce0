/**
 * Facts of the specification, written down by the tests on their own, so that a test compares the product
 * with the specification rather than with the product's own lists.
 */

/** The 15 fields of a vacancy object (docs/api.md#the-vacancy-object), in the documented order. */
export const SPEC_VACANCY_FIELDS = [
  'id',
  'title',
  'url',
  'description',
  'requirements',
  'responsibilities',
  'category',
  'city',
  'type',
  'salary_min',
  'salary_max',
  'salary',
  'salary_type',
  'deadline',
  'created_at',
] as const;
