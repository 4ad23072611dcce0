/**
 * The size DynamoDB bills for an item, by its documented rules ("Item sizes and formats", DynamoDB Developer
 * Guide): per attribute, the UTF-8 bytes of its name plus those of its value — a string's UTF-8 bytes, a
 * binary's bytes, a number one byte per two significant digits plus one, a boolean or null one byte. The
 * benchmark uses it for the size of an index entry and for write units, which the embedded engine reports
 * only for the table (not for the index writes DynamoDB also bills).
 */
import { VACANCIES_TABLE } from '../lambda/domain/schema/tables';

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function numberSize(value: number): number {
  const digits = String(Math.abs(value))
    .replace('.', '')
    .replace(/e.*$/i, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number') return numberSize(value);
  if (value instanceof Uint8Array) return value.length;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, entry) => sum + 1 + valueSize(entry), 0);
  if (typeof value === 'object') return 3 + itemSize(value as Record<string, unknown>);
  return 0;
}

/** Bytes of an item (or an index entry) as DynamoDB counts them. */
export function itemSize(item: Readonly<Record<string, unknown>>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/**
 * The entries an item of the vacancies table has in its indexes, by index name, each as the part of the item it
 * holds: the table's key, the index's keys and its projected attributes — only in the indexes whose keys it has
 * (they are sparse). Derived from the schema module's definitions.
 */
export function indexEntries(item: Readonly<Record<string, unknown>>): Map<string, Record<string, unknown>> {
  const entries = new Map<string, Record<string, unknown>>();
  for (const index of VACANCIES_TABLE.globalIndexes) {
    const keys = [index.partitionKey.name, ...(index.sortKey ? [index.sortKey.name] : [])];
    if (!keys.every((name) => name in item)) continue;
    const projected =
      index.projection.type === 'ALL'
        ? Object.keys(item)
        : [
            VACANCIES_TABLE.partitionKey.name,
            ...keys,
            ...(index.projection.type === 'INCLUDE' ? index.projection.nonKeyAttributes : []),
          ];
    entries.set(
      index.indexName,
      Object.fromEntries(projected.flatMap((name) => (name in item ? [[name, item[name]]] : []))),
    );
  }
  return entries;
}

/**
 * Write units of a put, as DynamoDB bills them: one per started KB of the item, plus one per started KB of each
 * index entry written (a put that creates or changes an entry; `entries` are their sizes).
 */
export function putWriteUnits(itemBytes: number, entries: readonly number[]): number {
  return Math.ceil(itemBytes / 1024) + entries.reduce((sum, bytes) => sum + Math.ceil(bytes / 1024), 0);
}
