/**
 * A job page as docs/api.md#jobposting tells a career page to build it — the one-vacancy route's JobPosting put into
 * the page as it is, in a `<script type="application/ld+json">` element — and the route's answer for a vacancy
 * holding whatever strings a test chooses, made by the real handler over a repository that holds that one item (so
 * that nothing the import or the CLI would refuse stands between the strings and the serializer).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { VacancyRepository } from '../lambda/domain/reads/repository';
import type { Vacancy } from '../lambda/domain/schema/vacancy';
import { toVacancyItem } from '../lambda/domain/schema/vacancy-item';
import { createVacanciesHandler } from '../lambda/functions/vacancies/factory';
import { vacancyEvent } from './events';
import { lambdaContext, silentLogger, testMetrics } from './lambda';
import { CLOCK } from './vacancies';

/** The strings of a stored vacancy and of its vendor that reach its JobPosting. */
export interface StoredStrings {
  readonly title: string;
  readonly url: string;
  readonly description: string;
  readonly requirements: string;
  readonly responsibilities: string;
  readonly company: string;
  readonly website: string;
  readonly logo: string;
}

/** When the route is asked: the vacancy's deadline (2099) is ahead of it. */
const NOW = new Date('2026-06-15T09:00:00Z');

/** The vacancy, as stored: `strings` in its texts, everything else an ordinary active vacancy. */
export function storedVacancy(strings: StoredStrings, id = 42): Vacancy {
  return {
    id,
    vendor_id: 'acme',
    status: 'active',
    title: strings.title,
    url: strings.url,
    description: strings.description,
    requirements: strings.requirements,
    responsibilities: strings.responsibilities,
    category: 'it',
    city: 'baku',
    type: 1,
    salary_type: 'fixed',
    salary_min: null,
    salary_max: null,
    salary: 1200,
    experience_min: 1,
    experience_max: null,
    deadline: '2099-12-31',
    created_at: new Date('2026-01-10T05:30:00Z'),
  };
}

/** The one-vacancy route's answer, as JSON-LD in `locale`, for the vacancy and vendor of `strings`. */
export async function servedJobPosting(
  strings: StoredStrings,
  locale: 'az' | 'en' = 'en',
): Promise<APIGatewayProxyResult> {
  const item = toVacancyItem(storedVacancy(strings), NOW.getTime());
  const repository = {
    readVacancy: async () => ({ item, readUnits: 0.5, calls: 1 }),
  } as unknown as VacancyRepository;
  const handler = createVacanciesHandler({
    repository,
    settings: { defaultLocale: 'en', clock: CLOCK, defaultPerPage: 15 },
    logger: silentLogger(),
    metrics: testMetrics('listing'),
    now: () => NOW,
  });
  const event = vacancyEvent(String(item.id), {
    query: `lang=${locale}`,
    headers: { Accept: 'application/ld+json' },
    authorizer: {
      vendorId: 'acme',
      company: strings.company,
      ...(strings.website && { website: strings.website }),
      ...(strings.logo && { logo: strings.logo }),
    },
  });
  return (await handler(event, lambdaContext('listing'))) as APIGatewayProxyResult;
}

/** The id of the element that must stay the page's last: were it swallowed by the JSON-LD, the page broke. */
export const AFTER_ID = 'after-the-job-posting';

/** A job page with the body embedded as docs/api.md says: verbatim, in a `<script type="application/ld+json">`. */
export function jobPage(jsonLd: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>A job</title>',
    `<script type="application/ld+json">${jsonLd}</script>`,
    `</head><body><h1>A job</h1><p id="${AFTER_ID}">Apply now.</p></body></html>`,
  ].join('\n');
}
