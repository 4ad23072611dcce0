/**
 * The guards on AWS (docs/design.md#a-kill-timeline): a summary lease's guard is a one-time schedule named by vendor
 * and second — the same guard asked twice is one schedule — that invokes the expiry function for that vendor and
 * deletes itself; disarming deletes it, and one gone already is fine. A webhook lease's guard is deleted the same way.
 */
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-scheduler';
import { describe, expect, it } from '@jest/globals';
import {
  isRecoverSummaryEvent,
  summaryGuardsOf,
} from '../../../../../lambda/domain/store/summary-guard-schedules';
import { cancelWake } from '../../../../../lambda/functions/webhooks/schedules';

/** A scheduler client of the test's: it records each command, and answers as `answer` says. */
function fakeScheduler(answer: (command: unknown) => unknown = () => ({})) {
  const sent: unknown[] = [];
  return {
    sent,
    client: {
      send: async (command: unknown) => {
        sent.push(command);
        const result = answer(command);
        if (result instanceof Error) throw result;
        return result;
      },
    } as never,
  };
}

const ENV = {
  SUMMARY_GUARD_GROUP: 'Api-summary-guards',
  SUMMARY_GUARD_ROLE_ARN: 'arn:aws:iam::123456789012:role/guards',
  SUMMARY_GUARD_FUNCTION_ARN: 'arn:aws:lambda:eu-central-1:123456789012:function:expiry',
};

describe('the guards as one-time schedules', () => {
  it('are none without the stack’s variables (locally)', () => {
    expect(summaryGuardsOf({}, fakeScheduler().client)).toBeUndefined();
  });

  it('arm a schedule that recovers the one vendor at the second asked, and disarm it', async () => {
    const scheduler = fakeScheduler();
    const guard = summaryGuardsOf(ENV, scheduler.client);
    const at = Date.UTC(2026, 10, 26, 13, 0, 0, 250);
    await guard?.arm('vendor with spaces/and slashes', at);
    await guard?.disarm('vendor with spaces/and slashes', at);
    const [create, remove] = scheduler.sent as [CreateScheduleCommand, DeleteScheduleCommand];
    expect(create).toBeInstanceOf(CreateScheduleCommand);
    expect(create.input).toMatchObject({
      GroupName: 'Api-summary-guards',
      ScheduleExpression: 'at(2026-11-26T13:00:01)',
      ScheduleExpressionTimezone: 'UTC',
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: ENV.SUMMARY_GUARD_FUNCTION_ARN, RoleArn: ENV.SUMMARY_GUARD_ROLE_ARN },
    });
    expect(create.input.Name).toMatch(/^[0-9A-Za-z_.-]{1,64}$/);
    const input = JSON.parse(create.input.Target?.Input ?? '');
    expect(isRecoverSummaryEvent(input) && input.recoverSummary).toBe('vendor with spaces/and slashes');
    expect(remove).toBeInstanceOf(DeleteScheduleCommand);
    expect(remove.input).toEqual({ Name: create.input.Name, GroupName: 'Api-summary-guards' });
  });

  it('take the same guard asked twice as one, and one gone already as deleted', async () => {
    const scheduler = fakeScheduler((command) =>
      command instanceof CreateScheduleCommand
        ? new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} })
        : new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }),
    );
    const guard = summaryGuardsOf(ENV, scheduler.client, 'ignored');
    await expect(guard?.arm('acme', 1_000)).resolves.toBeUndefined();
    await expect(guard?.disarm('acme', 1_000)).resolves.toBeUndefined();
    await expect(
      cancelWake({ client: scheduler.client, group: 'Api-webhooks' }, { endpointId: 'ep_x' }, 1_000),
    ).resolves.toBeUndefined();
  });

  it('name the running function when the environment cannot (the expiry function itself)', async () => {
    const scheduler = fakeScheduler();
    const { SUMMARY_GUARD_FUNCTION_ARN: _, ...own } = ENV;
    await summaryGuardsOf(own, scheduler.client, 'arn:aws:lambda:eu-central-1:1:function:self')?.arm(
      'acme',
      0,
    );
    expect((scheduler.sent[0] as CreateScheduleCommand).input.Target?.Arn).toBe(
      'arn:aws:lambda:eu-central-1:1:function:self',
    );
  });
});
