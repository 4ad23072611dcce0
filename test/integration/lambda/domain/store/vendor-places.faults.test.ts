/**
 * A vendor's places under faults (docs/design.md#webhooks), on the embedded engine: a place left by an add or remove
 * killed between its two writes is freed once it is old, and only then; an add whose place was freed under it writes
 * again in a new one; a remove frees the place after deleting the thing; the first add of a vendor counts what it
 * already had.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ABANDONED_PLACE_MS,
  type PlacedKind,
  VendorPlaces,
} from '../../../../../lambda/domain/store/vendor-places';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';

const THINGS: PlacedKind = {
  places: 'thing-places',
  kind: 'thing',
  idAttribute: 'thingId',
  itemKey: (id) => ({ pk: `thing#${id}` }),
  max: 2,
};

describe("a vendor's places under faults", () => {
  let tables: TestTables;
  let places: VendorPlaces;
  let counter = 0;
  const newId = () => {
    counter += 1;
    return `thing-${counter}`;
  };

  /** A thing as an add makes it (the places write it, kind and key added). */
  const thing = (vendorId: string) => (thingId: string) => ({ thingId, vendorId, createdAt: Date.now() });
  const add = (vendorId: string, on = places) => on.add(vendorId, newId, thing(vendorId), Date.now);
  const placesOf = async (vendorId: string) =>
    (
      await tables.documentClient.send(
        new GetCommand({
          TableName: tables.names.vendors,
          Key: { pk: `${THINGS.places}#${vendorId}` },
          ConsistentRead: true,
        }),
      )
    ).Item?.places as Record<string, number> | undefined;

  beforeAll(async () => {
    tables = await createTestTables();
    places = new VendorPlaces(tables.documentClient, tables.names.vendors, THINGS);
  });
  afterAll(async () => tables?.drop());

  it('frees a place without its thing once it is older than a minute, and not before', async () => {
    // An add killed after taking its place: a place, and no thing.
    expect(await places.take('killed', 'lost-1', () => Date.now() - ABANDONED_PLACE_MS - 1_000)).toBe(true);
    expect(await places.take('killed', 'lost-2', () => Date.now() - 5_000)).toBe(true);
    const added = await add('killed');
    expect(added).toEqual({ added: expect.objectContaining({ thingId: expect.stringMatching(/^thing-/) }) });
    expect(Object.keys((await placesOf('killed')) ?? {}).sort()).toEqual(
      ['lost-2', (added as { added: { thingId: string } }).added.thingId].sort(),
    );
    // The young one stays: its add may still be writing.
    expect(await add('killed')).toEqual({ refused: 'full' });
  });

  it('writes again in a new place when its place was freed while it wrote', async () => {
    // An add that pauses past the minute between taking its place and writing its thing: meanwhile another add found
    // the place abandoned and freed it. Played by freeing the place just before the add's first write reaches the table.
    const client = createDocumentClient(createDynamoDBClient({ endpoint: tables.endpoint }));
    const written: string[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        // A put of a thing's item (the document client's commands run as the client's own: `PutItemCommand`).
        const thingId = (args.input as { Item?: { thingId?: string } }).Item?.thingId;
        if (context.commandName === 'PutItemCommand' && thingId) {
          written.push(thingId);
          if (written.length === 1) await places.free('slow', thingId);
        }
        return next(args);
      },
      { step: 'initialize' },
    );
    const placed = await add('slow', new VendorPlaces(client, tables.names.vendors, THINGS));
    client.destroy();
    expect(written).toHaveLength(2);
    expect(placed).toEqual({ added: expect.objectContaining({ thingId: written[1] }) });
    expect(Object.keys((await placesOf('slow')) ?? {})).toEqual([written[1]]);
    // The first thing, whose place was lost, was deleted.
    const { Item } = await tables.documentClient.send(
      new GetCommand({ TableName: tables.names.vendors, Key: THINGS.itemKey(written[0] ?? '') }),
    );
    expect(Item).toBeUndefined();
  });

  it('removes a thing, then frees its place', async () => {
    const placed = await add('remover');
    const { thingId } = (placed as { added: { thingId: string } }).added;
    expect(await places.remove(thingId)).toMatchObject({ kind: 'thing', thingId, vendorId: 'remover' });
    expect(await placesOf('remover')).toEqual({});
    expect(await places.remove(thingId)).toBeUndefined();
  });

  it("counts a vendor's things made before places were kept at its first add", async () => {
    await tables.documentClient.send(
      new PutCommand({
        TableName: tables.names.vendors,
        Item: { ...THINGS.itemKey('made-before'), kind: THINGS.kind, ...thing('older')('made-before') },
      }),
    );
    expect(await add('older')).toEqual({ added: expect.objectContaining({ vendorId: 'older' }) });
    expect(Object.keys((await placesOf('older')) ?? {})).toContain('made-before');
    expect(await add('older')).toEqual({ refused: 'full' });
  });
});
