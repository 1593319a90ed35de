import fs from 'node:fs';
import path from 'node:path';
import { liveKeyOf, testKeyOf } from './keys.js';
import { ROOT } from './repo.js';

/** The seed every test app imports unless told otherwise. */
export const FIXTURE_SEED = path.join(ROOT, 'test/fixtures/seed.json');

interface SeedShape {
  resultCheckerPackages: Record<string, unknown>[];
  profiles: Record<string, unknown>[];
  [section: string]: unknown;
}

/** The shared fixture plus extra packages / profiles of one test file (the fixture file itself is untouched). */
export function fixtureWith(extra: { resultCheckerPackages?: object[]; profiles?: object[] } = {}): SeedShape {
  const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as SeedShape;
  seed.resultCheckerPackages.push(...((extra.resultCheckerPackages ?? []) as Record<string, unknown>[]));
  seed.profiles.push(...((extra.profiles ?? []) as Record<string, unknown>[]));
  return seed;
}

/** A profile for a test's own seed (an Agent unless told otherwise), with one key per mode: liveKeyOf(id), testKeyOf(id). */
export function agentProfile(id: string, opts: { live?: number; test?: number; role?: string } = {}) {
  return {
    id,
    firstName: id,
    lastName: 'Test',
    gender: 'Female',
    phoneNumber: '0244999999',
    email: `${id}@example.com`,
    role: opts.role ?? 'Agent',
    status: 'Active',
    countryCode: '+233',
    countryISO: 'GH',
    countryName: 'Ghana',
    referralCode: `REF_${id}`,
    wallet: { live: opts.live ?? 0, test: opts.test ?? 0 },
    apiKeys: [{ key: liveKeyOf(id) }, { key: testKeyOf(id) }],
  };
}
