import type { Config } from '../config.js';
import type { Database } from '../db/connection.js';
import { SandboxStore } from './sandbox/store.js';
import { SandboxProvider } from './sandbox/adapter.js';
import type { DataProvider, ProviderRegistry } from './legacy.js';

/**
 * Test mode always uses the sandbox; live mode uses the configured provider, which is the sandbox
 * as long as no real provider is configured (none exists yet): docs/api.md, "Live and test modes".
 */
export function createProviders(config: Config, database: Database): ProviderRegistry {
  const sandbox = new SandboxProvider(new SandboxStore(database), {
    settleMs: config.sandboxSettleMs,
    // Longer than the worker waits for a provider call, so its timeout is what ends the call.
    hangMs: config.workerTuning.providerTimeoutMs + 1_000,
  });
  const live: DataProvider = sandbox;
  return { forMode: (mode) => (mode === 'test' ? sandbox : live) };
}
