// examples/generated-client/cli.ts — walk.ts from the command line: the walk, then a poll that answers 304
//
//   VACANCY_API_URL=<the API's base URL> npx tsx examples/generated-client/cli.ts --api-key <key> [--lang en]
//                                                                          [--include pay,workplace]
import { API_OPTIONS, readCommandLine, runProgram } from '../example-program';
import { type Query, walkListing } from './walk';

const USAGE = `usage: cli.ts --api-key <key> [--base-url <url>] [--per-page 1..100] [--lang az|en]
              [--include pay,workplace]

--base-url: the API's base URL; absent, $VACANCY_API_URL, else http://127.0.0.1:3000 (npm start's default).
Walks every page of the vendor's listing by its next links, prints the vacancies, then polls the first page again
with its ETag: an unchanged listing answers 304. --include: each vacancy's pay and workplace too.`;

{
  const values = readCommandLine(
    { ...API_OPTIONS, 'per-page': { type: 'string', default: '100' }, include: { type: 'string' } },
    USAGE,
    ['api-key'],
  );
  const query: Query = {
    per_page: Number(values['per-page']),
    ...(values.lang === 'az' || values.lang === 'en' ? { lang: values.lang } : {}),
    ...(values.include ? { include: values.include } : {}),
  };
  await runProgram(async () => {
    const walked = await walkListing(values['base-url'], values['api-key'] as string, { query });
    if (!walked) throw new Error('A first walk cannot be unchanged');
    console.log(`walked ${walked.vacancies.length} vacancies, first page's ETag ${walked.etag}`);
    for (const vacancy of walked.vacancies) {
      // Pay and place, when asked for: the currency, what the salary is paid per (none when negotiable), where.
      const pay = vacancy.salary_currency
        ? `, ${vacancy.salary_currency}${vacancy.salary_period ? ` per ${vacancy.salary_period}` : ''}`
        : '';
      const place = vacancy.workplace ? `, ${vacancy.workplace}` : '';
      console.log(
        `  ${vacancy.id}  ${vacancy.title} (${vacancy.type}, ${vacancy.city}${place}${pay}, until ${vacancy.deadline})`,
      );
    }
    const again = await walkListing(values['base-url'], values['api-key'] as string, {
      query,
      etag: walked.etag,
    });
    console.log(
      again === undefined
        ? 'polled again with If-None-Match: 304, nothing changed'
        : `polled again: changed meanwhile, now ${again.vacancies.length} vacancies`,
    );
  });
}
