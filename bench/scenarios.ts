import { benchKey, BULK_KEY, HEAVY_KEY } from './seed.js';

export type ScenarioName =
  | 'ceiling'
  | 'profile'
  | 'data-packages'
  | 'orders-page'
  | 'orders-page-bulk'
  | 'orders-walk'
  | 'buy-single-spread'
  | 'buy-single-upstream'
  | 'buy-single-one-wallet'
  | 'rc-buy-single'
  | 'buy-bulk-20';

export const READ_SCENARIOS: ScenarioName[] = ['profile', 'data-packages', 'orders-page', 'orders-page-bulk', 'orders-walk'];
export const PURCHASE_SCENARIOS: ScenarioName[] = [
  'buy-single-spread',
  'buy-single-upstream',
  'buy-single-one-wallet',
  'rc-buy-single',
  'buy-bulk-20',
];
/** Scenarios delivered through a real upstream's simulator (Reloadly): only builds with upstreams run them. */
export const UPSTREAM_SCENARIOS: ScenarioName[] = ['buy-single-upstream'];

export interface ScenarioParams {
  name: ScenarioName;
  profiles: number;
  /** Distinct per scenario run, so no two runs share a beneficiary number (in-flight rule). */
  numberSpace: number;
  catalog: {
    operatorId: string;
    productId: string;
    /** Packages without routes: their live orders go to the sandbox. */
    packageIds: string[];
    /** Packages of the same product routed to Reloadly alone (`buy-single-upstream`). */
    upstreamPackageIds: string[];
    rcPackageId: string;
  };
}

export interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

const CURSOR = /"continueCursor":"([^"]*)"/;

/** Pages of 20 in one walk of the heavy profile's history (bench/run.ts seeds 20 000 past orders). */
const WALK_PAGES = 1_001;

// MTN's prefixes whose whole 7-digit range is valid for libphonenumber (059 0…, 025 … are not): the
// bench buys MTN bundles, and a number of another network by its prefix is refused (src/domain/networks.ts).
const PREFIXES = ['024', '054', '055', '053'];

/** Beneficiary numbers reserved for one connection of one run: 10 000 of them, never shared. */
const NUMBERS_PER_CONNECTION = 10_000;
/** Room for this many connections per run in the numbering (run × this + connection). */
const MAX_CONNECTIONS = 256;
/**
 * The sandbox's test numbers end in 0000–0004 (fail, slow, refused, time-out, poll error: README
 * "test numbers"); a benchmark purchase must complete normally, so those endings are skipped.
 */
const TEST_NUMBER_ENDINGS = 5;
/** Numbers one connection can draw in one run: its block without the test numbers. */
const USABLE_PER_CONNECTION = NUMBERS_PER_CONNECTION - TEST_NUMBER_ENDINGS;

/**
 * Valid Ghana mobile numbers, distinct for every (run, connection): 4 prefixes × 10^7 numbers, a
 * block of 10 000 (one value of the last four digits each) per (run, connection), never a test number.
 */
export function numberSource(space: number, connection: number): () => string {
  const block = space * MAX_CONNECTIONS + connection;
  const perPrefix = 10_000_000 / NUMBERS_PER_CONNECTION;
  const prefix = PREFIXES[Math.floor(block / perPrefix) % PREFIXES.length] ?? '024';
  const first = (block % perPrefix) * NUMBERS_PER_CONNECTION;
  let drawn = 0;
  return () => {
    if (drawn >= USABLE_PER_CONNECTION) throw new Error(`connection ${connection} of run ${space} drew all its numbers`);
    // The block starts at a multiple of 10 000, so the offset is the number's last four digits.
    const offset = TEST_NUMBER_ENDINGS + drawn++;
    return `${prefix}${String(first + offset).padStart(7, '0')}`;
  };
}

/**
 * The requests one connection sends, in a loop. Like the ceiling's single request they are built
 * once, before the clock starts, so the load generator spends the same few microseconds on every
 * request in every scenario and the ratio measures the service, not the generator. A purchase list
 * holds more requests than a connection sends in a run, so no beneficiary number repeats.
 */
