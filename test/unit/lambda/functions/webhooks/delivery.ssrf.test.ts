/**
 * Where a webhook may go (docs/design.md#webhooks): refused at `add` when it is not https, or its host is an IP
 * literal outside the public internet; refused at delivery when the host resolves to such an address — any of its
 * addresses — so that nothing reaches the machine's own network or the cloud's metadata service.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { webhookUrlProblem } from '../../../../../lambda/domain/webhook-registry/endpoint';
import { NonPublicAddressError } from '../../../../../lambda/domain/webhook-registry/errors';
import {
  checkedAddress,
  isPublicAddress,
} from '../../../../../lambda/domain/webhook-registry/public-address';
import { attemptDelivery } from '../../../../../lambda/functions/webhooks/delivery';

const ON_AWS = { allowLoopbackHttp: false };
const LOCAL = { allowLoopbackHttp: true };

describe('webhook URLs at add', () => {
  it.each([
    ['not a URL', 'receiver.example.com/hook'],
    ['http on AWS', 'http://receiver.example.com/hook'],
    ['ftp', 'ftp://receiver.example.com/hook'],
    ['private 10/8', 'https://10.1.2.3/hook'],
    ['private 172.16/12', 'https://172.20.0.1/hook'],
    ['private 192.168/16', 'https://192.168.1.10/hook'],
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback name', 'https://localhost/hook'],
    ['link-local', 'https://169.254.10.10/hook'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['carrier-grade NAT', 'https://100.64.0.1/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['IPv6 unique local', 'https://[fd00::1]/hook'],
    ['IPv6 link-local', 'https://[fe80::1]/hook'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/hook'],
    ['a decimal IPv4', 'https://2130706433/hook'],
    ['credentials', 'https://user:secret@receiver.example.com/hook'],
    ['loopback http on AWS', 'http://127.0.0.1:8000/hook'],
    ['IPv4-compatible loopback, dotted', 'https://[::127.0.0.1]/hook'],
    ['IPv4-compatible loopback', 'https://[::7f00:1]/hook'],
    ['IPv4-compatible private', 'https://[::a00:1]/hook'],
    ['IPv4-translated loopback', 'https://[::ffff:0:7f00:1]/hook'],
    ['NAT64 of the metadata service', 'https://[64:ff9b::a9fe:a9fe]/hook'],
    ['6to4 of a private address', 'https://[2002:c0a8:101::1]/hook'],
    ['Teredo of loopback', 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook'],
    ['IPv6 site-local', 'https://[fec0::1]/hook'],
    ['IPv6 documentation 3fff::/20', 'https://[3fff::1]/hook'],
    ['SRv6 SIDs 5f00::/16', 'https://[5f00::1]/hook'],
    ['IPv6 outside 2000::/3', 'https://[dead:beef::1]/hook'],
    ['AS112', 'https://192.175.48.6/hook'],
    ['localhost with a trailing dot', 'https://localhost./hook'],
    ['a name under localhost, with a trailing dot', 'https://foo.localhost./hook'],
    ['LOCALHOST', 'https://LOCALHOST/hook'],
    ['port 22', 'https://receiver.example.com:22/hook'],
    ['port 80', 'https://receiver.example.com:80/hook'],
    ['port 1023', 'https://receiver.example.com:1023/hook'],
    ['2,049 characters', `https://receiver.example.com/${'a'.repeat(2049 - 29)}`],
    ['100,000 characters', `https://receiver.example.com/${'a'.repeat(100_000)}`],
    ['over 2,048 characters once encoded', `https://receiver.example.com/${'é'.repeat(1000)}`],
  ])('refuses %s', (_what, url) => {
    expect(webhookUrlProblem(url, ON_AWS)).toEqual(expect.any(String));
  });

  it('says why in one line: the address, its block, and the IPv4 address it carries', () => {
    expect(webhookUrlProblem('https://[::127.0.0.1]/', ON_AWS)).toBe(
      '[::7f00:1] is not a public address: deprecated IPv4-compatible (::/96) carrying 127.0.0.1: loopback (127.0.0.0/8)',
    );
    expect(webhookUrlProblem('https://foo.localhost./', ON_AWS)).toBe(
      'foo.localhost. is not a public address: a localhost name',
    );
    expect(webhookUrlProblem('https://receiver.example.com:22/', ON_AWS)).toBe(
      'port 22 is not allowed: 443 or 1024–65535 only',
    );
    expect(webhookUrlProblem(`https://receiver.example.com/${'a'.repeat(100_000)}`, ON_AWS)).toBe(
      'longer than 2,048 characters (100,029)',
    );
  });

  it.each([
    ['port 443, written out', 'https://receiver.example.com:443/hook'],
    ['port 1024', 'https://receiver.example.com:1024/hook'],
    ['port 65535', 'https://receiver.example.com:65535/hook'],
    ['2,048 characters', `https://receiver.example.com/${'a'.repeat(2048 - 29)}`],
    ['a name that only starts with localhost', 'https://localhost.example.com/hook'],
    ['an IPv4-mapped public address', 'https://[::ffff:8.8.8.8]/hook'],
    ['NAT64 of a public address', 'https://[64:ff9b::808:808]/hook'],
  ])('takes %s', (_what, url) => {
    expect(webhookUrlProblem(url, ON_AWS)).toBeUndefined();
  });

  it('takes https to a public name or address, and loopback http only locally', () => {
    expect(webhookUrlProblem('https://receiver.example.com/hooks/vacancies?x=1', ON_AWS)).toBeUndefined();
    expect(webhookUrlProblem('https://93.184.215.14/hook', ON_AWS)).toBeUndefined();
    expect(
      webhookUrlProblem('https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', ON_AWS),
    ).toBeUndefined();
    expect(webhookUrlProblem('http://127.0.0.1:8000/hook', LOCAL)).toBeUndefined();
    expect(webhookUrlProblem('http://localhost:8000/hook', LOCAL)).toBeUndefined();
    // Not another loopback address, nor a port-less one, even locally.
    expect(webhookUrlProblem('http://127.0.0.2:8000/hook', LOCAL)).toEqual(expect.any(String));
    expect(webhookUrlProblem('http://10.0.0.1:8000/hook', LOCAL)).toEqual(expect.any(String));
  });

  it('knows public addresses from the rest', () => {
    for (const address of ['8.8.8.8', '93.184.215.14', '2606:4700::1111'])
      expect(isPublicAddress(address)).toBe(true);
    for (const address of [
      '10.0.0.1',
      '127.1.2.3',
      '169.254.169.254',
      '::1',
      'fc00::1',
      '64:ff9b::a00:1',
      'not-an-ip',
    ])
      expect(isPublicAddress(address)).toBe(false);
  });
});

describe('webhook hosts at delivery', () => {
  it('refuses a host any of whose addresses is not public, and connects to none of them', async () => {
    let connections = 0;
    const trap = createServer((_request, response) => {
      connections += 1;
      response.end();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const { port } = trap.address() as AddressInfo;
    try {
      for (const addresses of [
        [{ address: '127.0.0.1', family: 4 }],
        [{ address: '10.0.0.7', family: 4 }],
        [
          { address: '93.184.215.14', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
        [{ address: '::1', family: 6 }],
        // IPv4-compatible and IPv4-translated addresses, written with their IPv4 address dotted, and not.
        [{ address: '::127.0.0.1', family: 6 }],
        [{ address: '::ffff:0:127.0.0.1', family: 6 }],
        [{ address: '::7f00:1', family: 6 }],
        [{ address: '::ffff:127.0.0.1', family: 6 }],
        [{ address: '64:ff9b::a9fe:a9fe', family: 6 }],
        [{ address: '2002:7f00:1::1', family: 6 }],
        [{ address: 'fec0::1', family: 6 }],
        [{ address: '3fff::1', family: 6 }],
        [{ address: '5f00::1', family: 6 }],
        [
          { address: '2606:4700::1111', family: 6 },
          { address: '::a00:1', family: 6 },
        ],
      ]) {
        const result = await attemptDelivery(`https://rebind.example:${port}/hook`, {}, '{}', {
          ...ON_AWS,
          resolve: async () => addresses,
        });
        expect(result).toMatchObject({ ok: false, outcome: expect.stringMatching(/^refused: /) });
      }
      expect(connections).toBe(0);
    } finally {
      trap.close();
    }
  });

  it('refuses, at every attempt, a URL the rule refuses, whatever was stored — and looks nothing up', async () => {
    let lookups = 0;
    const resolve = async () => {
      lookups += 1;
      return [{ address: '93.184.215.14', family: 4 }];
    };
    for (const url of [
      'https://[::127.0.0.1]:8443/hook',
      'https://[fec0::1]/hook',
      'https://localhost.:8443/hook',
      'https://foo.localhost./hook',
      'https://receiver.example.com:22/hook',
      `https://receiver.example.com/${'a'.repeat(3000)}`,
    ]) {
      const result = await attemptDelivery(url, {}, '{}', { ...ON_AWS, resolve });
      expect([url.slice(0, 60), result]).toEqual([
        url.slice(0, 60),
        { ok: false, outcome: expect.stringMatching(/^refused: /) },
      ]);
    }
    expect(lookups).toBe(0);
  });

  it('names the address a host resolved to, and its block', async () => {
    await expect(
      checkedAddress('rebind.example', async () => [{ address: '::127.0.0.1', family: 6 }]),
    ).rejects.toThrow(
      'rebind.example resolves to ::127.0.0.1, not a public address: deprecated IPv4-compatible (::/96) carrying 127.0.0.1: loopback (127.0.0.0/8)',
    );
  });

  it('resolves once, and gives the address it checked', async () => {
    let lookups = 0;
    const resolve = async () => {
      lookups += 1;
      return [{ address: '93.184.215.14', family: 4 }];
    };
    expect(await checkedAddress('receiver.example', resolve)).toEqual({
      address: '93.184.215.14',
      family: 4,
    });
    expect(lookups).toBe(1);
    await expect(checkedAddress('nowhere.example', async () => [])).rejects.toBeInstanceOf(
      NonPublicAddressError,
    );
  });

  it('does not follow a redirect: a 3xx is a failure', async () => {
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const { port } = redirecting.address() as AddressInfo;
    try {
      const result = await attemptDelivery(`http://127.0.0.1:${port}/hook`, {}, '{}', LOCAL);
      expect(result).toEqual({ ok: false, status: 307, outcome: '307' });
    } finally {
      redirecting.close();
    }
  });

  it('abandons an attempt that takes longer than its time', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const result = await attemptDelivery(`http://127.0.0.1:${port}/hook`, {}, '{}', {
        ...LOCAL,
        timeoutMs: 200,
      });
      expect(result).toEqual({ ok: false, outcome: 'timeout' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
