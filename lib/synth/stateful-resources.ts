/**
 * What holds data in a deployment, frozen (docs/operating.md#upgrading): the tables (key schema, indexes with their
 * key schema and projection, stream, time to live), the inbox bucket and the queues, each by its CloudFormation
 * logical id — the resource's identity: a construct renamed or moved gets a new id, and CloudFormation then creates a
 * new, empty resource. `statefulResources` reads them from a synthesized template; `statefulChanges` says, for each
 * difference from the committed manifest (`lib/stack/stateful-resources.json`), what a deploy would do to the data.
 * `npm run stateful` prints the differences, and `npm run stateful -- --write` records the template's as the manifest.
 */

/** A key schema, written `name:HASH:S`, `name:RANGE:B` (the attribute, its role, its type). */
type KeySchema = readonly string[];

/** A table's data-bearing shape. */
export interface StatefulTable {
  readonly kind: 'table';
  /** A physical name, when the stack sets one (it does not: CloudFormation names the tables). */
  readonly tableName: string | null;
  readonly keySchema: KeySchema;
  /** Each global secondary index by name: its key schema and projection (`ALL`, `KEYS_ONLY`, `INCLUDE a,b`). */
  readonly indexes: Readonly<Record<string, { readonly keySchema: KeySchema; readonly projection: string }>>;
  /** The stream's view type, or null without a stream. */
  readonly stream: string | null;
  /** The time-to-live attribute, or null. */
  readonly timeToLive: string | null;
}

/** A bucket's or a queue's data-bearing shape: its physical name (null when CloudFormation names it). */
export interface StatefulStore {
  readonly kind: 'bucket' | 'queue';
  readonly name: string | null;
  /** A FIFO queue (a queue cannot change between FIFO and standard in place). */
  readonly fifo?: boolean;
}

/** Every resource that holds data, by logical id. */
export type StatefulManifest = Readonly<Record<string, StatefulTable | StatefulStore>>;

/** A synthesized template, as far as this reads it. */
export interface TemplateResources {
  readonly Resources: Readonly<
    Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }>
  >;
}

interface CfnKey {
  AttributeName: string;
  KeyType: string;
}
interface CfnIndex {
  IndexName: string;
  KeySchema: CfnKey[];
  Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] };
}

/** A template value that is a plain string, else null (a token such as `{Ref: …}` is not a fixed name). */
const literal = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function tableOf(properties: Record<string, unknown>): StatefulTable {
  const types = new Map(
    ((properties.AttributeDefinitions ?? []) as { AttributeName: string; AttributeType: string }[]).map(
      (definition) => [definition.AttributeName, definition.AttributeType],
    ),
  );
  const keys = (schema: CfnKey[]): KeySchema =>
    schema.map((key) => `${key.AttributeName}:${key.KeyType}:${types.get(key.AttributeName) ?? '?'}`);
  const indexes = Object.fromEntries(
    ((properties.GlobalSecondaryIndexes ?? []) as CfnIndex[]).map((index) => {
      const type = index.Projection?.ProjectionType ?? 'ALL';
      const attributes = index.Projection?.NonKeyAttributes ?? [];
      return [
        index.IndexName,
        {
          keySchema: keys(index.KeySchema),
          projection: attributes.length > 0 ? `${type} ${attributes.join(',')}` : type,
        },
      ];
    }),
  );
  const stream = properties.StreamSpecification as { StreamViewType?: string } | undefined;
  const ttl = properties.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
  return {
    kind: 'table',
    tableName: literal(properties.TableName),
    keySchema: keys((properties.KeySchema ?? []) as CfnKey[]),
    indexes,
    stream: stream?.StreamViewType ?? null,
    timeToLive: ttl?.Enabled ? (ttl.AttributeName ?? null) : null,
  };
}

