/**
 * The public-address check: where a webhook may be sent (docs/design.md#ssrf) — only to globally reachable
 * addresses, judged by one table: the blocks of the IANA IPv4 and IPv6 Special-Purpose Address Registries, and the
 * few other blocks no receiver lives in. An IPv6 address that carries an IPv4 address (mapped, compatible,
 * translated, NAT64, 6to4, Teredo) is judged by the IPv4 address it carries too. A URL is checked when an operator
 * adds it (an IP-literal host) and again at every delivery, where the host is resolved, every address it resolves
 * to is checked, and the connection goes to the address that was checked — never a second lookup that could answer
 * otherwise (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { isIP, isIPv4 } from 'node:net';
import { NonPublicAddressError } from './errors';

/** Where an IPv6 address of a block carries an IPv4 address, and what a public one makes of it. */
export interface CarriedIpv4 {
  /** The IPv4 address's 32 bits, from the IPv6 address's 128. */
  readonly ipv4: (bits: bigint) => bigint;
  /**
   * Whether the address is acceptable when the IPv4 address it carries is: only where it reaches that IPv4 address
   * itself (an IPv4-mapped address is one; the NAT64 well-known prefix, globally reachable by the registry, is how an
   * IPv6-only network reaches one). The other forms are refused whatever they carry (docs/design.md#ssrf).
   */
  readonly acceptedWhenPublic: boolean;
}

/** A block of addresses no webhook is sent to, named as its registry names it. */
export interface RefusedBlock {
  readonly cidr: string;
  readonly name: string;
  /** For IPv6 addresses that carry an IPv4 address: where, and whether a public one is acceptable. */
  readonly carries?: CarriedIpv4;
}

const ALL_32 = 0xffff_ffffn;
const last32 = (bits: bigint) => bits & ALL_32;

/**
 * The refused IPv4 blocks: every block of the IANA IPv4 Special-Purpose Address Registry (2025-10-09), and multicast.
 * Refused too are the registry's few globally reachable blocks, each an anycast service or a DNS sink — never a
 * receiver (docs/design.md#ssrf). An address in no block is public (all other IPv4 space is allocated).
 */
