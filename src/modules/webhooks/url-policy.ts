import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Mode } from '../../domain/types.js';
import { MAX_URL_LENGTH } from './schemas.js';

/**
 * Where webhooks may go (integrator-features §2): http(s) URLs without credentials; https for live
 * endpoints in production; never to a loopback, private, link-local or metadata address unless
 * allowed (checked on every address the name resolves to, at creation and again at each delivery,
 * so a name re-pointed at an internal address later is refused too).
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (and 100.100.100.200, a cloud metadata address)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (includes fd00:ec2::254, a cloud metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is one webhooks must not reach. IPv4-mapped IPv6 counts as its IPv4 address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class UrlRefused extends Error {}

export interface UrlRules {
  production: boolean;
  allowPrivate: boolean;
}

/** The URL as it will be called, or UrlRefused saying why not (its message is shown to the partner). */
export function parseEndpointUrl(text: string, mode: Mode, rules: UrlRules): URL {
  const raw = text.trim();
  if (raw.length === 0) throw new UrlRefused('url is required');
  if (raw.length > MAX_URL_LENGTH) throw new UrlRefused(`url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UrlRefused('url must start with https:// or http://');
  if (url.protocol === 'http:' && rules.production && mode === 'live') {
    throw new UrlRefused('a live endpoint must use https://');
  }
  if (url.username !== '' || url.password !== '') throw new UrlRefused('url must not contain a user name or password');
  if (url.hash !== '') throw new UrlRefused('url must not contain a #fragment');
  if (url.hostname === '') throw new UrlRefused('url needs a host');
  return url;
}

/** The host of a URL as the resolver takes it (IPv6 literals lose their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Resolves the URL's host and refuses it when any address is private (unless allowed). */
export async function checkResolvedAddresses(url: URL, rules: UrlRules): Promise<void> {
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new UrlRefused(`the host ${host} of url does not resolve`);
  }
  if (rules.allowPrivate) return;
  const internal = addresses.find(isPrivateAddress);
  if (internal !== undefined) {
    throw new UrlRefused(
      `url resolves to ${internal}, a loopback, private, link-local or metadata address, which webhooks may not reach`,
    );
  }
}
