import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../runtime/config.ts';

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

const MAX_PROXY_HOPS = 10;
// proxy-addr's (Fastify's) names for the private ranges, accepted beside literal addresses.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_HINT =
  "must be a hop count (1 for one reverse proxy such as nginx in front), or the proxies' addresses or CIDR ranges, comma-separated (e.g. 10.0.0.5,192.168.0.0/16)";

/** TRUST_PROXY's value, or a message saying what is wrong with it. */
export function parseTrustProxy(raw: string): number | string[] | string {
  const text = raw.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return 0;
  // `true` used to trust every hop, so any client could set its own address. It now means what it meant for the
  // common set-up it was written for: one proxy in front of the app, whose X-Forwarded-For entry is believed.
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_PROXY_HOPS ? hops : `${TRUST_PROXY_HINT}; ${hops} hops is more than ${MAX_PROXY_HOPS}`;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const problem = proxyEntryProblem(entry);
    if (problem) return `${TRUST_PROXY_HINT}; ${problem}`;
  }
  return entries;
}

function proxyEntryProblem(entry: string): string | undefined {
  if (PROXY_RANGE_NAMES.has(entry)) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR range`;
  if (prefix === undefined) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `"${entry}" has a bad prefix length`;
  if (Number(prefix) === 0) return `"${entry}" would trust every address`;
  return undefined;
}
