/**
 * The `indeed` feed (docs/design.md#feeds-as-xml): the XML job feed Indeed reads, and Jooble, Careerjet, Adzuna and
 * ZipRecruiter accept — a `<source>` with the publisher, then one `<job>` per listable vacancy and city, in the order
 * given (§2's, newest first: the caller reads them so). Written as text, streamed: the head, each job, the end, each a
 * string of its own, so a builder pipes them through gzip into an upload and never holds the feed.
 *
 * Every value is what the API serves: the title, URL and id as stored; the city and category the dictionary's
 * labels in the feed's locale (as the vacancy object shows them); the description the HTML of the JobPosting's
 * (`vacancy/job-posting.ts`); the deadline `YYYY-MM-DD`. Dates are RFC 1123 in GMT, as Indeed reads them. Each text
 * value is CDATA sections (`xml-text.ts`: its rules for `]]>`, carriage returns and the characters XML does not
 * allow). The words of `<experience>` and `<salary>` are English in either locale (`3+ years`, `1200 AZN per month`):
 * the boards read them as data, in the forms their documentation gives.
 */
import type { Locale, VacancyType, Workplace } from '../schema/vacancy';
import type { ListedVacancy, StoredVacancy } from '../schema/vacancy-item';
import { localize } from '../vacancy/dictionary';
import { descriptionHtml, type JobPostingSettings } from '../vacancy/job-posting';
import { citiesOf, payAndPlace } from '../vacancy/pay-and-place';
import { cdataSections, XML_DECLARATION } from './xml-text';

/**
 * What a job of the feed is made from: what the listing reads of a vacancy item (its pay and place too) and its
 * experience range. An item of the vacancies table is one as it is (absent amounts and `experience_max` mean null,
 * absent pay and place the defaults).
 */
export type IndeedVacancy = ListedVacancy & Pick<StoredVacancy, 'experience_min' | 'experience_max'>;

/** The deployment's settings a feed states (docs/operating.md#settings): the JobPosting's, less its clock. */
export type FeedSettings = Pick<JobPostingSettings, 'jobCountry' | 'salaryCurrency' | 'salaryPeriod'>;

/** One feed as it is built: whose it is, where it is served, when, in which locale. */
export interface IndeedFeedHead {
  /** The company, as the vacancy's `company` shows it. */
  readonly company: string;
  /** The vendor's website, when the operator set it (`vendor put --website`): the feed's `<publisherurl>`. */
  readonly website?: string | undefined;
  /** The feed's own URL: the `<publisherurl>` of a vendor without a website. */
  readonly feedUrl: string;
  /** The build's time: `<lastBuildDate>`. */
  readonly builtAt: Date;
  /** The feed's `lang`: the labels' locale and the description's headings. */
  readonly locale: Locale;
}

/** Each vacancy type's `<jobtype>`; Remote (3) has none: where the work is done is its `<remotetype>`. */
const JOB_TYPES: Readonly<Record<VacancyType, string | undefined>> = {
  1: 'fulltime',
  2: 'parttime',
  3: undefined,
  4: 'internship',
};

/** Each workplace's `<remotetype>`, in Indeed's words; work on site has none. */
const REMOTE_TYPES: Readonly<Record<Workplace, string | undefined>> = {
  onsite: undefined,
  hybrid: 'Hybrid remote',
  remote: 'Fully remote',
};

/** RFC 1123 in GMT (`Sun, 01 Mar 2026 05:30:00 GMT`): what `toUTCString` writes, for years 1970 on. */
const rfc1123 = (instant: Date): string => instant.toUTCString();

/** An element with one value as CDATA sections, on a line of its own at `indent`. */
const line = (indent: string, name: string, value: string): string =>
  `${indent}<${name}>${cdataSections(value)}</${name}>\n`;

/** `<experience>`: `3+ years`, `2-5 years`, `1 year` — none when any experience will do (0, open-ended). */
export function experienceWording(min: number, max: number | null): string | undefined {
  if (max === null) return min === 0 ? undefined : `${min}+ years`;
  if (min === max) return `${min} ${min === 1 ? 'year' : 'years'}`;
  return `${min}-${max} years`;
}

/**
 * `<salary>`, only when the amount is known: `1000-1500 AZN per month` for a range (both ends set, as an import
 * requires), `1200 AZN per month` for a fixed salary; none for a negotiable one. The currency and period are the
 * vacancy's, else the deployment's.
 */
