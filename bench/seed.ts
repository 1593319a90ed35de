import fs from 'node:fs';

/** The generated benchmark seed: the demo catalog, many funded profiles, a deep inventory, a long order history. */
export interface BenchSeedOptions {
  profiles: number;
  credentials: number;
  pastOrders: number;
  /**
   * The routes of every data package, by package id (docs/live-delivery.md, "Routes"): a package
   * not named gets none, so its live orders go to the sandbox (LIVE_SANDBOX=true). null for a build
   * without routes: the packages carry no `routes` field at all.
   */
  routes: Record<string, unknown[]> | null;
}

export const HEAVY_PROFILE = 'usr_bench_heavy';
export const HEAVY_KEY = 'service_live_benchHeavyWalletKey0001';
/** A SuperAgent whose only orders are bulk orders of 20 recipients (placed by bench/run.ts through the API). */
export const BULK_PROFILE = 'usr_bench_bulk';
export const BULK_KEY = 'service_live_benchBulkOrdersKey0001';
export const benchKey = (i: number) => `service_live_bench${String(i).padStart(6, '0')}Key`;

type Json = Record<string, unknown>;

export function buildBenchSeed(demoSeedPath: string, options: BenchSeedOptions): Json {
  const demo = JSON.parse(fs.readFileSync(demoSeedPath, 'utf8')) as Json & {
    resultCheckerPackages: Json[];
    dataPackages: Json[];
  };
  const profile = (id: string, i: number, key: string, live: number) => ({
    id,
    firstName: 'Bench',
    lastName: `Agent ${i}`,
    gender: 'Female',
    phoneNumber: '0244000000',
    email: `bench${i}@example.com`,
    role: 'SuperAgent',
    status: 'Active',
    countryCode: '+233',
    countryISO: 'GH',
    countryName: 'Ghana',
    referralCode: `BENCH${i}`,
    wallet: { live, test: 0 },
    apiKeys: [{ key }],
  });
  const profiles = Array.from({ length: options.profiles }, (_, i) => profile(`usr_bench_${i}`, i, benchKey(i), 1_000_000));
  profiles.push(profile(HEAVY_PROFILE, options.profiles, HEAVY_KEY, 1_000_000));
  profiles.push(profile(BULK_PROFILE, options.profiles + 1, BULK_KEY, 1_000_000));

  const rcPackages = demo.resultCheckerPackages.map((p, index) =>
    index === 0
      ? {
          ...p,
          credentials: Array.from({ length: options.credentials }, (_, i) => ({
            username: `BENCH${String(i).padStart(8, '0')}`,
            password: `${1000 + (i % 9000)}-${String(i).padStart(8, '0')}`,
          })),
        }
      : p,
  );

  const activePackage = demo.dataPackages.find((p) => p.status === 'Active' && p.operatorId === 'op_mtn') as Json;
  const start = Date.now() - options.pastOrders * 60_000;
  const orders = Array.from({ length: options.pastOrders }, (_, i) => ({
    id: `ord_bench_${String(i).padStart(6, '0')}`,
    profileId: HEAVY_PROFILE,
    mode: 'live',
    operatorId: activePackage.operatorId,
    productId: activePackage.productId,
    packageId: activePackage.id,
    beneficiaryMsisdn: `0244${String(i).padStart(6, '0')}`,
    state: i % 10 === 9 ? 'failed' : 'completed',
    createdAt: start + i * 60_000,
  }));

  // The demo's own routes (to simulators the bench does not run) never apply: the bench sets every package's.
  const dataPackages = demo.dataPackages.map(({ routes: _, ...p }) =>
    options.routes === null ? p : { ...p, routes: options.routes[p.id as string] ?? [] },
  );

  return {
    ...demo,
    dataPackages,
    resultCheckerPackages: rcPackages,
    profiles: [...(demo.profiles as Json[]), ...profiles],
    orders,
  };
}