/** The resources of a template that hold data, in the manifest's shape. */
export function statefulResources(template: TemplateResources): StatefulManifest {
  const manifest: Record<string, StatefulTable | StatefulStore> = {};
  for (const [id, resource] of Object.entries(template.Resources)) {
    const properties = resource.Properties ?? {};
    if (resource.Type === 'AWS::DynamoDB::Table') manifest[id] = tableOf(properties);
    if (resource.Type === 'AWS::S3::Bucket')
      manifest[id] = { kind: 'bucket', name: literal(properties.BucketName) };
    if (resource.Type === 'AWS::SQS::Queue') {
      manifest[id] = {
        kind: 'queue',
        name: literal(properties.QueueName),
        fifo: properties.FifoQueue === true,
      };
    }
  }
  return Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const REPLACED = (kind: string) =>
  `a deploy would REPLACE it: a new, empty ${kind}, the old one's data left behind (retained, no longer the stack's)`;

/** What a deploy would do to one table, changed from `was` to `now`. */
function tableChanges(id: string, was: StatefulTable, now: StatefulTable): string[] {
  if (!same(was.keySchema, now.keySchema)) {
    return [
      `${id} (table): its key schema changes (${was.keySchema.join(' ')} → ${now.keySchema.join(' ')}): ${REPLACED('table')}.`,
    ];
  }
  if (was.tableName !== now.tableName) {
    return [`${id} (table): its name changes (${was.tableName} → ${now.tableName}): ${REPLACED('table')}.`];
  }
  const changes: string[] = [];
  const names = new Set([...Object.keys(was.indexes), ...Object.keys(now.indexes)]);
  let indexOperations = 0;
  for (const name of [...names].sort()) {
    const before = was.indexes[name];
    const after = now.indexes[name];
    if (before && !after) {
      indexOperations += 1;
      changes.push(
        `${id} (table): index ${name} is removed: a deploy deletes it — every reader must have moved off it in an earlier release.`,
      );
    } else if (!before && after) {
      indexOperations += 1;
      changes.push(
        `${id} (table): index ${name} is added (${after.keySchema.join(' ')}, ${after.projection}): a deploy adds it in place, and the items already stored need the attributes it is keyed by (a backfill).`,
      );
    } else if (before && after && !same(before, after)) {
      indexOperations += 2;
      changes.push(
        `${id} (table): index ${name} changes its ${same(before.keySchema, after.keySchema) ? 'projection' : 'key schema'} (${before.keySchema.join(' ')}, ${before.projection} → ${after.keySchema.join(' ')}, ${after.projection}): an index cannot change in place — add a new index beside it, move the readers, drop the old one in a later release.`,
      );
    }
  }
  if (indexOperations > 1) {
    changes.push(
      `${id} (table): ${indexOperations} index operations in one deploy: CloudFormation adds or deletes one global secondary index per update — one per release.`,
    );
  }
  if (was.stream !== now.stream) {
    changes.push(
      `${id} (table): its stream changes (${was.stream} → ${now.stream}): updated in place, but the stream is a new one — records not yet read by the webhooks are lost.`,
    );
  }
  if (was.timeToLive !== now.timeToLive) {
    changes.push(
      `${id} (table): its time to live changes (${was.timeToLive} → ${now.timeToLive}): updated in place (DynamoDB allows one change of it an hour).`,
    );
  }
  return changes;
}

/**
 * The differences between the committed manifest and a template's stateful resources, one sentence each saying what
 * a deploy would do to the data (replace, update in place, add or drop an index); none when they are equal.
 */
export function statefulChanges(committed: StatefulManifest, synthesized: StatefulManifest): string[] {
  const changes: string[] = [];
  for (const [id, was] of Object.entries(committed)) {
    const now = synthesized[id];
    if (!now) {
      changes.push(
        `${id} (${was.kind}) is gone from the template: a deploy would remove it from the stack (a retained resource is orphaned with its data); if its construct was renamed or moved, the new logical id is a new, empty ${was.kind}.`,
      );
    } else if (was.kind !== now.kind) {
      changes.push(`${id} changes from a ${was.kind} to a ${now.kind}: ${REPLACED(was.kind)}.`);
    } else if (was.kind === 'table') {
      changes.push(...tableChanges(id, was, now as StatefulTable));
    } else if (!same(was, now)) {
      changes.push(
        `${id} (${was.kind}): its name or type changes (${JSON.stringify(was)} → ${JSON.stringify(now)}): ${REPLACED(was.kind)}.`,
      );
    }
  }
  for (const [id, now] of Object.entries(synthesized)) {
    if (!committed[id]) changes.push(`${id} (${now.kind}) is new: a deploy creates it, empty.`);
  }
  return changes;
}