export const REFUSED_IPV4_BLOCKS: readonly RefusedBlock[] = [
  { cidr: '0.0.0.0/8', name: '"this network"' },
  { cidr: '0.0.0.0/32', name: '"this host on this network"' },
  { cidr: '10.0.0.0/8', name: 'private-use' },
  { cidr: '100.64.0.0/10', name: 'shared address space (carrier-grade NAT)' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'link-local (and the cloud metadata service)' },
  { cidr: '172.16.0.0/12', name: 'private-use' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments' },
  { cidr: '192.0.0.0/29', name: 'IPv4 service continuity prefix' },
  { cidr: '192.0.0.8/32', name: 'IPv4 dummy address' },
  { cidr: '192.0.0.9/32', name: 'Port Control Protocol anycast' }, // globally reachable
  { cidr: '192.0.0.10/32', name: 'TURN anycast' }, // globally reachable
  { cidr: '192.0.0.170/32', name: 'NAT64/DNS64 discovery' },
  { cidr: '192.0.0.171/32', name: 'NAT64/DNS64 discovery' },
  { cidr: '192.0.2.0/24', name: 'documentation (TEST-NET-1)' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4' }, // globally reachable
  { cidr: '192.52.193.0/24', name: 'AMT' }, // globally reachable
  { cidr: '192.88.99.0/24', name: 'deprecated 6to4 relay anycast' },
  { cidr: '192.88.99.2/32', name: '6a44-relay anycast' },
  { cidr: '192.168.0.0/16', name: 'private-use' },
  { cidr: '192.175.48.0/24', name: 'direct delegation AS112 service' }, // globally reachable
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', name: 'documentation (TEST-NET-3)' },
  { cidr: '240.0.0.0/4', name: 'reserved' },
  { cidr: '255.255.255.255/32', name: 'limited broadcast' },
  // Not in the registry: the multicast address space (IANA IPv4 Multicast Address Space Registry).
  { cidr: '224.0.0.0/4', name: 'multicast' },
];

/**
 * The refused IPv6 blocks: every block of the IANA IPv6 Special-Purpose Address Registry (2024-10-22) — its globally
 * reachable anycast, AS112 and identifier blocks too (docs/design.md#ssrf) — the forms that carry an IPv4 address, the
 * deprecated site-local block, multicast, and everything outside 2000::/3, the only space IANA allocates for global
 * unicast (IANA IPv6 Address Space registry): what lies there is unassigned, and may be a private network's own.
 */
export const REFUSED_IPV6_BLOCKS: readonly RefusedBlock[] = [
  { cidr: '::1/128', name: 'loopback' },
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped', carries: { ipv4: last32, acceptedWhenPublic: true } },
  {
    cidr: '64:ff9b::/96',
    name: 'IPv4-IPv6 translation (NAT64)',
    carries: { ipv4: last32, acceptedWhenPublic: true },
  },
  { cidr: '64:ff9b:1::/48', name: 'local-use IPv4-IPv6 translation' },
  { cidr: '100::/64', name: 'discard-only' },
  { cidr: '100:0:0:1::/64', name: 'dummy IPv6 prefix' },
  { cidr: '2001::/23', name: 'IETF protocol assignments' },
  {
    cidr: '2001::/32',
    name: 'Teredo',
    // The client's IPv4 address, obfuscated: the last 32 bits inverted (RFC 4380 §4).
    carries: { ipv4: (bits) => last32(bits) ^ ALL_32, acceptedWhenPublic: false },
  },
  { cidr: '2001:1::1/128', name: 'Port Control Protocol anycast' }, // globally reachable
  { cidr: '2001:1::2/128', name: 'TURN anycast' }, // globally reachable
  { cidr: '2001:1::3/128', name: 'DNS-SD service registration protocol anycast' }, // globally reachable
  { cidr: '2001:2::/48', name: 'benchmarking' },
  { cidr: '2001:3::/32', name: 'AMT' }, // globally reachable
  { cidr: '2001:4:112::/48', name: 'AS112-v6' }, // globally reachable
  { cidr: '2001:10::/28', name: 'deprecated ORCHID' },
  { cidr: '2001:20::/28', name: 'ORCHIDv2' }, // globally reachable
  { cidr: '2001:30::/28', name: 'drone remote ID entity tags' }, // globally reachable
  { cidr: '2001:db8::/32', name: 'documentation' },
  {
    cidr: '2002::/16',
    name: '6to4',
    carries: { ipv4: (bits) => (bits >> 80n) & ALL_32, acceptedWhenPublic: false },
  },
  { cidr: '2620:4f:8000::/48', name: 'direct delegation AS112 service' }, // globally reachable
  { cidr: '3fff::/20', name: 'documentation' },
  { cidr: '5f00::/16', name: 'segment routing (SRv6) SIDs' },
  { cidr: 'fc00::/7', name: 'unique-local' },
  { cidr: 'fe80::/10', name: 'link-local' },
  // Not in the registry: the IPv6 addressing architecture's (RFC 4291) deprecated and multicast blocks, and SIIT's.
  {
    cidr: '::/96',
    name: 'deprecated IPv4-compatible',
    carries: { ipv4: last32, acceptedWhenPublic: false },
  },
  {
    cidr: '::ffff:0:0:0/96',
    name: 'IPv4-translated',
    carries: { ipv4: last32, acceptedWhenPublic: false },
  },
  { cidr: 'fec0::/10', name: 'deprecated site-local' },
  { cidr: 'ff00::/8', name: 'multicast' },
  // The complement of 2000::/3.
  { cidr: '::/3', name: 'outside the global unicast space 2000::/3' },
  { cidr: '4000::/2', name: 'outside the global unicast space 2000::/3' },
  { cidr: '8000::/1', name: 'outside the global unicast space 2000::/3' },
];

/** An IP address as a number of its family's width: 32 bits for IPv4, 128 for IPv6. */
interface AddressBits {
  readonly width: 32 | 128;
  readonly bits: bigint;
}

/**
 * An IP address's bits; undefined for what is not an address. IPv6 goes through the URL parser, which reads every
 * way of writing one (a dotted IPv4 tail too: `::127.0.0.1`, IPv4-compatible, is `::7f00:1`) and refuses zones. (A
 * parser that reads `::a.b.c.d` as IPv4-mapped, as ipaddr.js does, would take `::8.8.8.8`, IPv4-compatible, for
 * `8.8.8.8`: docs/design.md#ssrf.)
 */
function addressBits(address: string): AddressBits | undefined {
  if (isIPv4(address))
    return { width: 32, bits: address.split('.').reduce((bits, part) => (bits << 8n) | BigInt(part), 0n) };
  if (isIP(address) !== 6 || !URL.canParse(`http://[${address}]`)) return undefined;
  const compressed = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head = '', tail] = compressed.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const zeros =
    tail === undefined ? [] : Array<string>(8 - groups(head).length - groups(tail).length).fill('0');
  const all = [...groups(head), ...zeros, ...groups(tail ?? '')];
  return { width: 128, bits: all.reduce((bits, group) => (bits << 16n) | BigInt(`0x${group}`), 0n) };
}

/** A block as a network and a mask of its family's width. */
function blockRange(cidr: string): { width: 32 | 128; network: bigint; mask: bigint; prefix: number } {
  const [address = '', prefixText = ''] = cidr.split('/');
  const parsed = addressBits(address);
  if (!parsed) throw new Error(`not a block: ${cidr}`);
  const prefix = Number(prefixText);
  const all = (1n << BigInt(parsed.width)) - 1n;
  const mask = all ^ (all >> BigInt(prefix));
  return { width: parsed.width, network: parsed.bits & mask, mask, prefix };
}

/** Every block, the narrowest first: an address is judged by the most specific block it is in. */
const RANGES = [...REFUSED_IPV4_BLOCKS, ...REFUSED_IPV6_BLOCKS]
  .map((block) => ({ block, ...blockRange(block.cidr) }))
  .sort((a, b) => b.prefix - a.prefix);

/** An IPv4 address's dotted text from its 32 bits. */
const dotted = (bits: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 0xffn)).join('.');

