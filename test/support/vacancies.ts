import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { validateVacancyRecord } from '../../lambda/vacancies/record';
import { putVacancyRecords } from '../../lib/ops/vacancies';

/** The service time zone the tests use, as deployed by default. */
export const TIME_ZONE = 'Asia/Baku';

/** An import record (CONTRACT §4) that passes every rule; `overrides` change or add fields. */
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

/** Validates records (a test fixture that breaks a rule fails loudly) and writes them as table items. */
export async function putVacancies(
  client: DynamoDBDocumentClient,
  tableName: string,
  records: readonly Record<string, unknown>[],
): Promise<void> {
  const valid = records.map((input) => {
    const result = validateVacancyRecord(input, TIME_ZONE);
    if (!result.ok) throw new Error(`Invalid fixture ${JSON.stringify(input)}: ${result.reasons.join('; ')}`);
    return result.record;
  });
  await putVacancyRecords(client, tableName, valid);
}
