/** The import's warnings (`lambda/domain/import/warnings.ts`). */
import { describe, expect, it } from '@jest/globals';
import { EU_MEMBER_STATES, PAY_NOT_STATED, payWarnings } from '../../../../../lambda/domain/import/warnings';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

const negotiable = { salary_type: 'negotiable', salary_min: null, salary_max: null };
const entry = (line: number, fields: Record<string, unknown>) => ({
  line,
  vacancy: fixtureVacancy(vacancyRecord(fields)),
});

describe('payWarnings', () => {
  it('knows the 27 member states of the EU', () => {
    expect(EU_MEMBER_STATES.size).toBe(27);
    for (const code of ['DE', 'FR', 'GR', 'HR', 'IE']) expect(EU_MEMBER_STATES.has(code)).toBe(true);
    for (const code of ['AZ', 'GB', 'CH', 'NO', 'EL', 'TR']) expect(EU_MEMBER_STATES.has(code)).toBe(false);
  });

  it('warns of a listable negotiable vacancy in the EU, and of nothing else', () => {
    const entries = [
      entry(1, negotiable),
      entry(2, {}),
      entry(3, { ...negotiable, status: 'closed' }),
      entry(4, { ...negotiable, deadline: '2026-01-01' }),
      entry(5, { ...negotiable, deadline: '2026-06-01' }),
    ];
    expect(payWarnings(entries, 'FR', '2026-06-01')).toEqual([
      { line: 1, reason: PAY_NOT_STATED },
      { line: 5, reason: PAY_NOT_STATED },
    ]);
    expect(payWarnings(entries, 'AZ', '2026-06-01')).toEqual([]);
    expect(payWarnings(entries, undefined, '2026-06-01')).toEqual([]);
  });
});
