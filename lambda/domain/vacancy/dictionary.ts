/**
 * The dictionary (docs/api.md#dictionary): the codes a vacancy's `type`, `salary_type`, `category`, `city` and
 * `workplace` may hold, each with its Azerbaijani and English label, and the lookups on it — whether a code is there, and a code's
 * label in a locale, falling back to the other locale's label, then to the code. The import checks `category` and
 * `city` against it; the vacancies function filters, searches and translates by it.
 */
import type { LabelledField, Locale, SalaryType, VacancyType, Workplace } from '../schema/vacancy';

/** What has labels: the labelled fields of the vacancy object, and the workplace (docs/api.md#pay-and-place). */
export type DictionaryKind = LabelledField | 'workplace';

/** A label in each supported locale. */
export type Labels = Readonly<Record<Locale, string>>;

/** The codes of a dictionary kind and their labels. */
type Codes<Code extends string | number> = Readonly<Record<Code, Labels>>;

/**
 * The dictionary: the one place where codes get their Azerbaijani and English labels.
 * Every vacancy type and salary type must have labels (the types make a missing one a compile error); import
 * validation accepts exactly these codes for `category` and `city`; the listing translates with it.
 */
export const DICTIONARY: {
  readonly [Kind in DictionaryKind]: Codes<
    Kind extends 'type'
      ? VacancyType
      : Kind extends 'salary_type'
        ? SalaryType
        : Kind extends 'workplace'
          ? Workplace
          : string
  >;
} = {
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
  workplace: {
    onsite: { az: 'Ofisdə', en: 'On-site' },
    hybrid: { az: 'Hibrid', en: 'Hybrid' },
    remote: { az: 'Uzaqdan', en: 'Remote' },
  },
};

/** The labels of a code of a kind, or undefined when the dictionary does not have it. */
function labelsOf(kind: DictionaryKind, code: string): Labels | undefined {
  const codes: Readonly<Record<string, Labels>> = DICTIONARY[kind];
  return Object.hasOwn(codes, code) ? codes[code] : undefined;
}

/** Whether `code` is in the dictionary for `kind`. */
export function isDictionaryCode(kind: DictionaryKind, code: string): boolean {
  return labelsOf(kind, code) !== undefined;
}

/** The label for a locale out of a code's labels: the locale's own, else the other locale's, else the code. */
export function pickLabel(labels: Partial<Labels> | undefined, locale: Locale, code: string): string {
  return labels?.[locale] || labels?.[locale === 'az' ? 'en' : 'az'] || code;
}

/**
 * The label of a code in a locale. A code missing from the dictionary (or a label missing in that locale)
 * falls back to the other locale's label, then to the code itself: a listing never fails on data.
 */
export function localize(kind: DictionaryKind, code: string | number, locale: Locale): string {
  const key = String(code);
  return pickLabel(labelsOf(kind, key), locale, key);
}