export function salaryWording(vacancy: IndeedVacancy, settings: FeedSettings): string | undefined {
  const { salary_min: min, salary_max: max, salary } = vacancy;
  const amount =
    vacancy.salary_type === 'range' && min != null && max != null
      ? `${min}-${max}`
      : vacancy.salary_type === 'fixed' && salary != null
        ? String(salary)
        : undefined;
  if (amount === undefined) return undefined;
  const { currency, period } = payAndPlace(vacancy, settings);
  return `${amount} ${currency} per ${period}`;
}

/** The feed's opening: the declaration, `<source>`, the publisher, its URL and the build's time. */
export function indeedFeedStart(head: IndeedFeedHead): string {
  return (
    `${XML_DECLARATION}\n<source>\n` +
    line('  ', 'publisher', head.company) +
    line('  ', 'publisherurl', head.website || head.feedUrl) +
    line('  ', 'lastBuildDate', rfc1123(head.builtAt))
  );
}

/**
 * The `<job>`s of a vacancy: one per city (docs/api.md#many-places), the primary's first — its `<referencenumber>` the
 * id, each other city's `<id>-<city code>`, a reference of its own as a board keys jobs by it — each the same job
 * (`<requisitionid>` the id, the same `<url>`) but for its `<city>`.
 */
export function indeedJobs(vacancy: IndeedVacancy, head: IndeedFeedHead, settings: FeedSettings): string {
  const [primary = vacancy.city, ...others] = citiesOf(vacancy);
  const description = descriptionHtml(vacancy, head.locale);
  return [
    indeedJob(vacancy, head, settings, { reference: String(vacancy.id), city: primary, description }),
    ...others.map((city) =>
      indeedJob(vacancy, head, settings, { reference: `${vacancy.id}-${city}`, city, description }),
    ),
  ].join('');
}

/**
 * One `<job>` of a vacancy, in one of its cities: each element §15 lists, in its order; those without a value for this
 * vacancy left out.
 */
function indeedJob(
  vacancy: IndeedVacancy,
  head: IndeedFeedHead,
  settings: FeedSettings,
  job: { readonly reference: string; readonly city: string; readonly description: string },
): string {
  const { locale } = head;
  const indent = '    ';
  const optional = (name: string, value: string | undefined) =>
    value === undefined ? '' : line(indent, name, value);
  return (
    '  <job>\n' +
    line(indent, 'title', vacancy.title) +
    line(indent, 'date', rfc1123(new Date(vacancy.created_at))) +
    line(indent, 'referencenumber', job.reference) +
    line(indent, 'requisitionid', String(vacancy.id)) +
    line(indent, 'url', vacancy.url) +
    line(indent, 'company', head.company) +
    line(indent, 'city', localize('city', job.city, locale)) +
    `${indent}<state/>\n` +
    line(indent, 'country', settings.jobCountry) +
    `${indent}<postalcode/>\n` +
    line(indent, 'description', job.description) +
    line(indent, 'expirationdate', vacancy.deadline) +
    line(indent, 'category', localize('category', vacancy.category, locale)) +
    optional('jobtype', JOB_TYPES[vacancy.type]) +
    optional('remotetype', REMOTE_TYPES[payAndPlace(vacancy, settings).workplace]) +
    optional('experience', experienceWording(vacancy.experience_min, vacancy.experience_max ?? null)) +
    optional('salary', salaryWording(vacancy, settings)) +
    '  </job>\n'
  );
}

/** The feed's closing. */
export const INDEED_FEED_END = '</source>\n';

/**
 * The whole feed as chunks of text — the opening, one chunk a vacancy (its jobs), the closing — pulled one at a time:
 * what it holds at once is one vacancy's jobs, whatever the number of vacancies. `vacancies` in §2's order (newest
 * first).
 */
export async function* indeedFeed(
  head: IndeedFeedHead,
  settings: FeedSettings,
  vacancies: AsyncIterable<IndeedVacancy> | Iterable<IndeedVacancy>,
): AsyncGenerator<string, void, undefined> {
  yield indeedFeedStart(head);
  for await (const vacancy of vacancies) yield indeedJobs(vacancy, head, settings);
  yield INDEED_FEED_END;
}
