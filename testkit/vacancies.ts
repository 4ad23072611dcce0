import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { validateVacancyRecord } from '../lambda/domain/import/record';
import type { Vacancy } from '../lambda/domain/schema/vacancy';
import { toVacancyItem } from '../lambda/domain/schema/vacancy-item';
import { zoneClock } from '../lambda/platform/time/zone-clock';

/** The service time zone the tests use (Baku, UTC+4, no daylight saving): the fixtures' times assume it. */
export const TIME_ZONE = 'Asia/Baku';
export const CLOCK = zoneClock(TIME_ZONE);

/** An import record that passes every rule; `overrides` change or add fields. */
export function vacancyRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    vendor_id: 'acme',
    status: 'active',
    title: 'Backend developer',
    url: 'https://careers.example.com/jobs/1',
    description: 'Build the APIs our customers use.',
    requirements: 'Three years of TypeScript.',
    responsibilities: 'Design, build and run services.',
    category: 'it',
    city: 'baku',
    type: 1,
    salary_type: 'range',
    salary_min: 2000,
    salary_max: 3500,
    salary: null,
    experience_min: 3,
    experience_max: 6,
    deadline: '2099-12-31',
    created_at: '2026-01-10 09:30:00',
    ...overrides,
  };
}

/** The largest texts the import allows: two-byte letters, at the character and the byte limits at once. */
export const LARGEST_TEXTS = {
  title: 'ə'.repeat(200),
  url: `https://careers.example.az/${'a'.repeat(2048 - 27)}`,
  description: 'ə'.repeat(8000),
  requirements: 'ə'.repeat(8000),
  responsibilities: 'ə'.repeat(8000),
};

/** Validates a fixture record (one that breaks a rule fails loudly) into a vacancy. */
export function fixtureVacancy(input: Record<string, unknown>, clock = CLOCK): Vacancy {
  const result = validateVacancyRecord(input, clock);
  if (!result.ok) throw new Error(`Invalid fixture ${JSON.stringify(input)}: ${result.reasons.join('; ')}`);
  return result.vacancy;
}

/**
 * Writes fixture records straight into the table, as items changed now (the listing's tests need no vendors). No
 * summary is kept: the listing counts, as it does for a vendor whose summary cannot be trusted.
 */
export async function putVacancies(
  client: DynamoDBDocumentClient,
  tableName: string,
  records: readonly Record<string, unknown>[],
  clock = CLOCK,
): Promise<void> {
  const items = records.map((input) => toVacancyItem(fixtureVacancy(input, clock), Date.now()));
  for (let i = 0; i < items.length; i += 10) {
    await Promise.all(
      items.slice(i, i + 10).map((Item) => client.send(new PutCommand({ TableName: tableName, Item }))),
    );
  }
}

/** Puts new vacancies of `vendor` under `ids` (active, every other field valid) into a test's tables; returns the ids. */
export async function putNewVacancies(
  tables: { readonly documentClient: DynamoDBDocumentClient; readonly names: { readonly vacancies: string } },
  vendor: string,
  ids: readonly number[],
): Promise<readonly number[]> {
  await putVacancies(
    tables.documentClient,
    tables.names.vacancies,
    ids.map((id) => vacancyRecord({ id, vendor_id: vendor })),
  );
  return ids;
}
