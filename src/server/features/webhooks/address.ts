import { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether `address` (an IP literal) is one a webhook must not reach unless the operator allows private receivers:
 * anything but a global unicast address. The special-purpose ranges (loopback, private, link-local, carrier-grade
 * NAT, NAT64 including the local-use 64:ff9b:1::/48, 6to4, Teredo, documentation, benchmarking, multicast,
 * reserved…) are the IANA registries as ipaddr.js keeps them; an IPv4-mapped IPv6 address is judged as the IPv4
 * address it carries.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.process(address);
  // The deprecated IPv4-compatible ::a.b.c.d (::7f00:1 is 127.0.0.1), which the registries no longer list.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0))
    return true;
  return parsed.range() !== 'unicast';
}

/** Why a receiver's address is refused; `permanent` unless the name could not be resolved (that may pass). */
export type AddressRefusal = { reason: string; permanent: boolean };

/**
 * Resolves the URL's host and returns why it may not be reached, or null when every address it resolves to is
 * public. Every address is checked, so a name with one public and one private address is refused. The connection
 * resolves again through `publicOnlyLookup`, which checks again what it connects to (DNS rebinding).
 */
export async function refusalOf(url: URL): Promise<AddressRefusal | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { reason: `could not resolve ${host}: ${code}`, permanent: false };
  }
  const refused = addresses.find(isPrivateAddress);
  return refused ? { reason: `${host} resolves to ${refused}, ${NOT_PUBLIC}`, permanent: true } : null;
}

const NOT_PUBLIC = 'a private, loopback, link-local or otherwise special-purpose address';

/**
 * A `lookup` for the connection itself that refuses private addresses: the address checked is the address connected
 * to, so a name that answers differently the second time (DNS rebinding) cannot slip through. IP literals never
 * reach a lookup: `refusalOf` checks them before the request.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused || addresses.length === 0) {
      const denied = Object.assign(
        new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}, ${NOT_PUBLIC}`),
        { code: 'EWEBHOOKREFUSED' },
      );
      return callback(denied, '', 0);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first?.address ?? '', first?.family ?? 4);
  });
};
