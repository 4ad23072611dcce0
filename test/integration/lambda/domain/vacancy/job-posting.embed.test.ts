/**
 * The JobPosting is safe to embed as it is (docs/api.md#jobposting): whatever strings a vacancy and its vendor hold —
 * `</script>`, `<!--`, `<script`, U+2028, any Unicode — the one-vacancy route's body, put verbatim into a job page's
 * `<script type="application/ld+json">`, is read by a real HTML parser (parse5, the WHATWG parsing algorithm) as
 * exactly one script element whose text parses back to the same document. And its ETag is the tag of those bytes.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { LOCALES, type Locale } from '../../../../../lambda/domain/schema/vacancy';
import { toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { serializeJobPosting, toJobPosting } from '../../../../../lambda/domain/vacancy/job-posting';
import { toVacancyObjects } from '../../../../../lambda/domain/vacancy/presenter';
import { strongETag } from '../../../../../lambda/platform/http/conditional';
import {
  AFTER_ID,
  jobPage,
  type StoredStrings,
  servedJobPosting,
  storedVacancy,
} from '../../../../../testkit/job-page';
import { CLOCK } from '../../../../../testkit/vacancies';

type ParsedNode = DefaultTreeAdapterMap['node'];
type ParsedElement = DefaultTreeAdapterMap['element'];

/** Every element of a parsed document, in document order. */
function elements(node: ParsedNode): ParsedElement[] {
  const own = 'tagName' in node ? [node] : [];
  const children = 'childNodes' in node ? node.childNodes : [];
  return [...own, ...children.flatMap(elements)];
}

/** The text of an element, as a script sees it: its text children joined. */
const textOf = (element: ParsedElement) =>
  element.childNodes
    .map((child) => ('value' in child && child.nodeName === '#text' ? child.value : ''))
    .join('');

/** What the page's parser made of the embedded body: its script elements' types and texts, and whether the page ended. */
function readPage(html: string) {
  const all = elements(parse(html));
  const scripts = all.filter((element) => element.tagName === 'script');
  return {
    scripts: scripts.map((script) => ({
      type: script.attrs.find((attribute) => attribute.name === 'type')?.value,
      text: textOf(script),
    })),
    pageEnds: all.some((element) => element.attrs.some((a) => a.name === 'id' && a.value === AFTER_ID)),
  };
}

/** The JobPosting the strings make, as an object: what the embedded text must parse back to. */
function expectedDocument(strings: StoredStrings, locale: Locale): unknown {
  const item = toVacancyItem(storedVacancy(strings), 0);
  const [shown] = toVacancyObjects([item], locale, CLOCK);
  const organization = { company: strings.company, website: strings.website, logo: strings.logo };
  const document = toJobPosting(item, shown as NonNullable<typeof shown>, organization, locale, {
    jobCountry: 'AZ',
    salaryCurrency: 'AZN',
    salaryPeriod: 'MONTH',
    clock: CLOCK,
  });
  return JSON.parse(JSON.stringify(document));
}

/** What ends, opens or bends a script element, or a line of JavaScript; and what JSON escapes. */
const HOSTILE_PARTS = [
  '</script>',
  '</SCRIPT >',
  '</script',
  '<script>',
  '<script',
  '<!--',
  '-->',
  '<!-- <script>',
  '<',
  '>',
  '&',
  '&lt;',
  '&#x3c;',
  '"',
  "'",
  '\\',
  '\\u003c',
  '\u2028',
  '\u2029',
  '\u0000',
  '\r\n',
  '\ud800',
  ']]>',
  '<img src=x onerror=alert(1)>',
  'javascript:',
  'ə',
  '😀',
];

/** Any string: arbitrary Unicode, or the hostile parts mixed with some. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE_PARTS), fc.string({ unit: 'binary', maxLength: 4 })), {
      maxLength: 12,
    })
    .map((parts) => parts.join('')),
);

const strings: fc.Arbitrary<StoredStrings> = fc.record({
  title: hostile,
  // A URL's path and query, as a vacancy or an older import could hold them.
  url: fc.tuple(hostile, hostile).map(([path, query]) => `https://careers.example.az/${path}?q=${query}`),
  description: hostile,
  requirements: hostile,
  responsibilities: hostile,
  company: hostile,
  website: hostile.map((path) => `https://example.az/${path}`),
  logo: hostile.map((path) => `https://example.az/${path}.png`),
});

describe('the JobPosting embedded in a job page', () => {
  it('is one script element whose text parses back to the document, whatever the stored strings', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(strings, fc.constantFrom(...LOCALES), async (drawn, locale) => {
        runs += 1;
        const response = await servedJobPosting(drawn, locale);
        expect(response.statusCode).toBe(200);
        expect(response.body).not.toMatch(/[<>&\u2028\u2029]/);
        // The tag is the tag of the bytes sent.
        expect(response.headers?.ETag).toBe(strongETag(locale, response.body));

        const page = readPage(jobPage(response.body));
        expect(page.scripts).toHaveLength(1);
        const [script] = page.scripts as [{ type?: string; text: string }];
        expect(script.type).toBe('application/ld+json');
        expect(script.text).toBe(response.body);
        const read = JSON.parse(script.text);
        expect(read).toEqual(expectedDocument(drawn, locale));
        expect(read).toMatchObject({
          title: drawn.title,
          hiringOrganization: { name: drawn.company, sameAs: drawn.website, logo: drawn.logo },
          identifier: { name: drawn.company },
          url: drawn.url,
        });
        expect(page.pageEnds).toBe(true);
      }),
      { numRuns: 200 },
    );
    expect(runs).toBeGreaterThanOrEqual(200);
  });

  it('writes <, >, &, U+2028 and U+2029 as JSON escapes, and nothing else differently', () => {
    const document = {
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'a</script>&\u2028\u2029',
    };
    const serialized = serializeJobPosting(document as never);
    expect(serialized).toBe(
      '{"@context":"https://schema.org","@type":"JobPosting","title":"a\\u003c/script\\u003e\\u0026\\u2028\\u2029"}',
    );
    expect(JSON.parse(serialized)).toEqual(document);
  });
});
