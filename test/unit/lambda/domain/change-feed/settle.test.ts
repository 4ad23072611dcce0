/**
 * The change feed's settle rule (`lambda/domain/change-feed/settle.ts`, docs/design.md#incremental-sync): where a sync's
 * snapshot and a webhook event end — the settle window back, on a whole second, and never after the second before
 * the earliest lease began; never before 0, which a change key can hold.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { settledUntil } from '../../../../../lambda/domain/change-feed/settle';
import { changeKey, LAST_ID } from '../../../../../lambda/domain/schema/change-index';
import {
  leaseAttribute,
  leaseStartAttribute,
  parseSummary,
} from '../../../../../lambda/domain/schema/summary';

const SETTLE_MS = 5_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0, 400);

/** A summary with leases: each `[writer, start]`, a start of undefined being a recount's (it records none). */
function summaryWith(leases: readonly (readonly [string, number | undefined])[]) {
  return parseSummary(
    Object.fromEntries(
      leases.flatMap(([writer, start]) => [
        [leaseAttribute(writer), NOW + 30_000],
        ...(start === undefined ? [] : [[leaseStartAttribute(writer), start]]),
      ]),
    ),
  );
}

describe('settledUntil', () => {
  it('is the settle window back, rounded up to a whole second, with no lease', () => {
    expect(settledUntil(NOW, undefined, SETTLE_MS)).toBe(Date.UTC(2026, 10, 26, 11, 59, 56));
    expect(settledUntil(NOW, summaryWith([]), SETTLE_MS)).toBe(Date.UTC(2026, 10, 26, 11, 59, 56));
  });

  it("is the second before a writer's lease began, when that is earlier", () => {
    const began = NOW - 1_400;
    expect(settledUntil(NOW, summaryWith([['w', began]]), SETTLE_MS)).toBe(
      Date.UTC(2026, 10, 26, 11, 59, 57) - 1_000,
    );
  });

  it("holds everything back while a recount's lease (no start) is there, without going before 0", () => {
    const until = settledUntil(
      NOW,
      summaryWith([
        ['recount-1', undefined],
        ['w', NOW - 60_000],
      ]),
      SETTLE_MS,
    );
    expect(until).toBe(0);
    // A key the change index can hold, before every stamp a writer makes.
    expect(
      Buffer.compare(changeKey(until, LAST_ID), changeKey(Date.UTC(1970, 0, 1, 0, 0, 1), 0)),
    ).toBeLessThan(0);
  });

  it('is never after now less the window, after a lease start, or before 0', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 47 }),
        fc.array(
          fc.tuple(
            fc.string({ minLength: 1, maxLength: 8 }),
            fc.option(fc.integer({ min: 0, max: 2 ** 47 }), { nil: undefined }),
          ),
        ),
        fc.integer({ min: 1_000, max: 300_000 }),
        (now, leases, settleMs) => {
          const summary = summaryWith(leases);
          const until = settledUntil(now, summary, settleMs);
          expect(until).toBeGreaterThanOrEqual(0);
          expect(until % 1_000).toBe(0);
          expect(until).toBeLessThanOrEqual(Math.max(0, now - settleMs + 999));
          for (const writer of summary.leases.keys())
            expect(until).toBeLessThanOrEqual(Math.max(0, (summary.leaseStarts.get(writer) ?? 0) - 1_000));
          // A key the index can hold: no range past every key.
          expect(() => changeKey(until, LAST_ID)).not.toThrow();
        },
      ),
    );
  });
});
