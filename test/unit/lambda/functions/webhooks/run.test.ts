/**
 * One run of the webhooks function (lambda/functions/webhooks/run.ts), with a dispatcher of the test's: a stream batch
 * dispatches each vendor once and reports a failed vendor's first record alone (the stream retries from it);
 * wake-ups due within the run are waited for in it, later ones scheduled.
 */
import { describe, expect, it } from '@jest/globals';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { Dispatcher, DispatchReport } from '../../../../../lambda/functions/webhooks/dispatcher';
import { runWebhooks } from '../../../../../lambda/functions/webhooks/run';

const NONE: DispatchReport = { delivered: 0, failed: 0, disabled: 0 };

function record(sequence: string, vendor: string) {
  return { dynamodb: { SequenceNumber: sequence, NewImage: { v: { S: vendor } } } };
}

describe('a run of the webhooks function', () => {
  it("dispatches each vendor of a stream batch once, and reports only a failed vendor's first record", async () => {
    const dispatched: string[] = [];
    const dispatcher: Dispatcher = {
      async dispatchVendor(vendorId) {
        dispatched.push(vendorId);
        if (vendorId === 'globex') throw new Error('DynamoDB failing');
        return { delivered: 1, failed: 0, disabled: 0 };
      },
      dispatchEndpoint: async () => NONE,
      dispatchAll: async () => NONE,
    };
    const event = {
      Records: [record('1', 'acme'), record('2', 'globex'), record('3', 'acme'), record('4', 'globex')],
    } as unknown as DynamoDBStreamEvent;
    const { report, response } = await runWebhooks(event, {
      dispatcher,
      wakes: new Map(),
      timeLeft: () => 60_000,
      sleep: async () => undefined,
      schedule: async () => undefined,
    });
    expect(dispatched).toEqual(['acme', 'globex']);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(report).toEqual({ delivered: 1, failed: 0, disabled: 0 });
  });

  it('waits in the run for a wake-up it has time for, and schedules the others', async () => {
    let now = 1_000_000;
    const slept: number[] = [];
    const scheduled: [string, number][] = [];
    const woken: string[] = [];
    const wakes = new Map<string, number>();
    const dispatcher: Dispatcher = {
      async dispatchEndpoint(endpointId) {
        woken.push(endpointId);
        // The first asks for two wake-ups: one soon, one past the run's time.
        if (endpointId === 'ep_first') {
          wakes.set('ep_soon', now + 5_000);
          wakes.set('ep_late', now + 90_000);
        }
        return NONE;
      },
      dispatchVendor: async () => NONE,
      dispatchAll: async () => NONE,
    };
    await runWebhooks(
      { endpointId: 'ep_first' },
      {
        dispatcher,
        wakes,
        now: () => now,
        timeLeft: () => 30_000,
        sleep: async (ms) => {
          slept.push(ms);
          now += ms;
        },
        schedule: async (endpointId, at) => {
          scheduled.push([endpointId, at]);
        },
      },
    );
    expect(woken).toEqual(['ep_first', 'ep_soon']);
    expect(slept).toEqual([5_000]);
    expect(scheduled).toEqual([['ep_late', 1_090_000]]);
    expect(wakes.size).toBe(0);
  });
});
