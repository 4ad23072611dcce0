import { describe, expect, it } from '@jest/globals';
import middy from '@middy/core';

describe('test runtime', () => {
  it('runs on Node.js 24, the major version of the Lambda runtime (nodejs24.x)', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });

  it('loads the ESM-only Middy 7 and runs a wrapped handler with its middleware', async () => {
    const calls: string[] = [];
    const handler = middy(async (event: { name: string }) => {
      calls.push('handler');
      return `hello ${event.name}`;
    }).use({
      before: async () => {
        calls.push('before');
      },
      after: async (request) => {
        calls.push('after');
        request.response = `${request.response}!`;
      },
    });

    await expect(handler({ name: 'vendor' }, {} as never)).resolves.toBe('hello vendor!');
    expect(calls).toEqual(['before', 'handler', 'after']);
  });
});
