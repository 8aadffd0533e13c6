import { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Addresses a webhook may not reach unless the operator allows private receivers: loopback, private, link-local,
// unspecified, carrier-grade NAT, multicast and reserved ranges, IPv4 and IPv6 (IPv4-mapped IPv6 is unwrapped first).
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // The unspecified and loopback addresses, and the deprecated IPv4-compatible ::a.b.c.d (::7f00:1 is 127.0.0.1).
  ['::', 96],
  // IPv4-translated (::ffff:0:a.b.c.d) and the discard prefix.
  ['::ffff:0:0:0', 96],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2002::', 16],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Whether `address` (an IP literal) is one a webhook must not reach. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return isPrivateAddress(mapped[1]);
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    // ::ffff:7f00:1 (the hex form of a mapped address) is unwrapped too.
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hex?.[1] && hex[2]) {
      const hi = parseInt(hex[1], 16);
      const lo = parseInt(hex[2], 16);
      return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/**
 * Resolves the URL's host and returns why it may not be reached, or null when every address it resolves to is
 * public. Every address is checked, so a name with one public and one private address is refused. The connection
 * resolves again through `publicOnlyLookup`, which checks again what it connects to (DNS rebinding).
 */
export async function refusalOf(url: URL): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch (error) {
    return `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  const refused = addresses.find(isPrivateAddress);
  return refused ? `${host} resolves to ${refused}, a private, loopback or link-local address` : null;
}

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
        new Error(
          `${hostname} resolves to ${refused?.address ?? 'nothing'}, a private, loopback or link-local address`,
        ),
        { code: 'EWEBHOOKREFUSED' },
      );
      return callback(denied, '', 0);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first?.address ?? '', first?.family ?? 4);
  });
};
