/**
 * The public-address check's table, block by block (docs/design.md#ssrf): every block of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries, and the check's other blocks, each with an address inside it, its first and
 * last address, and its neighbours just outside — public, or where a neighbour falls into another block, that block
 * (said in ELSEWHERE). Then the IPv6 forms that carry an IPv4 address, for refused IPv4 addresses and public ones.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  type AddressRefusal,
  addressRefusal,
  describeRefusal,
  isPublicAddress,
  REFUSED_IPV4_BLOCKS,
  REFUSED_IPV6_BLOCKS,
} from '../../../../../lambda/domain/webhook-registry/public-address';

/** A block, an address inside, its first and last address, and its neighbours below and above (none at an end). */
type Row = readonly [
  block: string,
  inside: string,
  first: string,
  last: string,
  below?: string,
  above?: string,
];

const IPV4_ROWS: readonly Row[] = [
  ['0.0.0.0/8', '0.1.2.3', '0.0.0.0', '0.255.255.255', undefined, '1.0.0.0'],
  ['0.0.0.0/32', '0.0.0.0', '0.0.0.0', '0.0.0.0', undefined, '0.0.0.1'],
  ['10.0.0.0/8', '10.1.2.3', '10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
  ['100.64.0.0/10', '100.100.1.1', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
  ['127.0.0.0/8', '127.1.2.3', '127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
  ['169.254.0.0/16', '169.254.169.254', '169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
  ['172.16.0.0/12', '172.20.0.1', '172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
  ['192.0.0.0/24', '192.0.0.100', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
  ['192.0.0.0/29', '192.0.0.2', '192.0.0.0', '192.0.0.7', '191.255.255.255', '192.0.0.8'],
  ['192.0.0.8/32', '192.0.0.8', '192.0.0.8', '192.0.0.8', '192.0.0.7', '192.0.0.9'],
  ['192.0.0.9/32', '192.0.0.9', '192.0.0.9', '192.0.0.9', '192.0.0.8', '192.0.0.10'],
  ['192.0.0.10/32', '192.0.0.10', '192.0.0.10', '192.0.0.10', '192.0.0.9', '192.0.0.11'],
  ['192.0.0.170/32', '192.0.0.170', '192.0.0.170', '192.0.0.170', '192.0.0.169', '192.0.0.171'],
  ['192.0.0.171/32', '192.0.0.171', '192.0.0.171', '192.0.0.171', '192.0.0.170', '192.0.0.172'],
  ['192.0.2.0/24', '192.0.2.10', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
  ['192.31.196.0/24', '192.31.196.1', '192.31.196.0', '192.31.196.255', '192.31.195.255', '192.31.197.0'],
  ['192.52.193.0/24', '192.52.193.1', '192.52.193.0', '192.52.193.255', '192.52.192.255', '192.52.194.0'],
  ['192.88.99.0/24', '192.88.99.1', '192.88.99.0', '192.88.99.255', '192.88.98.255', '192.88.100.0'],
  ['192.88.99.2/32', '192.88.99.2', '192.88.99.2', '192.88.99.2', '192.88.99.1', '192.88.99.3'],
  ['192.168.0.0/16', '192.168.1.10', '192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
  ['192.175.48.0/24', '192.175.48.6', '192.175.48.0', '192.175.48.255', '192.175.47.255', '192.175.49.0'],
  ['198.18.0.0/15', '198.19.1.1', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
  ['198.51.100.0/24', '198.51.100.7', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
  ['203.0.113.0/24', '203.0.113.9', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
  ['240.0.0.0/4', '250.1.2.3', '240.0.0.0', '255.255.255.255', '239.255.255.255', undefined],
  [
    '255.255.255.255/32',
    '255.255.255.255',
    '255.255.255.255',
    '255.255.255.255',
    '255.255.255.254',
    undefined,
  ],
  ['224.0.0.0/4', '230.1.2.3', '224.0.0.0', '239.255.255.255', '223.255.255.255', '240.0.0.0'],
];

const ONES = 'ffff:ffff:ffff:ffff:ffff';
const IPV6_ROWS: readonly Row[] = [
  ['::1/128', '::1', '::1', '::1', '::', '::2'],
  ['::/128', '::', '::', '::', undefined, '::1'],
  ['::ffff:0:0/96', '::ffff:7f00:1', '::ffff:0:0', '::ffff:ffff:ffff', '::fffe:ffff:ffff', '::1:0:0:0'],
  [
    '64:ff9b::/96',
    '64:ff9b::a00:1',
    '64:ff9b::',
    '64:ff9b::ffff:ffff',
    `64:ff9a:ffff:${ONES}`,
    '64:ff9b::1:0:0',
  ],
  [
    '64:ff9b:1::/48',
    '64:ff9b:1::808:808',
    '64:ff9b:1::',
    `64:ff9b:1:${ONES}`,
    `64:ff9b:0:${ONES}`,
    '64:ff9b:2::',
  ],
  ['100::/64', '100::1', '100::', '100::ffff:ffff:ffff:ffff', `ff:ffff:ffff:${ONES}`, '100:0:0:1::'],
  [
    '100:0:0:1::/64',
    '100:0:0:1::1',
    '100:0:0:1::',
    '100:0:0:1:ffff:ffff:ffff:ffff',
    '100::ffff:ffff:ffff:ffff',
    '100:0:0:2::',
  ],
  ['2001::/23', '2001:100::1', '2001::', `2001:1ff:ffff:${ONES}`, `2000:ffff:ffff:${ONES}`, '2001:200::'],
  [
    '2001::/32',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::',
    `2001:0:ffff:${ONES}`,
    `2000:ffff:ffff:${ONES}`,
    '2001:1::',
  ],
  ['2001:1::1/128', '2001:1::1', '2001:1::1', '2001:1::1', '2001:1::', '2001:1::2'],
  ['2001:1::2/128', '2001:1::2', '2001:1::2', '2001:1::2', '2001:1::1', '2001:1::3'],
  ['2001:1::3/128', '2001:1::3', '2001:1::3', '2001:1::3', '2001:1::2', '2001:1::4'],
  ['2001:2::/48', '2001:2::1', '2001:2::', `2001:2:0:${ONES}`, `2001:1:ffff:${ONES}`, '2001:2:1::'],
  ['2001:3::/32', '2001:3::1', '2001:3::', `2001:3:ffff:${ONES}`, `2001:2:ffff:${ONES}`, '2001:4::'],
  [
    '2001:4:112::/48',
    '2001:4:112::1',
    '2001:4:112::',
    `2001:4:112:${ONES}`,
    `2001:4:111:${ONES}`,
    '2001:4:113::',
  ],
  ['2001:10::/28', '2001:10::1', '2001:10::', `2001:1f:ffff:${ONES}`, `2001:f:ffff:${ONES}`, '2001:20::'],
  ['2001:20::/28', '2001:20::1', '2001:20::', `2001:2f:ffff:${ONES}`, `2001:1f:ffff:${ONES}`, '2001:30::'],
  ['2001:30::/28', '2001:30::1', '2001:30::', `2001:3f:ffff:${ONES}`, `2001:2f:ffff:${ONES}`, '2001:40::'],
  [
    '2001:db8::/32',
    '2001:db8::1',
    '2001:db8::',
    `2001:db8:ffff:${ONES}`,
    `2001:db7:ffff:${ONES}`,
    '2001:db9::',
  ],
  ['2002::/16', '2002:7f00:1::1', '2002::', `2002:ffff:ffff:${ONES}`, `2001:ffff:ffff:${ONES}`, '2003::'],
  [
    '2620:4f:8000::/48',
    '2620:4f:8000::42',
    '2620:4f:8000::',
    `2620:4f:8000:${ONES}`,
    `2620:4f:7fff:${ONES}`,
    '2620:4f:8001::',
  ],
  ['3fff::/20', '3fff::1', '3fff::', `3fff:fff:ffff:${ONES}`, `3ffe:ffff:ffff:${ONES}`, '3fff:1000::'],
  ['5f00::/16', '5f00::1', '5f00::', `5f00:ffff:ffff:${ONES}`, `5eff:ffff:ffff:${ONES}`, '5f01::'],
  ['fc00::/7', 'fd12:3456::1', 'fc00::', `fdff:ffff:ffff:${ONES}`, `fbff:ffff:ffff:${ONES}`, 'fe00::'],
  ['fe80::/10', 'fe80::1', 'fe80::', `febf:ffff:ffff:${ONES}`, `fe7f:ffff:ffff:${ONES}`, 'fec0::'],
  ['::/96', '::7f00:1', '::', '::ffff:ffff', undefined, '::1:0:0'],
  [
    '::ffff:0:0:0/96',
    '::ffff:0:7f00:1',
    '::ffff:0:0:0',
    '::ffff:0:ffff:ffff',
    '::fffe:ffff:ffff:ffff',
    '::ffff:1:0:0',
  ],
  ['fec0::/10', 'fec0::1', 'fec0::', `feff:ffff:ffff:${ONES}`, `febf:ffff:ffff:${ONES}`, 'ff00::'],
  ['ff00::/8', 'ff02::1', 'ff00::', `ffff:ffff:ffff:${ONES}`, `feff:ffff:ffff:${ONES}`, undefined],
  ['::/3', '1::1', '::', `1fff:ffff:ffff:${ONES}`, undefined, '2000::'],
  ['4000::/2', '4000::1', '4000::', `7fff:ffff:ffff:${ONES}`, `3fff:ffff:ffff:${ONES}`, '8000::'],
  ['8000::/1', '9000::1', '8000::', `ffff:ffff:ffff:${ONES}`, `7fff:ffff:ffff:${ONES}`, undefined],
];

/**
 * Where an address of the rows is not where its row says (inside, first and last: the row's block; below and above:
 * public): a narrower block inside the row's, or the neighbouring block.
 */
const ELSEWHERE = new Map<string, string>([
  ['0.0.0.0', '0.0.0.0/32'],
  ['0.0.0.1', '0.0.0.0/8'],
  ['192.0.0.0', '192.0.0.0/29'],
  ['192.0.0.2', '192.0.0.0/29'],
  ['192.0.0.7', '192.0.0.0/29'],
  ['192.0.0.8', '192.0.0.8/32'],
  ['192.0.0.9', '192.0.0.9/32'],
  ['192.0.0.10', '192.0.0.10/32'],
  ['192.0.0.11', '192.0.0.0/24'],
  ['192.0.0.169', '192.0.0.0/24'],
  ['192.0.0.170', '192.0.0.170/32'],
  ['192.0.0.171', '192.0.0.171/32'],
  ['192.0.0.172', '192.0.0.0/24'],
  ['192.88.99.1', '192.88.99.0/24'],
  ['192.88.99.2', '192.88.99.2/32'],
  ['192.88.99.3', '192.88.99.0/24'],
  ['255.255.255.255', '255.255.255.255/32'],
  ['255.255.255.254', '240.0.0.0/4'],
  ['239.255.255.255', '224.0.0.0/4'],
  ['240.0.0.0', '240.0.0.0/4'],
  ['::', '::/128'],
  ['::1', '::1/128'],
  ['::2', '::/96'],
  ['::ffff:ffff', '::/96'],
  ['::fffe:ffff:ffff', '::/3'],
  ['::1:0:0:0', '::/3'],
  [`64:ff9a:ffff:${ONES}`, '::/3'],
  ['64:ff9b::1:0:0', '::/3'],
  [`64:ff9b:0:${ONES}`, '::/3'],
  ['64:ff9b:2::', '::/3'],
  [`ff:ffff:ffff:${ONES}`, '::/3'],
  ['100:0:0:1::', '100:0:0:1::/64'],
  ['100::ffff:ffff:ffff:ffff', '100::/64'],
  ['100:0:0:2::', '::/3'],
  ['2001::', '2001::/32'],
  ['2001:1::', '2001::/23'],
  ['2001:1::1', '2001:1::1/128'],
  ['2001:1::2', '2001:1::2/128'],
  ['2001:1::3', '2001:1::3/128'],
  ['2001:1::4', '2001::/23'],
  [`2001:1:ffff:${ONES}`, '2001::/23'],
  ['2001:2:1::', '2001::/23'],
  [`2001:2:ffff:${ONES}`, '2001::/23'],
  ['2001:4::', '2001::/23'],
  [`2001:4:111:${ONES}`, '2001::/23'],
  ['2001:4:113::', '2001::/23'],
  [`2001:f:ffff:${ONES}`, '2001::/23'],
  ['2001:20::', '2001:20::/28'],
  [`2001:1f:ffff:${ONES}`, '2001:10::/28'],
  ['2001:30::', '2001:30::/28'],
  [`2001:2f:ffff:${ONES}`, '2001:20::/28'],
  ['2001:40::', '2001::/23'],
  [`5eff:ffff:ffff:${ONES}`, '4000::/2'],
  ['5f01::', '4000::/2'],
  [`fbff:ffff:ffff:${ONES}`, '8000::/1'],
  ['fe00::', '8000::/1'],
  [`fe7f:ffff:ffff:${ONES}`, '8000::/1'],
  ['fec0::', 'fec0::/10'],
  [`febf:ffff:ffff:${ONES}`, 'fe80::/10'],
  ['ff00::', 'ff00::/8'],
  [`feff:ffff:ffff:${ONES}`, 'fec0::/10'],
  [`ffff:ffff:ffff:${ONES}`, 'ff00::/8'],
  ['::1:0:0', '::/3'],
  ['::fffe:ffff:ffff:ffff', '::/3'],
  ['::ffff:1:0:0', '::/3'],
  ['1::1', '::/3'],
  ['8000::', '8000::/1'],
  [`7fff:ffff:ffff:${ONES}`, '4000::/2'],
]);

/** The block that refuses an address, or `public`. */
const verdict = (address: string): string => addressRefusal(address)?.block.cidr ?? 'public';

/** Every address of the rows, with where each belongs: `[block, address, expected]`. */
function cases(rows: readonly Row[]): [string, string, string][] {
  return rows.flatMap(([block, inside, first, last, below, above]) => [
    ...[inside, first, last].map((address): [string, string, string] => [
      block,
      address,
      ELSEWHERE.get(address) ?? block,
    ]),
    ...[below, above]
      .filter((address) => address !== undefined)
      .map((address): [string, string, string] => [block, address, ELSEWHERE.get(address) ?? 'public']),
  ]);
}

const IPV4_CASES = cases(IPV4_ROWS);
const IPV6_CASES = cases(IPV6_ROWS);

describe('the public-address check, by the registries', () => {
  it('has a row for every block it refuses, and no other', () => {
    expect(IPV4_ROWS.map(([block]) => block).sort()).toEqual(REFUSED_IPV4_BLOCKS.map((b) => b.cidr).sort());
    expect(IPV6_ROWS.map(([block]) => block).sort()).toEqual(REFUSED_IPV6_BLOCKS.map((b) => b.cidr).sort());
    // The table's size, for the record: blocks, and addresses judged.
    expect([IPV4_ROWS.length, IPV6_ROWS.length, IPV4_CASES.length + IPV6_CASES.length]).toEqual([
      27, 32, 286,
    ]);
  });

  it.each([...IPV4_CASES, ...IPV6_CASES])('%s: %s is %s', (_block, address, expected) => {
    expect(verdict(address)).toBe(expected);
    expect(isPublicAddress(address)).toBe(expected === 'public');
  });

  it('says why, naming the block (and the IPv4 address carried)', () => {
    const said = (address: string) => describeRefusal(addressRefusal(address) as AddressRefusal);
    expect(said('169.254.169.254')).toBe('link-local (and the cloud metadata service) (169.254.0.0/16)');
    expect(said('::7f00:1')).toBe(
      'deprecated IPv4-compatible (::/96) carrying 127.0.0.1: loopback (127.0.0.0/8)',
    );
    expect(said('2002:808:808::1')).toBe('6to4 (2002::/16) carrying 8.8.8.8');
  });

  it('reads an IPv4 address written dotted inside an IPv6 one as the form it is in', () => {
    expect(verdict('::8.8.8.8')).toBe('::/96');
    expect(verdict('::ffff:0:8.8.8.8')).toBe('::ffff:0:0:0/96');
    expect(verdict('::ffff:8.8.8.8')).toBe('public');
    expect(verdict('64:ff9b::8.8.8.8')).toBe('public');
    expect(verdict('64:ff9b::10.0.0.1')).toBe('64:ff9b::/96');
  });

  it('refuses what is not an address', () => {
    for (const text of ['not-an-ip', 'localhost', '127.1', '0x7f000001', '', '[::1]'])
      expect(isPublicAddress(text)).toBe(false);
  });
});

/** The IPv4 address as the low 32 bits of an IPv6 address: `7f00:1`. */
const low32 = (ipv4: string, invert = false) => {
  const bytes = ipv4.split('.').map((part) => (invert ? Number(part) ^ 0xff : Number(part)));
  const word = (high: number, low: number) => ((high << 8) | low).toString(16);
  return `${word(bytes[0] ?? 0, bytes[1] ?? 0)}:${word(bytes[2] ?? 0, bytes[3] ?? 0)}`;
};

/** Every form that carries an IPv4 address, written out by hand (RFC 4291, 6052, 8215, 2765, 3056, 4380). */
const EMBEDDINGS = {
  mapped: (ipv4: string) => `::ffff:${low32(ipv4)}`,
  compatible: (ipv4: string) => `::${low32(ipv4)}`,
  translated: (ipv4: string) => `::ffff:0:${low32(ipv4)}`,
  nat64: (ipv4: string) => `64:ff9b::${low32(ipv4)}`,
  localNat64: (ipv4: string) => `64:ff9b:1::${low32(ipv4)}`,
  '6to4': (ipv4: string) => `2002:${low32(ipv4)}::1`,
  // Server 65.54.227.120, flags 8000, port 63bf; the client's address inverted.
  teredo: (ipv4: string) => `2001:0:4136:e378:8000:63bf:${low32(ipv4, true)}`,
} as const;

/** The forms that reach the IPv4 address they carry, and so are as public as it is. */
const REACHING = new Set<keyof typeof EMBEDDINGS>(['mapped', 'nat64']);

describe('IPv6 addresses that carry an IPv4 address', () => {
  const refused = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '192.168.1.1', '100.64.0.1', '198.18.0.1'];
  const published = ['8.8.8.8', '93.184.215.14'];

  it.each(
    Object.entries(EMBEDDINGS).flatMap(([form, embed]) => refused.map((ipv4) => [form, ipv4, embed(ipv4)])),
  )('%s of %s (%s): refused, by the IPv4 address too', (form, ipv4, address) => {
    const refusal = addressRefusal(address);
    expect(refusal).toBeDefined();
    // The local-use NAT64 prefix is refused whole: where it carries the IPv4 address depends on the network.
    if (form !== 'localNat64') expect(refusal?.carried).toEqual({ ipv4, refusal: addressRefusal(ipv4) });
  });

  it.each(
    Object.entries(EMBEDDINGS).flatMap(([form, embed]) => published.map((ipv4) => [form, ipv4, embed(ipv4)])),
  )('%s of the public %s (%s): public only where it reaches it', (form, _ipv4, address) => {
    expect(isPublicAddress(address)).toBe(REACHING.has(form as keyof typeof EMBEDDINGS));
  });

  it('judges any IPv4 address and its embeddings alike (fast-check)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        for (const [form, embed] of Object.entries(EMBEDDINGS))
          expect([form, isPublicAddress(embed(ipv4))]).toEqual([
            form,
            REACHING.has(form as keyof typeof EMBEDDINGS) && isPublicAddress(ipv4),
          ]);
      }),
      { numRuns: 500 },
    );
  });

  it('answers any IPv6 address, public only in 2000::/3 or where it reaches a public IPv4 (fast-check)', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const refusal = addressRefusal(address);
        if (refusal === undefined)
          expect(
            /^[23][0-9a-f]{3}:/.test(expandIpv6(address)) ||
              /^(0000:){5}ffff:|^0064:ff9b:(0000:){4}/.test(expandIpv6(address)),
          ).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

/** An IPv6 address written out in full, for the test's own checks: eight groups of four digits. */
function expandIpv6(address: string): string {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const text = dotted ? address.replace(dotted, low32(dotted)) : address;
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const missing = 8 - groups(head).length - (tail === undefined ? 0 : groups(tail).length);
  return [...groups(head), ...Array(tail === undefined ? 0 : missing).fill('0'), ...groups(tail ?? '')]
    .map((group) => group.padStart(4, '0'))
    .join(':')
    .toLowerCase();
}
