import type { Locale } from './types';

/** A label in each supported locale. */
export type Labels = Readonly<Record<Locale, string>>;

/** The localized fields of a vacancy and, for each, its codes and their labels. */
export type DictionaryKind = 'type' | 'salary_type' | 'category' | 'city';

/**
 * The dictionary of CONTRACT §5: the one place where codes get their Azerbaijani and English labels. Import
 * validation accepts exactly these codes for `category` and `city`; the listing translates with it.
 */
export const DICTIONARY: Readonly<Record<DictionaryKind, Readonly<Record<string, Labels>>>> = {
  type: {
    1: { az: 'Tam iş günü', en: 'Full Time' },
    2: { az: 'Yarım iş günü', en: 'Part Time' },
    3: { az: 'Uzaqdan', en: 'Remote' },
    4: { az: 'Təcrübə proqramı', en: 'Internship' },
  },
  salary_type: {
    range: { az: 'Aralıq (min-max)', en: 'Range (min-max)' },
    fixed: { az: 'Sabit', en: 'Fixed' },
    negotiable: { az: 'Razılaşma yolu ilə', en: 'Negotiable' },
  },
  category: {
    it: { az: 'İnformasiya Texnologiyaları', en: 'Information Technology' },
    finance: { az: 'Maliyyə', en: 'Finance' },
    banking: { az: 'Bank işi', en: 'Banking' },
    sales: { az: 'Satış', en: 'Sales' },
    marketing: { az: 'Marketinq', en: 'Marketing' },
    education: { az: 'Təhsil', en: 'Education' },
    healthcare: { az: 'Səhiyyə', en: 'Healthcare' },
    engineering: { az: 'Mühəndislik', en: 'Engineering' },
    design: { az: 'Dizayn', en: 'Design' },
    hr: { az: 'İnsan resursları', en: 'Human Resources' },
    logistics: { az: 'Logistika', en: 'Logistics' },
    hospitality: { az: 'Turizm və qonaqpərvərlik', en: 'Hospitality and Tourism' },
    legal: { az: 'Hüquq', en: 'Legal' },
    'customer-service': { az: 'Müştəri xidmətləri', en: 'Customer Service' },
    administration: { az: 'İnzibati işlər', en: 'Administration' },
    other: { az: 'Digər', en: 'Other' },
  },
  city: {
    baku: { az: 'Bakı', en: 'Baku' },
    ganja: { az: 'Gəncə', en: 'Ganja' },
    sumgait: { az: 'Sumqayıt', en: 'Sumgait' },
    mingachevir: { az: 'Mingəçevir', en: 'Mingachevir' },
    lankaran: { az: 'Lənkəran', en: 'Lankaran' },
    shaki: { az: 'Şəki', en: 'Shaki' },
    shirvan: { az: 'Şirvan', en: 'Shirvan' },
    nakhchivan: { az: 'Naxçıvan', en: 'Nakhchivan' },
    quba: { az: 'Quba', en: 'Quba' },
    khirdalan: { az: 'Xırdalan', en: 'Khirdalan' },
    gabala: { az: 'Qəbələ', en: 'Gabala' },
    shamakhi: { az: 'Şamaxı', en: 'Shamakhi' },
  },
};

/** Whether `code` is in the dictionary for `kind`. */
export function isDictionaryCode(kind: DictionaryKind, code: string): boolean {
  return Object.hasOwn(DICTIONARY[kind], code);
}

/**
 * The label for a locale out of a code's labels: the locale's own, else the other locale's, else the code.
 */
export function pickLabel(labels: Partial<Labels> | undefined, locale: Locale, code: string): string {
  return labels?.[locale] || labels?.[locale === 'az' ? 'en' : 'az'] || code;
}

/**
 * The label of a code in a locale. A code missing from the dictionary (or a label missing in that locale)
 * falls back to the other locale's label, then to the code itself: a listing never fails on data.
 */
export function localize(kind: DictionaryKind, code: string | number, locale: Locale): string {
  const key = String(code);
  return pickLabel(isDictionaryCode(kind, key) ? DICTIONARY[kind][key] : undefined, locale, key);
}
