import { isIPv4, isIPv6 } from 'node:net';
import type { Config } from './config.ts';

/**
 * The network a client address stands for, for every per-address limit and bound: an IPv4 address itself (an
 * IPv4-mapped IPv6 address is its IPv4 address), an IPv6 address by its /64, the block one subscriber gets, written
 * one way whatever way it arrived (`2001:DB8:0::1` and `2001:db8::2` are `2001:db8:0:0::/64`). Counting IPv6 by the
 * address would give one host 2^64 fresh allowances.
 */
export function networkOf(address: string): string {
  // A proxy may write an IPv6 address in brackets, as in a URL.
  const ip = address.replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return expandIPv6(ip).slice(0, 4).join(':') + '::/64';
}

/** The eight 16-bit groups of an IPv6 address, `::` filled in, zone dropped. */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.replace(/%.*$/, '').split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0');
  return [...left, ...(tail === undefined ? [] : fill), ...right].map((g) =>
    g.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}

/**
 * Fastify reads a bare hop count as "trust nobody", so hops are given as a function: the socket peer is hop 0, each
 * X-Forwarded-For entry from the right the next. The client address is the first entry that is not a trusted hop.
 */
export function trustProxyOf(trust: Config['trustProxy']) {
  if (Array.isArray(trust)) return trust;
  return trust > 0 ? (_address: string, hop: number) => hop < trust : false;
}
