/**
 * Ghana's mobile networks and the default network of a number by its prefix (docs/api.md, "The
 * number's network"). A prefix is only a default: numbers have been portable between networks
 * since 2011, so a purchase may say `allowPortedNumber` to skip the check.
 *
 * The table is kept here, in one place, because no maintained package carries it correctly:
 * libphonenumber-js has no carrier data at all, and Google libphonenumber's carrier file for +233
 * (the source of the npm packages that do carry carriers) still names Vodafone, tiGO, Airtel and
 * Globacom, and lacks 025, 053 and parts of 055.
 */

export const NETWORKS = ['MTN', 'TELECEL', 'AT'] as const;
export type Network = (typeof NETWORKS)[number];

/** How messages name a network. */
export const NETWORK_NAMES: Record<Network, string> = { MTN: 'MTN', TELECEL: 'Telecel', AT: 'AT' };
/** …with its article, as said aloud: "an MTN", "a Telecel", "an AT". */
const WITH_ARTICLE: Record<Network, string> = { MTN: 'an MTN', TELECEL: 'a Telecel', AT: 'an AT' };

/** National prefixes (after the trunk 0) of each network's numbers. */
const PREFIXES: Record<Network, readonly string[]> = {
  MTN: ['24', '25', '53', '54', '55', '59'],
  TELECEL: ['20', '50'],
  AT: ['23', '26', '27', '56', '57'],
};

const NETWORK_OF_PREFIX = new Map<string, Network>(
  NETWORKS.flatMap((network) => PREFIXES[network].map((prefix) => [prefix, network] as const)),
);

export function isNetwork(value: unknown): value is Network {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}

/** The network of a normalised Ghana number (233XXXXXXXXX) by its prefix; null when the prefix is no network's. */
export function networkOfNumber(msisdn: string): Network | null {
  if (!msisdn.startsWith('233')) return null;
  return NETWORK_OF_PREFIX.get(msisdn.slice(3, 5)) ?? null;
}

/** A normalised number as people write it at home: 233501234567 → 0501234567. */
export function nationalForm(msisdn: string): string {
  return msisdn.startsWith('233') ? `0${msisdn.slice(3)}` : msisdn;
}

/**
 * Why a number may not receive an operator's bundle, or null when it may: the operator names no
 * network, the number's prefix is no known network's, or the two agree.
 */
export function networkMismatch(msisdn: string, operatorNetwork: Network | null): string | null {
  if (operatorNetwork === null) return null;
  const numberNetwork = networkOfNumber(msisdn);
  if (numberNetwork === null || numberNetwork === operatorNetwork) return null;
  return (
    `${nationalForm(msisdn)} is ${WITH_ARTICLE[numberNetwork]} number by its prefix; this is ${WITH_ARTICLE[operatorNetwork]} bundle. ` +
    `If the number was ported to ${NETWORK_NAMES[operatorNetwork]}, send allowPortedNumber: true`
  );
}
