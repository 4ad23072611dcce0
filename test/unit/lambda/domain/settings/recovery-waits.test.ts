/**
 * The recovery waits (docs/operating.md#recovery-waits): what AWS needs by default; shorter only on an engine of one's
 * own, never below a second for the settle window; anything else refused in one line naming the variable and why.
 */
import { describe, expect, it } from '@jest/globals';
import { SettingError } from '../../../../../lambda/domain/settings/errors';
import { RECOVERY_WAITS, recoveryWaits } from '../../../../../lambda/domain/settings/recovery-waits';
import { SUMMARY_GUARD_GRACE_MS } from '../../../../../lambda/domain/store/summary-guard';

describe('the recovery waits', () => {
  it('are what AWS needs when nothing shortens them', () => {
    expect(recoveryWaits({})).toEqual({
      settleMs: 5_000,
      summaryLeaseMs: 30_000,
      lateWriteMs: 300_000,
      webhookLeaseMs: 30_000,
    });
  });

  it("bound a dead writer's hold within the 7 minutes promised, with a minute to spare for a schedule's lateness", () => {
    const { summaryLeaseMs, lateWriteMs, settleMs } = recoveryWaits({});
    const scheduleLatenessMs = 60_000;
    expect(
      summaryLeaseMs + lateWriteMs + SUMMARY_GUARD_GRACE_MS + settleMs + scheduleLatenessMs,
    ).toBeLessThan(7 * 60_000);
  });

  it('are refused below what AWS needs without a DynamoDB endpoint of its own: a deployment cannot shorten them', () => {
    for (const definition of Object.values(RECOVERY_WAITS)) {
      const env = { [definition.variable]: String(definition.awsMs - 1) };
      expect(() => recoveryWaits(env)).toThrow(SettingError);
      expect(() => recoveryWaits(env)).toThrow(
        new RegExp(`^${definition.variable} = "\\d+" is not allowed: .*on AWS: `),
      );
      // Longer is always fine.
      expect(recoveryWaits({ [definition.variable]: String(definition.awsMs + 1) })).toMatchObject({});
    }
  });

  it('are shortened on an engine of its own, the settle window to a second at least', () => {
    const local = { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' };
    expect(
      recoveryWaits({
        ...local,
        VVA_SETTLE_MS: '1000',
        VVA_SUMMARY_LEASE_MS: '1500',
        VVA_LATE_WRITE_MS: '1500',
        VVA_WEBHOOK_LEASE_MS: '400',
      }),
    ).toEqual({ settleMs: 1_000, summaryLeaseMs: 1_500, lateWriteMs: 1_500, webhookLeaseMs: 400 });
    expect(() => recoveryWaits({ ...local, VVA_SETTLE_MS: '500' })).toThrow(
      /VVA_SETTLE_MS = "500" is not allowed/,
    );
    expect(() => recoveryWaits({ ...local, VVA_LATE_WRITE_MS: 'soon' })).toThrow(SettingError);
  });
});
