/**
 * Realistic vacancy records for the benchmark: about 2.5 KB each as stored, deterministic (a seeded
 * generator), a mix of types, categories, cities, salary types and experience ranges, created over a year.
 */
import { validateVacancyRecord } from '../lambda/domain/import/record';
import { expiredIfPast, toVacancyItem } from '../lambda/domain/schema/vacancy-item';
import { DICTIONARY } from '../lambda/domain/vacancy/dictionary';
import { zoneClock } from '../lambda/platform/time/zone-clock';
import { seededRandom } from './seeded-random';

const WORDS =
  'komanda layihə müştəri məhsul inkişaf təcrübə bilik bacarıq məsuliyyət hesabat planlaşdırma analiz ' +
  'team project customer product development experience knowledge skills responsibility reporting planning ' +
  'analysis quality delivery support service platform process improvement communication leadership data';
const VOCABULARY = WORDS.split(' ');

function text(random: () => number, length: number): string {
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    const word = VOCABULARY[Math.floor(random() * VOCABULARY.length)] ?? 'data';
    words.push(word);
    size += word.length + 1;
  }
  return `${words.join(' ').slice(0, length - 1)}.`;
}

const pick = <T>(random: () => number, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)] as T;

/**
 * Import records of one vendor: `active` listed vacancies, plus 10% as many that are not active (inactive,
 * draft, closed) and 5% that are active but expired — the index and the table hold what a real vendor's would.
 * Ids run from `firstId`; creation times spread over a year, in random order.
 */
export function vacancyRecords(
  vendorId: string,
  firstId: number,
  active: number,
  seed = 1,
): Record<string, unknown>[] {
  const random = seededRandom(seed);
  const categories = Object.keys(DICTIONARY.category);
  const cities = Object.keys(DICTIONARY.city);
  const inactive = Math.round(active * 0.1);
  const expired = Math.round(active * 0.05);
  const start = Date.UTC(2025, 11, 1);
  return Array.from({ length: active + inactive + expired }, (_, i) => {
    const id = firstId + i;
    const kind = i < active ? 'active' : i < active + inactive ? 'inactive' : 'expired';
    const salaryType = pick(random, ['range', 'range', 'fixed', 'negotiable'] as const);
    const low = 500 + Math.floor(random() * 40) * 100;
    const experienceMin = Math.floor(random() * 6);
    const created = new Date(start + Math.floor(random() * 330 * 86_400) * 1000);
    const record = {
      id,
      vendor_id: vendorId,
      status: kind === 'inactive' ? pick(random, ['inactive', 'draft', 'closed']) : 'active',
      title: `${pick(random, ['Senior', 'Junior', 'Lead', 'Middle'])} ${text(random, 30).replace(/\.$/, '')}`,
      url: `https://careers.example.az/${vendorId}/vacancies/${id}`,
      description: text(random, 1300),
      requirements: text(random, 450),
      responsibilities: text(random, 450),
      category: pick(random, categories),
      city: pick(random, cities),
      type: 1 + Math.floor(random() * 4),
      salary_type: salaryType,
      salary_min: salaryType === 'range' ? low : null,
      salary_max: salaryType === 'range' ? low + 500 + Math.floor(random() * 20) * 100 : null,
      salary: salaryType === 'fixed' ? low : null,
      experience_min: experienceMin,
      experience_max: random() < 0.2 ? null : experienceMin + Math.floor(random() * 6),
      deadline: kind === 'expired' ? '2025-11-30' : `2099-0${1 + Math.floor(random() * 9)}-15`,
      created_at: created.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    // Where the work is done: a fifth hybrid and a seventh remote, by id (drawing nothing from the random stream).
    const place = id % 5 === 0 ? 'hybrid' : id % 7 === 0 ? 'remote' : undefined;
    return place && record.type !== 3 ? { ...record, workplace: place } : record;
  });
}

/** When the data sets' items last changed (ms). */
const CHANGED_AT = Date.UTC(2026, 10, 1);
const BAKU = zoneClock('Asia/Baku');

/**
 * Import records as the service stores them: validated as an import would, and `expired` when active past their
 * deadline (what the import, or else the expiry job, records).
 */
export function storedItems(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const today = BAKU.today(new Date());
  return records.map((input) => {
    const validated = validateVacancyRecord(input, BAKU);
    if (!validated.ok) throw new Error(validated.reasons.join('; '));
    return toVacancyItem(expiredIfPast(validated.vacancy, today), CHANGED_AT) as unknown as Record<
      string,
      unknown
    >;
  });
}

/** The table items of a vendor's data set. */
export function dataSetItems(vendorId: string, firstId: number, active: number) {
  return storedItems(vacancyRecords(vendorId, firstId, active, active));
}

/**
 * Records of a data set with some vacancies in several cities (docs/api.md#many-places), chosen by id (drawing
 * nothing from the random stream, so the records are otherwise the same): a fifth in two cities, a tenth in three to
 * five — the others in their one city. The additional cities follow the primary in the dictionary's order, from an
 * offset by id, never the primary.
 */
export function inSeveralCities(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const cities = Object.keys(DICTIONARY.city);
  return records.map((record) => {
    const id = record.id as number;
    const more = id % 5 === 1 ? 1 : id % 10 === 2 ? 2 + (id % 3) : 0;
    if (more === 0) return record;
    const at = cities.indexOf(String(record.city));
    const skip = id % 7;
    const additional = Array.from({ length: more }, (_, i) => cities[(at + 1 + skip + i) % cities.length]);
    return { ...record, additional_cities: additional };
  });
}
