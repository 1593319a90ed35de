import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Mode } from '../../domain/types.js';
import { MAX_URL_LENGTH } from './schemas.js';

/**
 * Where webhooks may go (docs/webhooks.md, "Endpoints"): http(s) URLs without credentials; https for live
 * endpoints in production; never to a loopback, private, link-local or metadata address unless
 * allowed (checked on every address the name resolves to, at creation and again at each delivery,
 * so a name re-pointed at an internal address later is refused too).
 */

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Only globally routable unicast addresses, by ipaddr.js's table of special-purpose ranges (the
 * IANA registries): for IPv4, no "this network", private, carrier-grade NAT, loopback, link-local
 * (169.254.169.254: cloud metadata), reserved, documentation, benchmarking or multicast address;
 * for IPv6, the global unicast block 2000::/3 minus its special ranges (so no loopback, unique local
 * such as fd00:ec2::254, link-local or multicast).
 *
 * No IPv6 form that carries an IPv4 address either, whatever that address: IPv4-compatible
 * (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32). Where the address sits
 * in them cannot always be known (a local NAT64 prefix may be /32 to /96, Teredo obscures it), and
 * a translator or relay in the service's network may turn them into connections to internal
 * addresses; an endpoint reachable that way has a plain address to give instead.
 */
function isGlobalUnicast(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  return address.match(GLOBAL_UNICAST_V6) && address.range() === 'unicast';
}

/** Whether `address` (an IP literal) is one webhooks must not reach; anything not an address is refused too. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return true;
  return !isGlobalUnicast(ipaddr.parse(address));
}

export class UrlRefused extends Error {}

/**
 * Why a URL is refused, in the words partners see at creation and in a delivery attempt's error.
 * Never the address a name resolves to: that would tell an integrator the service's internal DNS.
 */
export const NOT_REACHABLE =
  'an address webhooks may not reach (loopback, private, link-local, metadata or another address that is not public)';

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
  if (addresses.some(isPrivateAddress)) {
    throw new UrlRefused(`url is not allowed: ${isIP(host) !== 0 ? 'it is' : 'it resolves to'} ${NOT_REACHABLE}`);
  }
}
