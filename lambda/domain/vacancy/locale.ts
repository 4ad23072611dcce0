/**
 * The locale of an answer (docs/api.md#locale): whether a string is a supported locale, and the negotiation — a
 * valid `lang` parameter decides; else the supported locale `Accept-Language` prefers most (RFC 9110, RFC 4647);
 * else the service's default.
 */
import { LOCALES, type Locale } from '../schema/vacancy';

/** Whether a string (already lower-cased) is a supported locale. */
export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

interface LanguageRange {
  /** The whole range, lower-cased (`en-us`), or `*`. */
  readonly tag: string;
  readonly quality: number;
  /** Position in the header: the earlier of two equal preferences wins. */
  readonly position: number;
}

// RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const LANGUAGE_RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/;

/** The language ranges of an `Accept-Language` value; malformed entries are skipped, as RFC 9110 allows. */
function parseAcceptLanguage(header: string): LanguageRange[] {
  const ranges: LanguageRange[] = [];
  header.split(',').forEach((entry, position) => {
    const [range = '', ...parameters] = entry.split(';').map((part) => part.trim());
    const tag = range.toLowerCase();
    if (!LANGUAGE_RANGE.test(tag)) return;
    let quality = 1;
    for (const parameter of parameters) {
      const [name, value = ''] = parameter.split('=').map((part) => part.trim());
      if (name?.toLowerCase() !== 'q') continue;
      if (!QVALUE.test(value)) return;
      quality = Number(value);
    }
    ranges.push({ tag, quality, position });
  });
  return ranges;
}

/** How much the header wants a locale, and where it said so. */
interface Preference {
  readonly quality: number;
  readonly position: number;
}

/** The preferred range of a list: the highest quality, the earlier one on a tie. */
const preferred = (ranges: readonly LanguageRange[]): Preference =>
  ranges.reduce((a, b) => (b.quality > a.quality ? b : a));

/**
 * What `Accept-Language` says of one supported locale (RFC 9110 §12.5.4, RFC 4647). A range naming it exactly
 * decides, and outranks more specific ones (`en-US;q=0, en` accepts `en`): `q=0` there excludes it. Without one,
 * its more specific ranges (`en-GB`, `en-US`) decide by the best of them. Without those, `*` stands for it — `*`
 * means every language the header does not name. Undefined: the header says nothing of it.
 */
function preferenceFor(locale: Locale, ranges: readonly LanguageRange[]): Preference | undefined {
  const exact = ranges.filter((range) => range.tag === locale);
  if (exact.length > 0)
    return exact.some((range) => range.quality === 0) ? { quality: 0, position: 0 } : preferred(exact);
  const specific = ranges.filter((range) => range.tag.startsWith(`${locale}-`));
  if (specific.length > 0) return preferred(specific);
  const wildcard = ranges.filter((range) => range.tag === '*');
  return wildcard.length > 0 ? preferred(wildcard) : undefined;
}

/**
 * Chooses the response locale (docs/api.md#locale): a valid `lang` parameter decides; otherwise the
 * supported locale that `Accept-Language` prefers most, by quality, then by where the header names it, then
 * the default locale first; when the header accepts none, the default.
 */
export function negotiateLocale(
  lang: Locale | undefined,
  acceptLanguage: string | undefined,
  defaultLocale: Locale,
): Locale {
  if (lang) return lang;
  if (!acceptLanguage) return defaultLocale;

  const ranges = parseAcceptLanguage(acceptLanguage);
  // The default first, so that a tie (`*` alone) goes to it.
  const candidates = [defaultLocale, ...LOCALES.filter((locale) => locale !== defaultLocale)];
  let best: { locale: Locale; quality: number; position: number } | undefined;
  for (const locale of candidates) {
    const preference = preferenceFor(locale, ranges);
    if (!preference || preference.quality === 0) continue;
    const better =
      !best ||
      preference.quality > best.quality ||
      (preference.quality === best.quality && preference.position < best.position);
    if (better) best = { locale, ...preference };
  }
  return best?.locale ?? defaultLocale;
}
