/**
 * A vacancy as a schema.org `JobPosting` (docs/api.md#jobposting): the structured data job search engines read from
 * a job page, so that a career page need not write it by hand. Typed with `schema-dts` (types only: nothing of it is
 * bundled). Google's rules decide what must be there — title, description, datePosted, hiringOrganization,
 * jobLocation (or TELECOMMUTE with applicantLocationRequirements) — and a property whose value is unknown is left
 * out, never `null` or `""`.
 */
import type { JobPosting, MonetaryAmount, Place, WithContext } from 'schema-dts';
import type { ZoneClock } from '../../platform/time/zone-clock';
import type { Locale, SalaryPeriod, VacancyObject, VacancyType } from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';
import { localize } from './dictionary';
import { citiesOf, type PayDefaults, payAndPlace } from './pay-and-place';

/**
 * The document: a schema.org JobPosting, and the language it is written in. schema.org defines `inLanguage` on
 * creative works, not on JobPosting (an Intangible); the API states it all the same, so that a page that embeds the
 * document can tell which locale it holds, and search engines ignore a property they do not use.
 */
export type JobPostingDocument = WithContext<JobPosting> & { readonly inLanguage: Locale };

/** The deployment's settings a JobPosting states (docs/operating.md#settings). */
export interface JobPostingSettings extends PayDefaults {
  /** ISO 3166-1 alpha-2: every job's country. */
  readonly jobCountry: string;
  readonly clock: ZoneClock;
}

/** The employer, as the authorizer names it, and what the operator set of it (`vendor put --website --logo`). */
export interface HiringOrganization {
  readonly company: string;
  readonly website?: string | undefined;
  readonly logo?: string | undefined;
}

/** Each vacancy type's `employmentType`; Remote (3) has none: it is a place of work, not a kind of employment. */
const EMPLOYMENT_TYPES: Readonly<Record<VacancyType, string | undefined>> = {
  1: 'FULL_TIME',
  2: 'PART_TIME',
  3: undefined,
  4: 'INTERN',
};

/** The headings of the description's sections, in each locale. */
const SECTION_HEADINGS: Readonly<Record<Locale, { requirements: string; responsibilities: string }>> = {
  az: { requirements: 'Tələblər', responsibilities: 'Vəzifələr' },
  en: { requirements: 'Requirements', responsibilities: 'Responsibilities' },
};

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** A text as HTML: every special character escaped, each line break a `<br>`. */
export function textToHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] as string)
    .replace(/\r\n|\r|\n/g, '<br>');
}

/**
 * The description: the text, then Requirements and Responsibilities, each section left out when empty — and, when
 * all three are empty, the title, since a JobPosting without a description is not one (Google requires it). The
 * feeds (`domain/feed-formats/`) carry the same HTML.
 */
export function descriptionHtml(vacancy: ListedVacancy, locale: Locale): string {
  const headings = SECTION_HEADINGS[locale];
  const parts = [vacancy.description.trim() === '' ? '' : `<p>${textToHtml(vacancy.description)}</p>`];
  for (const section of ['requirements', 'responsibilities'] as const) {
    const text = vacancy[section];
    if (text.trim() !== '') parts.push(`<h3>${headings[section]}</h3><p>${textToHtml(text)}</p>`);
  }
  const html = parts.join('');
  return html === '' ? `<p>${textToHtml(vacancy.title)}</p>` : html;
}

/**
 * `baseSalary`, only when a salary is known: a range, or a fixed amount; a negotiable one has none. Its currency and
 * period are the vacancy's own, else the deployment's (`pay-and-place.ts`).
 */