export function connectionRequests(p: ScenarioParams, connection: number): Request[] {
  const number = numberSource(p.numberSpace, connection);
  const key = (i: number) => benchKey((connection * 7919 + i) % p.profiles);
  const json = { 'content-type': 'application/json' };
  const packageId = (i: number) => p.catalog.packageIds[i % p.catalog.packageIds.length] ?? '';
  const list = (length: number, build: (i: number) => Request): Request[] => Array.from({ length }, (_, i) => build(i));
  const get = (path: string) => list(p.profiles, (i) => ({ method: 'GET', path, headers: { 'x-api-key': key(i) } }));

  switch (p.name) {
    case 'ceiling':
      return [{ method: 'GET', path: '/', headers: {} }];
    case 'profile':
      return get('/api/v1/profile');
    case 'data-packages':
      return get('/api/v1/data-packages');
    case 'orders-page':
      return [{ method: 'GET', path: '/api/v1/orders?limit=20', headers: { 'x-api-key': HEAVY_KEY } }];
    case 'orders-page-bulk':
      // The newest 20 orders of this SuperAgent are bulk orders of 20 recipients (bench/run.ts places them).
      return [{ method: 'GET', path: '/api/v1/orders?limit=20', headers: { 'x-api-key': BULK_KEY } }];
    case 'orders-walk':
      // The next page's path depends on the last answer, so this list is built as it goes.
      // autocannon clears a connection's context each time it wraps round the request list, so
      // a one-entry list would fetch page 1 every time: the list is one full walk long instead.
      return list(WALK_PAGES, () => ({
        method: 'GET',
        path: '/api/v1/orders?limit=20',
        headers: { 'x-api-key': HEAVY_KEY },
        setupRequest: (req, context) => ({
          ...req,
          path:
            typeof context.cursor === 'string' ? `/api/v1/orders?limit=20&cursor=${context.cursor}` : '/api/v1/orders?limit=20',
        }),
        // The cursor is read off the end of the page without parsing all of it: parsing 20 orders
        // per response would make the load generator, not the service, the bottleneck.
        onResponse: (status, body, context) => {
          if (status !== 200) return;
          const done = body.includes('"isDone":true');
          context.cursor = done ? undefined : CURSOR.exec(body.slice(-400))?.[1];
        },
      }));
    case 'buy-single-spread':
    case 'buy-single-upstream':
    case 'buy-single-one-wallet':
      return list(4_000, (i) => ({
        method: 'POST',
        path: '/api/v1/data-bundles/buy-single',
        headers: { ...json, 'x-api-key': p.name === 'buy-single-one-wallet' ? benchKey(0) : key(i) },
        body: JSON.stringify({
          operatorId: p.catalog.operatorId,
          productId: p.catalog.productId,
          packageId:
            p.name === 'buy-single-upstream'
              ? (p.catalog.upstreamPackageIds[i % p.catalog.upstreamPackageIds.length] ?? '')
              : packageId(i),
          beneficiaryMsisdn: number(),
        }),
      }));
    case 'rc-buy-single':
      return list(4_000, (i) => ({
        method: 'POST',
        path: '/api/v1/result-checker/buy-single',
        headers: { ...json, 'x-api-key': key(i) },
        body: JSON.stringify({ packageId: p.catalog.rcPackageId, recipientPhone: number() }),
      }));
    case 'buy-bulk-20':
      return list(Math.floor(USABLE_PER_CONNECTION / 20), (i) => ({
        method: 'POST',
        path: '/api/v1/data-bundles/buy-bulk',
        headers: { ...json, 'x-api-key': key(i) },
        body: JSON.stringify({
          operatorId: p.catalog.operatorId,
          productId: p.catalog.productId,
          items: Array.from({ length: 20 }, (_, j) => ({ packageId: packageId(i + j), beneficiaryMsisdn: number() })),
        }),
      }));
  }
}
