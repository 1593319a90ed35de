import type { Repositories } from '../repositories.js';
import type { NewOrder, NewOrderItem } from '../db/schema.js';
import type { Tx } from '../db/unit-of-work.js';
import type { Role } from '../domain/types.js';
import { newId, shortReference } from '../lib/ids.js';
import { formatGhs as ghs, fromGhs } from '../lib/money.js';
import { normaliseGhanaMsisdn } from '../lib/phone.js';
import type { PackageWithParents } from '../modules/catalog/repository.js';
import { itemRow, orderRow } from '../modules/orders/rows.js';
import { postings } from '../modules/wallet/postings.js';
import { entryName, SeedError } from './errors.js';
import type { SeedFile, SeedOrder } from './schema.js';

/**
 * The seed file's `orders` section: past data orders migrated from the old platform. Each one is
 * written as the live path leaves a settled single order (order row, one item, hold then settle or
 * release through the ledger), so order reads and `ledger verify` treat it like any other. The
 * wallet pays for completed history. History is immutable: a known order id is skipped.
 */

/** An imported order is taken to have settled this long after it was placed (never after the import). */
const SETTLE_AFTER_MS = 5_000;
const FAILED_MESSAGE = 'Imported as failed';
/** Orders booked per batch: one wallet update per wallet, batched ledger and item rows. */
const WRITE_CHUNK = 500;

export interface PreparedOrder {
  index: number;
  entry: SeedOrder;
  msisdn: string;
  /** Pesewas from the file, or null: the package's price for the profile's role. */
  amount: number | null;
}

export interface OrderHistorySummary {
  imported: number;
  skipped: number;
}

type Package = PackageWithParents;

/** Checks that need no database, in file order; runs before anything is written. */
export function prepareOrderHistory(seed: SeedFile, now: number): PreparedOrder[] {
  return (seed.orders ?? []).map((entry, index) => {
    const name = entryName(seed, 'orders', index);
    const msisdn = normaliseGhanaMsisdn(entry.beneficiaryMsisdn);
    if (msisdn === null) {
      throw new SeedError(`${name} field beneficiaryMsisdn: "${entry.beneficiaryMsisdn}" is not a valid Ghana mobile number`);
    }
    let amount: number | null = null;
    if (entry.amount !== undefined) {
      amount = fromGhs(entry.amount);
      if (amount === null) throw new SeedError(`${name} field amount: ${entry.amount} is not a GHS amount with at most two decimals`);
    }
    if (entry.createdAt > now) throw new SeedError(`${name} field createdAt: ${entry.createdAt} is in the future`);
    return { index, entry, msisdn, amount };
  });
}

interface Resolved extends PreparedOrder {
  pkg: Package;
  walletId: string;
}

interface Priced extends Resolved {
  reference: string;
  itemId: string;
  /** Pesewas charged. */
  price: number;
}

/**
 * Writes the orders of `prepared` that do not exist yet, inside the import's transaction.
 * Throws SeedError naming the entry for an unknown profile or package, a package of another
 * product or operator, or a wallet that cannot afford the order.
 */
export async function importOrderHistory(
  tx: Tx,
  repositories: Repositories,
  seed: SeedFile,
  prepared: PreparedOrder[],
  now: number,
): Promise<OrderHistorySummary> {
  if (prepared.length === 0) return { imported: 0, skipped: 0 };
  const resolved = await resolveReferences(tx, repositories, seed, prepared);
  const existing = await repositories.orders.existingIds(tx, resolved.map((o) => o.entry.id));
  // Oldest first: the wallet pays for its history in the order it happened.
  const fresh = resolved
    .filter((o) => !existing.has(o.entry.id))
    .sort((a, b) => a.entry.createdAt - b.entry.createdAt || a.index - b.index);
  const references = await freeShortReferences(tx, repositories, fresh.length);

  for (let start = 0; start < fresh.length; start += WRITE_CHUNK) {
    const chunk = fresh.slice(start, start + WRITE_CHUNK).map((order, offset): Priced => {
      const reference = references[start + offset];
      if (reference === undefined) throw new Error('short references ran out');
      return { ...order, reference, itemId: newId('itm'), price: order.amount ?? Number(order.pkg.price) };
    });
    const booked = await bookChunk(tx, repositories, seed, chunk, now);
    const rows = booked.map((b) => orderRows(b, now));
    await repositories.orders.insertHistory(
      tx,
      rows.map((r) => r.row),
      rows.map((r) => r.item),
    );
  }
  return { imported: fresh.length, skipped: resolved.length - fresh.length };
}

