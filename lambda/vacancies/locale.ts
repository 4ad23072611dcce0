import { LOCALES, type Locale } from '../schema/vacancy';

/** Whether a string (already lower-cased) is a supported locale. */
export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

interface LanguageRange {
  /** Lower-cased primary subtag (`en` of `en-US`), or `*`. */
  readonly language: string;
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
    ranges.push({ language: tag.split('-')[0] ?? tag, quality, position });
  });
  return ranges;
}

/**
 * Chooses the response locale (CONTRACT §1 "Locale"): a valid `lang` parameter decides; otherwise the
 * supported language that `Accept-Language` prefers most (`en-US` counts as `en`, `q=0` excludes, `*`
 * stands for the default locale); otherwise the default.
 */
export function negotiateLocale(
  lang: Locale | undefined,
  acceptLanguage: string | undefined,
  defaultLocale: Locale,
): Locale {
  if (lang) return lang;
  if (!acceptLanguage) return defaultLocale;

  const ranges = parseAcceptLanguage(acceptLanguage);
  let best: { locale: Locale; quality: number; position: number } | undefined;
  for (const locale of LOCALES) {
    // A locale named in the header takes its own ranges; the default locale also answers to `*`.
    const named = ranges.filter((range) => range.language === locale);
    const applicable =
      named.length > 0 || locale !== defaultLocale ? named : ranges.filter((range) => range.language === '*');
    // `q=0` means "not acceptable": it excludes the locale whatever else the header says of it.
    if (applicable.length === 0 || applicable.some((range) => range.quality === 0)) continue;
    const preferred = applicable.reduce((a, b) => (b.quality > a.quality ? b : a));
    const better =
      !best ||
      preferred.quality > best.quality ||
      (preferred.quality === best.quality && preferred.position < best.position);
    if (better) best = { locale, quality: preferred.quality, position: preferred.position };
  }
  return best?.locale ?? defaultLocale;
}
