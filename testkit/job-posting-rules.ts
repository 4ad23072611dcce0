/**
 * Google's rules for a JobPosting (Search Central, "Job posting structured data": the required properties, and the
 * values its validator accepts), as a checker the tests run on every JobPosting the API writes.
 */

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;
const EMPLOYMENT_TYPES = new Set([
  'FULL_TIME',
  'PART_TIME',
  'CONTRACTOR',
  'TEMPORARY',
  'INTERN',
  'VOLUNTEER',
  'PER_DIEM',
  'OTHER',
]);
const UNIT_TEXTS = new Set(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']);

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** Every broken rule of a JobPosting document; none when Google would accept it. */
export function jobPostingProblems(document: unknown): string[] {
  const problems: string[] = [];
  const doc = object(document) ?? {};
  if (doc['@context'] !== 'https://schema.org') problems.push('@context is not https://schema.org');
  if (doc['@type'] !== 'JobPosting') problems.push('@type is not JobPosting');
  if (!text(doc.title)) problems.push('title is missing');
  if (!text(doc.description)) problems.push('description is missing');
  if (typeof doc.datePosted !== 'string' || !ISO_WITH_OFFSET.test(doc.datePosted))
    problems.push('datePosted is not an ISO 8601 date-time with an offset');
  if (
    doc.validThrough !== undefined &&
    (typeof doc.validThrough !== 'string' || !ISO_WITH_OFFSET.test(doc.validThrough))
  )
    problems.push('validThrough is not an ISO 8601 date-time with an offset');
  const organization = object(doc.hiringOrganization);
  if (organization?.['@type'] !== 'Organization' || !text(organization.name))
    problems.push('hiringOrganization is not an Organization with a name');
  for (const link of ['sameAs', 'logo'])
    if (organization?.[link] !== undefined && !String(organization[link]).startsWith('https://'))
      problems.push(`hiringOrganization.${link} is not an absolute URL`);
  const remote = doc.jobLocationType === 'TELECOMMUTE';
  // A Place, or an array of them (a job in several places).
  const places = Array.isArray(doc.jobLocation) ? doc.jobLocation : [doc.jobLocation];
  if (!remote && places.length === 0) problems.push('jobLocation is an empty array');
  for (const place of places) {
    const address = object(object(place)?.address);
    if (!remote && (object(place)?.['@type'] !== 'Place' || address?.['@type'] !== 'PostalAddress'))
      problems.push('jobLocation is not a Place with a PostalAddress');
    if (address && !/^[A-Z]{2}$/.test(String(address.addressCountry)))
      problems.push('jobLocation.address.addressCountry is not an ISO 3166-1 alpha-2 code');
  }
  if (remote && !text(object(doc.applicantLocationRequirements)?.name))
    problems.push('a TELECOMMUTE job has no applicantLocationRequirements');
  if (doc.employmentType !== undefined && !EMPLOYMENT_TYPES.has(String(doc.employmentType)))
    problems.push('employmentType is not one of Google’s');
  const salary = object(doc.baseSalary);
  if (salary) {
    const value = object(salary.value);
    if (salary['@type'] !== 'MonetaryAmount' || !/^[A-Z]{3}$/.test(String(salary.currency)))
      problems.push('baseSalary is not a MonetaryAmount with an ISO 4217 currency');
    if (value?.['@type'] !== 'QuantitativeValue' || !UNIT_TEXTS.has(String(value.unitText)))
      problems.push('baseSalary.value is not a QuantitativeValue with a unitText');
    const amounts = ['value', 'minValue', 'maxValue'].filter((name) => value?.[name] !== undefined);
    if (amounts.length === 0 || amounts.some((name) => typeof value?.[name] !== 'number'))
      problems.push('baseSalary.value has no numeric amount');
  }
  // A property whose value is unknown is left out, never null or "" (the contract's rule, stricter than Google's).
  const walk = (value: unknown, path: string): void => {
    if (value === null || value === '') problems.push(`${path} is ${JSON.stringify(value)}`);
    const nested = object(value);
    if (nested) for (const [name, inner] of Object.entries(nested)) walk(inner, `${path}.${name}`);
  };
  walk(doc, '$');
  return problems;
}
