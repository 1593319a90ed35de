/** Plaintext keys of test/fixtures/seed.json. */
export const KEYS = {
  superLive: 'service_live_superAgentLiveKey001',
  superTest: 'service_test_superAgentTestKey001',
  superRevoked: 'service_live_superAgentRevoked001',
  agentLive: 'service_live_agentLiveKey0000001',
  agentTest: 'service_test_agentTestKey0000001',
  customerLive: 'service_live_customerLiveKey00001',
  customerTest: 'service_test_customerTestKey00001',
  staffLive: 'service_live_staffLiveKey00000001',
  suspendedLive: 'service_live_suspendedLiveKey0001',
  suspendedTest: 'service_test_suspendedTestKey0001',
} as const;

/** The live and test keys agentProfile (test/support/seed.ts) gives a profile of a test's own seed. */
export const liveKeyOf = (id: string) => `service_live_${id.replace(/[^A-Za-z0-9]/g, '')}OrdLive0001`;
export const testKeyOf = (id: string) => `service_test_${id.replace(/[^A-Za-z0-9]/g, '')}OrdTest0001`;