/** Profile, package (priced for the profile's role) and wallet of every entry, checked in file order. */
async function resolveReferences(tx: Tx, repositories: Repositories, seed: SeedFile, prepared: PreparedOrder[]): Promise<Resolved[]> {
  const roles = await repositories.profiles.roles(tx, [...new Set(prepared.map((o) => o.entry.profileId))]);
  const packages = new Map<string, Package | null>();
  const wallets = new Map<string, string | null>();
  const resolved: Resolved[] = [];
  for (const order of prepared) {
    const { entry } = order;
    const name = entryName(seed, 'orders', order.index);
    const role: Role | undefined = roles.get(entry.profileId);
    if (role === undefined) throw new SeedError(`${name}: profileId "${entry.profileId}" does not exist`);

    const packageKey = `${entry.packageId}/${role}`;
    let pkg = packages.get(packageKey);
    if (pkg === undefined) {
      pkg = (await repositories.catalog.findPackage(tx, entry.packageId, role)) ?? null;
      packages.set(packageKey, pkg);
    }
    if (pkg === null) throw new SeedError(`${name}: packageId "${entry.packageId}" does not exist`);
    if (pkg.product_id !== entry.productId || pkg.operator_id !== entry.operatorId) {
      throw new SeedError(
        `${name}: package "${pkg.id}" belongs to product "${pkg.product_id}" of operator "${pkg.operator_id}", not product "${entry.productId}" of operator "${entry.operatorId}"`,
      );
    }

    const walletKey = `${entry.profileId}/${entry.mode}`;
    let walletId = wallets.get(walletKey);
    if (walletId === undefined) {
      walletId = (await repositories.wallets.findInUnit(tx, { profileId: entry.profileId, mode: entry.mode }))?.id ?? null;
      wallets.set(walletKey, walletId);
    }
    if (walletId === null) throw new SeedError(`${name}: profile "${entry.profileId}" has no ${entry.mode} wallet`);
    resolved.push({ ...order, pkg, walletId });
  }
  return resolved;
}

/** `count` short references no order uses yet. */
async function freeShortReferences(tx: Tx, repositories: Repositories, count: number): Promise<string[]> {
  const free = new Set<string>();
  while (free.size < count) {
    const candidates = new Set<string>();
    while (free.size + candidates.size < count) {
      const reference = shortReference('DB');
      if (!free.has(reference)) candidates.add(reference);
    }
    const taken = await repositories.orders.takenShortReferences(tx, [...candidates]);
    for (const reference of candidates) if (!taken.has(reference)) free.add(reference);
  }
  return [...free];
}

interface Booked {
  order: Priced;
  before: number;
  after: number;
}

/**
 * Moves the money for `chunk` (oldest first) exactly as the live path would: per order a hold,
 * then a settle (completed) or release (failed), made by the same constructors, booked through
 * postMany (one balance update per wallet). Booked now: the ledger records
 * when money moved in this system. Throws SeedError naming the first order a wallet cannot afford.
 */
async function bookChunk(tx: Tx, repositories: Repositories, seed: SeedFile, chunk: Priced[], now: number): Promise<Booked[]> {
  const byWallet = new Map<string, Priced[]>();
  for (const o of chunk) byWallet.set(o.walletId, [...(byWallet.get(o.walletId) ?? []), o]);

  const booked = new Map<Priced, Booked>();
  for (const [walletId, orders] of byWallet) {
    const history = orders.flatMap(({ entry, itemId, price }) => {
      const delivery = { walletId, orderType: 'data', orderId: entry.id, itemId, attempt: 1, amount: price, imported: true } as const;
      return [postings.hold(delivery), entry.state === 'completed' ? postings.settle(delivery) : postings.release(delivery)];
    });
    const result = await repositories.wallets.postMany(tx, walletId, history, now);
    if (!result.ok) {
      const o = orders[Math.floor(result.failedAt / 2)];
      if (!o) throw new Error('postMany failed outside the chunk');
      throw new SeedError(
        `${entryName(seed, 'orders', o.index)}: the ${o.entry.mode} wallet of profile "${o.entry.profileId}" cannot afford it (${ghs(result.balance.available)} available, ${ghs(o.price)} required)`,
      );
    }
    orders.forEach((o, k) => {
      const afterHold = result.after[2 * k];
      if (!afterHold) throw new Error('postMany returned too few balances');
      booked.set(o, { order: o, before: afterHold.available + o.price, after: afterHold.available });
    });
  }
  return chunk.map((o) => {
    const b = booked.get(o);
    if (!b) throw new Error('an order of the chunk was not booked');
    return b;
  });
}

/** The order and item rows the live path leaves for a settled single order. */
function orderRows({ order, before, after }: Booked, now: number): { row: NewOrder; item: NewOrderItem } {
  const { entry, pkg, price, itemId } = order;
  const completed = entry.state === 'completed';
  const settledAt = Math.min(entry.createdAt + SETTLE_AFTER_MS, now);
  const errorMessage = completed ? null : FAILED_MESSAGE;
  const completedAt = completed ? settledAt : null;
  const row = orderRow({
    id: entry.id,
    profileId: entry.profileId,
    mode: entry.mode,
    type: 'data',
    state: entry.state,
    shortReference: order.reference,
    beneficiaryMsisdn: order.msisdn,
    operator: { id: pkg.operator_id, name: pkg.operator_name },
    product: { id: pkg.product_id, name: pkg.product_name },
    packageId: pkg.id,
    packageLabel: pkg.label,
    amount: price,
    walletBalanceBefore: before,
    walletBalanceAfter: after,
    errorMessage,
    submittedAt: entry.createdAt,
    completedAt,
    createdAt: entry.createdAt,
    updatedAt: settledAt,
  });
  const item = itemRow({
    id: itemId,
    orderId: entry.id,
    idx: 0,
    mode: entry.mode,
    beneficiaryMsisdn: order.msisdn,
    packageId: pkg.id,
    packageLabel: pkg.label,
    amount: price,
    status: entry.state,
    errorMessage,
    submittedAt: entry.createdAt,
    completedAt,
    createdAt: entry.createdAt,
    updatedAt: settledAt,
  });
  return { row, item };
}
