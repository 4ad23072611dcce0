/**
 * What holds data is frozen (docs/operating.md#upgrading): the synthesized template's tables, bucket and queues equal
 * the committed manifest in every setting profile, and each kind of difference says what a deploy would do to the
 * data. Changing the manifest is a deliberate act: `npm run stateful -- --write`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import {
  type StatefulManifest,
  type StatefulTable,
  statefulChanges,
  statefulResources,
} from '../../../../lib/synth/stateful-resources';
import { sharedSynthesizedTemplate } from '../../../../testkit/synth-server';

const MANIFEST = JSON.parse(
  readFileSync(new URL('../../../../lib/stack/stateful-resources.json', import.meta.url), 'utf8'),
) as StatefulManifest;
const VACANCIES = Object.keys(MANIFEST).find((id) => id.startsWith('DataVacancies')) as string;
const vacancies = MANIFEST[VACANCIES] as StatefulTable;
/** The manifest with the vacancies table changed by `change`. */
const withVacancies = (change: Partial<StatefulTable>): StatefulManifest => ({
  ...MANIFEST,
  [VACANCIES]: { ...vacancies, ...change },
});

describe('the resources that hold data', () => {
  it.each([
    ['the defaults', {}],
    ['monitoring=detailed', { monitoring: 'detailed' }],
    ['a dev stack (destroyOnRemoval, its own stage)', { destroyOnRemoval: true, stageName: 'dev' }],
    ['the per-IP limit', { wafRateLimit: 1000 }],
  ])('are the committed manifest with %s (npm run stateful says "no change")', async (_, context) => {
    expect(statefulChanges(MANIFEST, statefulResources(await sharedSynthesizedTemplate(context)))).toEqual(
      [],
    );
  });

  it("are two tables, the inbox's and the feeds' buckets and three queues, by logical id", () => {
    expect(Object.values(MANIFEST).filter(({ kind }) => kind === 'table')).toHaveLength(2);
    expect(Object.values(MANIFEST).filter(({ kind }) => kind === 'bucket')).toHaveLength(2);
    expect(Object.values(MANIFEST).filter(({ kind }) => kind === 'queue')).toHaveLength(3);
  });
});

describe('what a deploy would do, said for each difference', () => {
  it('a table whose construct was renamed: gone, and a new empty one', () => {
    const { [VACANCIES]: table, ...rest } = MANIFEST;
    const renamed = { ...rest, DataVacancyItems0123ABCD: table as StatefulTable };
    expect(statefulChanges(MANIFEST, renamed)).toEqual([
      expect.stringMatching(
        new RegExp(`^${VACANCIES} \\(table\\) is gone from the template: .*a new, empty table\\.$`),
      ),
      'DataVacancyItems0123ABCD (table) is new: a deploy creates it, empty.',
    ]);
  });

  it('a key schema changed: replaced', () => {
    expect(statefulChanges(MANIFEST, withVacancies({ keySchema: ['id:HASH:S'] }))).toEqual([
      expect.stringMatching(
        /key schema changes \(id:HASH:N → id:HASH:S\): a deploy would REPLACE it: a new, empty table/,
      ),
    ]);
  });

  it('an index added: in place, with a backfill; two at once: one per release', () => {
    const one = {
      ...vacancies.indexes,
      'by-city': { keySchema: ['v:HASH:S', 'k:RANGE:B'], projection: 'KEYS_ONLY' },
    };
    expect(statefulChanges(MANIFEST, withVacancies({ indexes: one }))).toEqual([
      expect.stringMatching(/index by-city is added .*adds it in place.*backfill/),
    ]);
    const two = { ...one, 'by-category': { keySchema: ['v:HASH:S', 'g:RANGE:B'], projection: 'KEYS_ONLY' } };
    expect(statefulChanges(MANIFEST, withVacancies({ indexes: two }))).toEqual([
      expect.stringMatching(/index by-category is added/),
      expect.stringMatching(/index by-city is added/),
      expect.stringMatching(/2 index operations in one deploy: .*one per release/),
    ]);
  });

  it("an index's projection changed: a new index beside it, readers moved, the old one dropped later", () => {
    const indexes = {
      ...vacancies.indexes,
      'active-by-vendor': {
        ...(vacancies.indexes['active-by-vendor'] as { keySchema: readonly string[] }),
        projection: 'ALL',
      },
    };
    expect(statefulChanges(MANIFEST, withVacancies({ indexes }))).toEqual([
      expect.stringMatching(
        /index active-by-vendor changes its projection .*cannot change in place — add a new index beside it/,
      ),
      expect.stringMatching(/2 index operations in one deploy/),
    ]);
  });

  it('an index removed, the stream and the time to live changed', () => {
    const { expiring: _, ...indexes } = vacancies.indexes;
    expect(
      statefulChanges(MANIFEST, withVacancies({ indexes, stream: 'NEW_AND_OLD_IMAGES', timeToLive: 'gone' })),
    ).toEqual([
      expect.stringMatching(/index expiring is removed: .*reader must have moved off it/),
      expect.stringMatching(/its stream changes \(NEW_IMAGE → NEW_AND_OLD_IMAGES\): .*records not yet read/),
      expect.stringMatching(/its time to live changes \(null → gone\): updated in place/),
    ]);
  });

  it('a queue made FIFO, a bucket named: replaced', () => {
    const [queue] = Object.entries(MANIFEST).find(([, resource]) => resource.kind === 'queue') ?? [];
    const [bucket] = Object.entries(MANIFEST).find(([, resource]) => resource.kind === 'bucket') ?? [];
    const changed = {
      ...MANIFEST,
      [queue as string]: { kind: 'queue', name: null, fifo: true },
      [bucket as string]: { kind: 'bucket', name: 'vacancy-inbox' },
    } as StatefulManifest;
    expect(statefulChanges(MANIFEST, changed)).toEqual([
      expect.stringMatching(/\(bucket\): its name or type changes .*REPLACE/),
      expect.stringMatching(/\(queue\): its name or type changes .*REPLACE/),
    ]);
  });
});