function baseSalary(vacancy: ListedVacancy, settings: JobPostingSettings): MonetaryAmount | undefined {
  const { currency, period } = payAndPlace(vacancy, settings);
  const amount = (value: Record<string, number>): MonetaryAmount => ({
    '@type': 'MonetaryAmount',
    currency,
    value: { '@type': 'QuantitativeValue', ...value, unitText: period.toUpperCase() as SalaryPeriod },
  });
  const { salary_min: min, salary_max: max, salary } = vacancy;
  if (vacancy.salary_type === 'range' && (min != null || max != null))
    return amount({ ...(min != null && { minValue: min }), ...(max != null && { maxValue: max }) });
  if (vacancy.salary_type === 'fixed' && salary != null) return amount({ value: salary });
  return undefined;
}

/**
 * What `serializeJobPosting` writes in place of each character that could end or open an element of the page the
 * document is embedded in (`<`, `>`, `&`), or end a line of a script in older JavaScript (U+2028, U+2029): JSON's own
 * escapes, so that a JSON parser reads back the very same strings.
 */
const EMBEDDED_JSON_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * The JobPosting as the bytes the route sends: JSON that is safe to place as it is inside
 * `<script type="application/ld+json">` (docs/api.md#jobposting). `JSON.stringify` leaves `<`, `>`, `&`, U+2028 and
 * U+2029 raw, so a title, text, URL, company name or logo holding `</script>` or `<!--` would end the element or
 * change how HTML reads it; each is written as its `\uXXXX` escape instead — outside strings JSON has none of them,
 * and inside one the escape is the same character to any JSON parser, so the document parses back unchanged.
 */
export function serializeJobPosting(document: JobPostingDocument): string {
  return JSON.stringify(document).replace(
    /[<>&\u2028\u2029]/g,
    (character) => EMBEDDED_JSON_ESCAPES[character] as string,
  );
}

/**
 * Where the job is (docs/api.md#jobposting): a Place in the deployment's country for each of the vacancy's cities, the
 * primary first — the Place alone for a vacancy in one city, as Google's examples give it, an array for one in
 * several.
 */
function jobLocation(
  vacancy: ListedVacancy,
  shown: VacancyObject,
  locale: Locale,
  settings: JobPostingSettings,
): Place | Place[] {
  const place = (locality: string): Place => ({
    '@type': 'Place',
    address: { '@type': 'PostalAddress', addressLocality: locality, addressCountry: settings.jobCountry },
  });
  const [primary, ...others] = citiesOf(vacancy);
  if (others.length === 0 || primary === undefined) return place(String(shown.city));
  return [place(String(shown.city)), ...others.map((city) => place(localize('city', city, locale)))];
}

/**
 * The JobPosting of a vacancy: `vacancy` as stored (codes, texts, amounts), `shown` as the response's locale shows it
 * (its labels: the city), `organization` the employer.
 */
export function toJobPosting(
  vacancy: ListedVacancy,
  shown: VacancyObject,
  organization: HiringOrganization,
  locale: Locale,
  settings: JobPostingSettings,
): JobPostingDocument {
  const { clock } = settings;
  const employmentType = EMPLOYMENT_TYPES[vacancy.type];
  const salary = baseSalary(vacancy, settings);
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    identifier: { '@type': 'PropertyValue', name: organization.company, value: String(vacancy.id) },
    title: vacancy.title,
    description: descriptionHtml(vacancy, locale),
    ...(vacancy.url && { url: vacancy.url }),
    datePosted: clock.formatWithOffset(new Date(vacancy.created_at)),
    validThrough: clock.formatWithOffset(clock.fromLocal(`${vacancy.deadline} 23:59:59`)),
    ...(employmentType && { employmentType }),
    // Remote work is where the applicant is; a hybrid job keeps its place alone (docs/api.md#jobposting).
    ...(payAndPlace(vacancy, settings).workplace === 'remote' && {
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: settings.jobCountry },
    }),
    hiringOrganization: {
      '@type': 'Organization',
      name: organization.company,
      ...(organization.website && { sameAs: organization.website }),
      ...(organization.logo && { logo: organization.logo }),
    },
    jobLocation: jobLocation(vacancy, shown, locale, settings),
    ...(salary && { baseSalary: salary }),
    inLanguage: locale,
    directApply: false,
  };
}
