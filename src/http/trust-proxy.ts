import ipaddr from 'ipaddr.js';
import type { TrustProxy } from '../config.js';

/** Where the nearest proxy of the hop-count form may connect from: this host or a private network. */
const NEARBY_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal']);

function onNearbyNetwork(address: string): boolean {
  // process() reads an IPv4-mapped IPv6 address (a dual-stack listener's view of IPv4) as IPv4.
  return ipaddr.isValid(address) && NEARBY_RANGES.has(ipaddr.process(address).range());
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY, so that `request.ip` is the client's address behind the
 * proxies (docs/deployment.md, "TLS in front"): every per-address limit and log line uses it.
 *
 * Addresses and CIDRs go to Fastify as they are. Fastify no longer takes a bare hop count, because
 * any client reaching the port directly could then write its own X-Forwarded-For (see its
 * `trustProxy` reference). Here the count applies only when the nearest hop connects from this host
 * or a private network, as a local nginx or a load balancer in the same private network does; any
 * other peer is the client itself.
 */
export function trustProxyOption(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  switch (setting.kind) {
    case 'none':
      return false;
    case 'addresses':
      return setting.addresses;
    case 'hops': {
      const { hops } = setting;
      return (address, hop) => hop < hops && (hop > 0 || onNearbyNetwork(address));
    }
  }
}
