import type { Config } from '../config.js';
import type { Database } from '../db/connection.js';
import { DtoneAdapter, readDtoneCallback } from './dtone/adapter.js';
import { HubtelAdapter, readHubtelCallback } from './hubtel/adapter.js';
import { readReloadlyCallback, ReloadlyAdapter } from './reloadly/adapter.js';
import { verifyReloadlySignature } from './reloadly/signature.js';
import { SandboxAdapter } from './sandbox/adapter.js';
import { SandboxStore } from './sandbox/store.js';
import { UPSTREAM_NAMES, type CallbackReader, type ProviderName, type UpstreamAdapter, type UpstreamCatalog } from './types.js';

/** The upstreams this process can deliver through (docs/live-delivery.md, "Providers"). */
export interface Providers {
  /** The adapter of `name`, when this configuration has it (the sandbox always). */
  adapter(name: ProviderName): UpstreamAdapter | undefined;
  /**
   * The providers a live route may use: each real upstream whose settings are complete, and the
   * sandbox only where it may stand in for live deliveries (outside production, or LIVE_SANDBOX).
   */
  readonly enabled: ReadonlySet<ProviderName>;
}

export function enabledProviders(config: Config): ReadonlySet<ProviderName> {
  const enabled = new Set<ProviderName>();
  for (const name of UPSTREAM_NAMES) if (config.upstreams[name] !== null) enabled.add(name);
  if (config.upstreams.liveSandbox) enabled.add('sandbox');
  return enabled;
}

export function createProviders(config: Config, database: Database, clock: () => number = Date.now): Providers {
  const timeoutMs = config.workerTuning.providerTimeoutMs;
  const adapters = new Map<ProviderName, UpstreamAdapter>();
  adapters.set('sandbox', new SandboxAdapter(new SandboxStore(database), { settleMs: config.sandboxSettleMs, timeoutMs }, clock));
  const { dtone, hubtel, reloadly } = config.upstreams;
  if (reloadly) adapters.set('reloadly', new ReloadlyAdapter(reloadly, { timeoutMs, clock }));
  if (hubtel) adapters.set('hubtel', new HubtelAdapter(hubtel, { timeoutMs, clock, balanceUrl: hubtel.balanceUrl }));
  if (dtone) adapters.set('dtone', new DtoneAdapter(dtone, { timeoutMs, clock }));
  return { adapter: (name) => adapters.get(name), enabled: enabledProviders(config) };
}

/** The adapters that can read their upstream's catalogue (every real upstream's), by name: what a route is checked against when staff save it. */
export function upstreamCatalogs(providers: Providers): (name: ProviderName) => UpstreamCatalog | undefined {
  return (name) => {
    const adapter: (UpstreamAdapter & Partial<UpstreamCatalog>) | undefined = providers.adapter(name);
    return adapter?.offers === undefined ? undefined : (adapter as UpstreamAdapter & UpstreamCatalog);
  };
}

/** Where an upstream calls back (docs/live-delivery.md, "Callbacks"), or null when it is not told (no PUBLIC_BASE_URL). */
export function callbackUrlFor(config: Config, provider: ProviderName): string | null {
  const { publicBaseUrl, callbackToken } = config.upstreams;
  if (publicBaseUrl === null) return null;
  if (provider === 'hubtel' || provider === 'dtone') return callbackToken === null ? null : `${publicBaseUrl}/callbacks/${provider}/${callbackToken}`;
  return null;
}

/** How each upstream's callback body names its transaction (docs/live-delivery.md, "Callbacks"). */
export const CALLBACK_READERS: { hubtel: CallbackReader; reloadly: CallbackReader; dtone: CallbackReader } = {
  hubtel: readHubtelCallback,
  reloadly: readReloadlyCallback,
  dtone: readDtoneCallback,
};

/** Checks a Reloadly callback's signature, or null when no RELOADLY_WEBHOOK_SECRET is set (the route then answers 404). */
export function reloadlySignatureCheck(config: Config): ((rawBody: string, timestamp: string | undefined, signature: string | undefined) => boolean) | null {
  const secret = config.upstreams.reloadly?.webhookSecret ?? null;
  if (secret === null) return null;
  return (rawBody, timestamp, signature) => verifyReloadlySignature(rawBody, timestamp, signature, secret);
}
