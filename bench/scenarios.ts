import { benchKey, HEAVY_KEY } from './seed.js';

export type ScenarioName =
  | 'ceiling'
  | 'profile'
  | 'data-packages'
  | 'orders-page'
  | 'orders-walk'
  | 'buy-single-spread'
  | 'buy-single-one-wallet'
  | 'rc-buy-single'
  | 'buy-bulk-20';

export const READ_SCENARIOS: ScenarioName[] = ['profile', 'data-packages', 'orders-page', 'orders-walk'];
export const PURCHASE_SCENARIOS: ScenarioName[] = ['buy-single-spread', 'buy-single-one-wallet', 'rc-buy-single', 'buy-bulk-20'];

export interface ScenarioParams {
  name: ScenarioName;
  profiles: number;
  /** Distinct per scenario run, so no two runs share a beneficiary number (in-flight rule). */
  numberSpace: number;
  catalog: { operatorId: string; productId: string; packageIds: string[]; rcPackageId: string };
}

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

/** Pages of 20 in one walk of the heavy profile's history (bench/run.ts seeds 20 000 past orders). */
const WALK_PAGES = 1_001;

// Prefixes whose whole 7-digit range is valid for libphonenumber (059 0…, 025 … are not).
const PREFIXES = ['024', '054', '055', '020', '050', '026', '027', '057', '053', '056'];

/** Valid, distinct Ghana mobile numbers: 10 prefixes × 10^7 numbers. */
function numberSource(space: number) {
  const prefix = PREFIXES[space % PREFIXES.length] ?? '024';
  let next = Math.floor(space / PREFIXES.length) * 1_000_000;
  return () => `${prefix}${String(next++ % 10_000_000).padStart(7, '0')}`;
}

export function buildRequests(p: ScenarioParams): Request[] {
  const key = (() => {
    let i = 0;
    return () => benchKey(i++ % p.profiles);
  })();
  const number = numberSource(p.numberSpace);
  const json = { 'content-type': 'application/json' };
  const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)] ?? list[0] ?? '';

  const get = (path: string, fixedKey?: string): Request => ({
    method: 'GET',
    path,
    headers: {},
    setupRequest: (req) => ({ ...req, headers: { 'x-api-key': fixedKey ?? key() } }),
  });

  switch (p.name) {
    case 'ceiling':
      return [{ method: 'GET', path: '/', headers: {} }];
    case 'profile':
      return [get('/api/v1/profile')];
    case 'data-packages':
      return [get('/api/v1/data-packages')];
    case 'orders-page':
      return [get('/api/v1/orders?limit=20', HEAVY_KEY)];
    case 'orders-walk':
      // autocannon clears a connection's context each time it wraps round the request list, so
      // a one-entry list would fetch page 1 every time: the list is one full walk long instead.
      return Array.from({ length: WALK_PAGES }, (): Request => ({
        method: 'GET',
        path: '/api/v1/orders?limit=20',
        headers: { 'x-api-key': HEAVY_KEY },
        setupRequest: (req, context) => ({
          ...req,
          path: typeof context.cursor === 'string' ? `/api/v1/orders?limit=20&cursor=${context.cursor}` : '/api/v1/orders?limit=20',
        }),
        onResponse: (status, body, context) => {
          if (status !== 200) return;
          const data = (JSON.parse(body) as { data: { isDone: boolean; continueCursor: string } }).data;
          context.cursor = data.isDone ? undefined : data.continueCursor;
        },
      }));
    case 'buy-single-spread':
    case 'buy-single-one-wallet':
      return [
        {
          method: 'POST',
          path: '/api/v1/data-bundles/buy-single',
          headers: json,
          setupRequest: (req) => ({
            ...req,
            headers: { ...json, 'x-api-key': p.name === 'buy-single-one-wallet' ? benchKey(0) : key() },
            body: JSON.stringify({
              operatorId: p.catalog.operatorId,
              productId: p.catalog.productId,
              packageId: pick(p.catalog.packageIds),
              beneficiaryMsisdn: number(),
            }),
          }),
        },
      ];
    case 'rc-buy-single':
      return [
        {
          method: 'POST',
          path: '/api/v1/result-checker/buy-single',
          headers: json,
          setupRequest: (req) => ({
            ...req,
            headers: { ...json, 'x-api-key': key() },
            body: JSON.stringify({ packageId: p.catalog.rcPackageId, recipientPhone: number() }),
          }),
        },
      ];
    case 'buy-bulk-20':
      return [
        {
          method: 'POST',
          path: '/api/v1/data-bundles/buy-bulk',
          headers: json,
          setupRequest: (req) => ({
            ...req,
            headers: { ...json, 'x-api-key': key() },
            body: JSON.stringify({
              operatorId: p.catalog.operatorId,
              productId: p.catalog.productId,
              items: Array.from({ length: 20 }, () => ({ packageId: pick(p.catalog.packageIds), beneficiaryMsisdn: number() })),
            }),
          }),
        },
      ];
  }
}
