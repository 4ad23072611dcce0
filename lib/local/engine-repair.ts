/**
 * The embedded engine's indexes made whole again after an unclean stop (docs/design.md#a-kill-timeline).
 *
 * dynalite writes an item's index entries first and the item after, as separate LevelDB writes. A process killed
 * between them — `npm start` killed mid-import — leaves an index entry with no item behind it, an item with no entry,
 * or the entry of an item's earlier state beside its new one: a recount would count a vacancy that is not there, and
 * a listing would walk past one that is. DynamoDB derives its indexes from its tables; so does this, once, when the
 * store is opened again: every index of every table is made exactly what the table's items put in it.
 *
 * Whether a stop was clean is known by a mark: the engine writes `OPEN_MARK` into its folder before it opens the
 * store, and removes it once the store has closed. A mark found at start is an unclean stop (a killed process, a
 * machine gone); the repair runs before the engine serves, and the mark stays until it is done, so a repair that is
 * itself killed is done again.
 *
 * The store's layout is dynalite 4's (a LevelDB of JSON values whose keys are `table~<table>`,
 * `item-<table>~<key>` and `index-<local|global>~<table>~<index>~<key>`); what entries an item makes is dynalite's
 * own `getIndexActions`, so that the repair writes exactly what a write would have.
 */
import { rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The file whose presence says the store was not closed cleanly. */
export const OPEN_MARK = 'vva-engine-open';

/** What a repair did. */
export interface IndexRepair {
  readonly tables: number;
  readonly items: number;
  /** Index entries removed: of an item that is not there, or of an item's earlier state. */
  readonly removed: number;
  /** Index entries written: missing, or not what the item makes. */
  readonly added: number;
}

/** A table as dynalite keeps its description. */
export interface TableDescription {
  readonly TableName: string;
  readonly LocalSecondaryIndexes?: readonly { readonly IndexName: string }[];
  readonly GlobalSecondaryIndexes?: readonly { readonly IndexName: string }[];
}

export type Json = Record<string, unknown>;

/** The parts of a LevelDB store (abstract-level) the repair uses. */
export interface Store {
  open(): Promise<void>;
  close(): Promise<void>;
  get(key: string): Promise<Json>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, Json]>;
  batch(
    operations: ({ type: 'put'; key: string; value: Json } | { type: 'del'; key: string })[],
  ): Promise<void>;
}

/** What of dynalite the repair uses: its LevelDB class, and the index entries an item makes. */
export interface Dynalite {
  readonly Level: new (location: string, options: { valueEncoding: 'json' }) => Store;
  readonly getIndexActions: (
    indexes: readonly Json[],
    existing: Json | undefined,
    item: Json,
    table: TableDescription,
  ) => { puts: { key: string; item: Json }[] };
}

let internals: Dynalite | undefined;

/**
 * dynalite's LevelDB and index rules, from its own copies (looked up once): the one place that reaches into
 * dynalite's insides (its tests plant damage with it too).
 */
export function dynaliteInternals(): Dynalite {
  if (internals) return internals;
  const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  internals = {
    Level: (fromDynalite('level') as { Level: Dynalite['Level'] }).Level,
    getIndexActions: (fromDynalite('./db') as Pick<Dynalite, 'getIndexActions'>).getIndexActions,
  };
  return internals;
}

/** Every key and value under a prefix. */
async function* under(store: Store, prefix: string): AsyncGenerator<[string, Json]> {
  yield* store.iterator({ gte: prefix, lt: `${prefix}\xff` });
}

/** Writes in batches of this many operations: each batch is one atomic LevelDB write. */
const BATCH = 1_000;

/** The store in `dataDir`, opened; one another process holds is said in words. */
async function openLevel(dataDir: string): Promise<Store> {
  const store = new (dynaliteInternals().Level)(dataDir, { valueEncoding: 'json' });
  try {
    await store.open();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED')
      throw new Error(
        `${dataDir} is in use by another process (another npm start?): stop that, or choose another --data-dir.`,
      );
    throw error;
  }
  return store;
}

/** Makes every index of every table of the store in `dataDir` what its items put in it. */
export async function rebuildIndexes(dataDir: string): Promise<IndexRepair> {
  const { getIndexActions } = dynaliteInternals();
  const store = await openLevel(dataDir);
  let tables = 0;
  let items = 0;
  let removed = 0;
  let added = 0;
  try {
    const descriptions: TableDescription[] = [];
    for await (const [, table] of under(store, 'table~'))
      descriptions.push(table as unknown as TableDescription);
    for (const table of descriptions) {
      tables += 1;
      // Each index's prefix in the store, and the entries its table's items put there, by key.
      const indexes = [
        ...(table.LocalSecondaryIndexes ?? []).map((index) => ({ type: 'local', index })),
        ...(table.GlobalSecondaryIndexes ?? []).map((index) => ({ type: 'global', index })),
      ].map(({ type, index }) => ({
        index: index as Json,
        prefix: `index-${type}~${table.TableName}~${index.IndexName}~`,
        entries: new Map<string, Json>(),
      }));
      for await (const [, item] of under(store, `item-${table.TableName}~`)) {
        items += 1;
        for (const { index, prefix, entries } of indexes)
          for (const put of getIndexActions([index], undefined, item, table).puts)
            entries.set(`${prefix}${put.key}`, put.item);
      }
      const operations: Parameters<Store['batch']>[0] = [];
      const flush = async (force: boolean) => {
        if (operations.length === 0 || (!force && operations.length < BATCH)) return;
        await store.batch(operations.splice(0));
      };
      for (const { prefix, entries } of indexes) {
        const missing = new Map(entries);
        for await (const [key, value] of under(store, prefix)) {
          const wanted = entries.get(key);
          if (wanted === undefined) {
            operations.push({ type: 'del', key });
            removed += 1;
          } else if (JSON.stringify(wanted) === JSON.stringify(value)) missing.delete(key);
          await flush(false);
        }
        // Those not there, and those there but not as the item makes them.
        for (const [key, value] of missing) {
          operations.push({ type: 'put', key, value });
          added += 1;
          await flush(false);
        }
      }
      await flush(true);
    }
  } finally {
    await store.close();
  }
  return { tables, items, removed, added };
}

/**
 * Marks the store in `dataDir` open, first repairing its indexes if the last process to open it did not close it
 * (its mark is still there). Returns what the repair did, if one was needed.
 */
export async function openStore(dataDir: string): Promise<IndexRepair | undefined> {
  const mark = join(dataDir, OPEN_MARK);
  const unclean = await stat(mark).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  // Another process's store is not this one's to mend, nor to mark: refused before either (the mark it left says it
  // is open, not that it was killed).
  if (!unclean) await (await openLevel(dataDir)).close();
  const repair = unclean ? await rebuildIndexes(dataDir) : undefined;
  await writeFile(mark, `${process.pid}\n`);
  return repair;
}

/** Marks the store in `dataDir` closed cleanly (once the engine has closed it). */
export async function closeStore(dataDir: string): Promise<void> {
  await rm(join(dataDir, OPEN_MARK), { force: true });
}