/** Why an address is refused: the block it is in, and for one that carries an IPv4 address, that address's fate. */
export interface AddressRefusal {
  readonly block: RefusedBlock;
  /** The IPv4 address it carries, and why that one is refused (undefined when it is public). */
  readonly carried?: { readonly ipv4: string; readonly refusal: AddressRefusal | undefined };
}

/**
 * Why an IP address (v4 or v6, as text: a URL's host without its brackets, or a resolver's answer) is refused;
 * undefined when it is public. It throws for what is not an address (a host name): `isPublicAddress` answers `false`.
 */
export function addressRefusal(address: string): AddressRefusal | undefined {
  const parsed = addressBits(address);
  if (!parsed) throw new TypeError(`not an IP address: ${address}`);
  return refusalOf(parsed);
}

function refusalOf({ width, bits }: AddressBits): AddressRefusal | undefined {
  const found = RANGES.find((range) => range.width === width && (bits & range.mask) === range.network);
  if (!found) return undefined;
  const { block } = found;
  if (!block.carries) return { block };
  const ipv4 = block.carries.ipv4(bits);
  const refusal = refusalOf({ width: 32, bits: ipv4 });
  return refusal === undefined && block.carries.acceptedWhenPublic
    ? undefined
    : { block, carried: { ipv4: dotted(ipv4), refusal } };
}

/** A refusal in a few words: `loopback (127.0.0.0/8)`; `deprecated IPv4-compatible (::/96) carrying 127.0.0.1: …`. */
export function describeRefusal({ block, carried }: AddressRefusal): string {
  const named = `${block.name} (${block.cidr})`;
  if (!carried) return named;
  return carried.refusal
    ? `${named} carrying ${carried.ipv4}: ${describeRefusal(carried.refusal)}`
    : `${named} carrying ${carried.ipv4}`;
}

/** Whether an IP address (v4 or v6, as text) is a public one; `false` for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  const parsed = addressBits(address);
  return parsed !== undefined && refusalOf(parsed) === undefined;
}

/** An address checked to be public, and its family: what a delivery connects to. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver, as Node's HTTP client would). */
export type Resolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

/** The system's resolver, asked for every address. */
export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The address to connect to for a host: the host itself when it is an IP literal, else the first address it
 * resolves to — and only if every address it resolves to is public (`NonPublicAddressError` otherwise, naming the
 * address and its block).
 */
export async function checkedAddress(
  host: string,
  resolve: Resolver = systemResolver,
): Promise<CheckedAddress> {
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const addresses = isIP(literal) ? [{ address: literal, family: isIP(literal) }] : await resolve(literal);
  const [first] = addresses;
  if (!first) throw new NonPublicAddressError(`${host} resolves to no address`);
  for (const { address } of addresses) {
    if (isIP(address) === 0)
      throw new NonPublicAddressError(`${host} resolves to ${address}, not an address`);
    const refusal = addressRefusal(address);
    if (refusal)
      throw new NonPublicAddressError(
        `${host} resolves to ${address}, not a public address: ${describeRefusal(refusal)}`,
      );
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
