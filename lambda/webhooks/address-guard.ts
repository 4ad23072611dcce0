/**
 * Where a webhook may be sent (docs/design.md#webhooks, SSRF): only to public addresses. A URL is checked when an
 * operator adds it (an IP-literal host in a non-public range is refused) and again at every delivery, where the
 * host is resolved, every address it resolves to is checked, and the connection goes to the address that was
 * checked — never a second lookup that could answer otherwise (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Ranges that are not the public internet (IANA special-purpose registries), IPv4 and IPv6. */
const NON_PUBLIC = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, and the cloud metadata service (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
] as const)
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 127], // unspecified and loopback
  ['64:ff9b::', 96], // NAT64, which reaches IPv4 (private ones too)
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, which embeds an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');

/** Whether an IP address (v4 or v6, as text) is a public one; `false` for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is checked by the list against its IPv4
  // ranges (test/webhooks/ssrf.test.ts).
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** An address checked to be public, and its family: what a delivery connects to. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver, as Node's HTTP client would). */
export type Resolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** A host that may not be sent to: it is, or resolves to, a non-public address. */
export class NonPublicAddressError extends Error {
  override readonly name = 'NonPublicAddressError';
}

/**
 * The address to connect to for a host: the host itself when it is an IP literal, else the first address it
 * resolves to — and only if every address it resolves to is public (`NonPublicAddressError` otherwise).
 */
export async function checkedAddress(
  host: string,
  resolve: Resolver = systemResolver,
): Promise<CheckedAddress> {
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const addresses = isIP(literal) ? [{ address: literal, family: isIP(literal) }] : await resolve(literal);
  const [first] = addresses;
  if (!first) throw new NonPublicAddressError(`${host} resolves to no address`);
  for (const { address } of addresses)
    if (!isPublicAddress(address))
      throw new NonPublicAddressError(`${host} resolves to a non-public address`);
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
