/**
 * A seed file's vendors (docs/operating.md#seed-files) are checked and stored as the ops CLI stores them: the website
 * and logo normalized by the one URL rule, each publishable key's origins without their default ports; what breaks a
 * rule is a problem naming its place in the file.
 */
import { describe, expect, it } from '@jest/globals';
import { InvalidSeedError } from '../../../../lib/local/errors';
import { parseSeed } from '../../../../lib/local/seed';
import { CLOCK } from '../../../../testkit/vacancies';

const RULES = { clock: CLOCK, rateTiers: ['standard'] };

/** A seed of one vendor with `fields`, and no vacancies. */
const seedOf = (fields: Record<string, unknown>) => ({
  vendors: [{ id: 'acme', company: 'Acme', status: 'active', api_keys: ['local-key-acme'], ...fields }],
  vacancies: [],
});

/** The problems of a seed that must be refused. */
function problemsOf(fields: Record<string, unknown>): readonly string[] {
  try {
    parseSeed(seedOf(fields), RULES);
  } catch (error) {
    if (error instanceof InvalidSeedError) return error.problems;
    throw error;
  }
  throw new Error('The seed was accepted');
}

describe('a seed file’s vendor', () => {
  it('keeps its website and logo normalized, and its origins without default ports', () => {
    const seed = parseSeed(
      seedOf({
        website: 'HTTPS://Acme.Example:443',
        logo: 'https://acme.example/"></script><script>alert(1)</script>.png',
        publishable_keys: [
          {
            key: 'local-page-key',
            origins: [
              'https://careers.acme.example:443',
              'https://careers.acme.example',
              'http://localhost:80',
            ],
          },
        ],
      }),
      RULES,
    );
    expect(seed.vendors[0]).toMatchObject({
      website: 'https://acme.example/',
      logo: 'https://acme.example/%22%3E%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E.png',
      publishable_keys: [
        { key: 'local-page-key', origins: ['https://careers.acme.example', 'http://localhost'] },
      ],
    });
  });

  it.each([
    [{ website: 'http://acme.example' }, 'vendors[0].website must be an absolute https URL'],
    [
      { logo: 'https://user:pw@acme.example/logo.png' },
      'vendors[0].logo must not contain a user name or password',
    ],
    [{ logo: 42 }, 'vendors[0].logo must be an absolute https URL'],
  ])('refuses %p in one line naming the field', (fields, problem) => {
    expect(problemsOf(fields)).toEqual([problem]);
  });
});
