import { describe, expect, it } from '@jest/globals';
import { describeError } from '../../../../../lib/ops/cli/program';
import { lineRanges, reportLines } from '../../../../../lib/ops/cli/vacancy-commands';
import { UsageError, UserError } from '../../../../../lib/ops/errors';

describe('the ops CLI output', () => {
  it('says what went wrong in one line, never with the raw message of AWS', () => {
    const aws = (
      name: string,
      fault: 'client' | 'server',
      message = 'One or more parameter values were invalid: secret detail',
    ) => Object.assign(new Error(message), { name, $fault: fault, $metadata: {} });
    const message = (error: unknown) => describeError(error, undefined).message;
    expect(describeError(new UserError('vendor "x" does not exist.'), undefined)).toEqual({
      message: 'vendor "x" does not exist.',
      exitCode: 1,
    });
    expect(describeError(new UsageError('no target.', 'give --endpoint.'), undefined)).toEqual({
      message: 'no target.',
      hint: 'give --endpoint.',
      exitCode: 2,
    });
    expect(message(aws('ValidationException', 'client'))).toBe(
      'AWS refused the request (ValidationException).',
    );
    expect(message(aws('ProvisionedThroughputExceededException', 'client'))).toBe(
      'AWS is throttling or unavailable (ProvisionedThroughputExceededException): try again.',
    );
    expect(message(aws('InternalServerError', 'server'))).toMatch(/^AWS is throttling or unavailable/);
    expect(message(aws('AccessDeniedException', 'client'))).toBe(
      'AWS refused these credentials (AccessDeniedException): they may not do this, or have expired.',
    );
    expect(
      message(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
    ).toBe('cannot reach AWS (ECONNREFUSED).');
    expect(
      message(Object.assign(new Error('Could not load credentials'), { name: 'CredentialsProviderError' })),
    ).toBe(
      'no AWS credentials found: configure a profile or environment credentials, or use --endpoint for a local engine.',
    );
    for (const error of [aws('ValidationException', 'client'), new TypeError('x is undefined at line 3')]) {
      expect(message(error)).not.toMatch(/secret detail|line 3/);
    }
  });

  it('shortens runs of line numbers', () => {
    expect(lineRanges([])).toBe('');
    expect(lineRanges([3])).toBe('3');
    expect(lineRanges([1, 2, 3, 5, 7, 8, 10])).toBe('1-3, 5, 7-8, 10');
  });

  it('reports an interrupted import with what was written, what was not, and what to do', () => {
    expect(
      reportLines({
        imported: 10,
        unchanged: 2,
        rejected: [{ line: 4, reasons: ['type must be one of 1, 2, 3, 4'] }],
        warnings: [],
        notWritten: [11, 12, 13, 20],
        interrupted: 'DynamoDB failed (InternalServerError); nothing more was written',
        dryRun: false,
        summaryWrites: 3,
        readUnits: 1,
        writeUnits: 10,
      }),
    ).toEqual([
      'line 4: type must be one of 1, 2, 3, 4',
      'interrupted: DynamoDB failed (InternalServerError); nothing more was written.',
      'not written: 4 records, lines 11-13, 20.',
      'Run the same file again to complete the import.',
      'imported 10, rejected 1, unchanged 2, not written 4',
    ]);
  });

  it('prints warnings in line order among the rejections, and counts them; they are not rejections', () => {
    const reason = 'pay not stated: EU Directive 2023/970 Art. 5';
    expect(
      reportLines({
        imported: 3,
        unchanged: 0,
        rejected: [{ line: 2, reasons: ['type must be one of 1, 2, 3, 4'] }],
        warnings: [
          { line: 1, reason },
          { line: 4, reason },
        ],
        notWritten: [],
        dryRun: false,
        summaryWrites: 1,
        readUnits: 1,
        writeUnits: 3,
      }),
    ).toEqual([
      `line 1: warning: ${reason}`,
      'line 2: type must be one of 1, 2, 3, 4',
      `line 4: warning: ${reason}`,
      'imported 3, rejected 1, unchanged 0, warnings 2',
    ]);
  });
});
