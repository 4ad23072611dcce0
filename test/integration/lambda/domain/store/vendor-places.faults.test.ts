/**
 * A vendor's places under faults (docs/design.md#webhooks), on the embedded engine: a place left by an add or remove
 * killed between its two writes is freed once it is old, and only then; an add whose place was freed under it writes
 * again in a new one; the first add of a vendor counts what it already had.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ABANDONED_PLACE_MS,
  type PlacedKind,
  VendorPlaces,
} from '../../../../../lambda/domain/store/vendor-places';
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

  const write = (vendorId: string) => async (thingId: string) => {
    await tables.documentClient.send(
      new PutCommand({
        TableName: tables.names.vendors,
        Item: { ...THINGS.itemKey(thingId), kind: THINGS.kind, thingId, vendorId, createdAt: Date.now() },
      }),
    );
    return thingId;
  };
  const undo = async (thingId: string) => {
    await tables.documentClient.send(
      new DeleteCommand({ TableName: tables.names.vendors, Key: THINGS.itemKey(thingId) }),
    );
  };
  const add = (vendorId: string) => places.add(vendorId, newId, write(vendorId), undo, Date.now);
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
    expect(added).toEqual({ added: expect.stringMatching(/^thing-/) });
    expect(Object.keys((await placesOf('killed')) ?? {}).sort()).toEqual(
      ['lost-2', (added as { added: string }).added].sort(),
    );
    // The young one stays: its add may still be writing.
    expect(await add('killed')).toEqual({ refused: 'full' });
  });

  it('writes again in a new place when its place was freed while it wrote', async () => {
    let freedOnce = false;
    const placed = await places.add(
      'slow',
      newId,
      async (thingId) => {
        await write('slow')(thingId);
        if (!freedOnce) {
          // Another add found this place abandoned (this one paused past the minute) and freed it.
          freedOnce = true;
          await places.free('slow', thingId);
        }
        return thingId;
      },
      undo,
      Date.now,
    );
    expect('added' in placed).toBe(true);
    const kept = Object.keys((await placesOf('slow')) ?? {});
    expect(kept).toEqual([(placed as { added: string }).added]);
    // The first thing, whose place was lost, was deleted.
    const { Item } = await tables.documentClient.send(
      new GetCommand({ TableName: tables.names.vendors, Key: THINGS.itemKey(`thing-${counter - 1}`) }),
    );
    expect(Item).toBeUndefined();
  });

  it("counts a vendor's things made before places were kept at its first add", async () => {
    await write('older')('made-before');
    expect(await add('older')).toEqual({ added: expect.any(String) });
    expect(Object.keys((await placesOf('older')) ?? {})).toContain('made-before');
    expect(await add('older')).toEqual({ refused: 'full' });
  });
});
