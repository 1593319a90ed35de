import type { Database } from '../../db/connection.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode } from '../../domain/types.js';
import type { Posting } from './postings.js';

export interface Balances {
  available: number;
  held: number;
}

/** A wallet whose available balance just fell below its alert threshold (pesewas). */
export interface LowBalanceCrossing {
  walletId: string;
  profileId: string;
  mode: Mode;
  available: number;
  held: number;
  threshold: number;
  now: number;
}

/** Told, inside the posting's unit, of each fall below a threshold (it records wallet.balance_low). */
export type LowBalanceListener = (tx: Tx, crossing: LowBalanceCrossing) => void;

export type PostManyResult =
  | { ok: true; after: Balances[] }
  /** `failedAt`: the first posting the wallet could not take; `balance`: the balances before it. */
  | { ok: false; failedAt: number; balance: Balances };

interface LedgerEntryInput extends Posting {
  availableAfter: number;
  heldAfter: number;
  now: number;
}

function ledgerRow(e: LedgerEntryInput) {
  return {
    wallet_id: e.walletId,
    kind: e.kind,
    available_delta: e.availableDelta,
    held_delta: e.heldDelta,
    available_after: e.availableAfter,
    held_after: e.heldAfter,
    order_id: e.orderId ?? null,
    order_item_id: e.orderItemId ?? null,
    rc_transaction_id: e.rcTransactionId ?? null,
    top_up_id: e.topUpId ?? null,
    idempotency_key: e.idempotencyKey,
    memo: e.memo.slice(0, 500),
    created_at: e.now,
  };
}

const LEDGER_BATCH = 500;

function walletStatements(sql: Statements) {
  return {
    byOwner: sql.prepare((qb, profileId: string, mode: Mode) =>
      qb.selectFrom('wallets').selectAll().where('profile_id', '=', profileId).where('mode', '=', mode),
    ),
    byId: sql.prepare((qb, walletId: string) => qb.selectFrom('wallets').selectAll().where('id', '=', walletId)),
    /** Moves money in one statement that refuses to take either balance below zero. */
    move: sql.prepare((qb, walletId: string, availableDelta: number, heldDelta: number, now: number) =>
      qb
        .updateTable('wallets')
        .set((eb) => ({ available: eb('available', '+', availableDelta), held: eb('held', '+', heldDelta), updated_at: now }))
        .where('id', '=', walletId)
        .where((eb) => eb.and([eb(eb('available', '+', availableDelta), '>=', 0), eb(eb('held', '+', heldDelta), '>=', 0)]))
        .returning(['available', 'held', 'alert_threshold', 'profile_id', 'mode']),
    ),
    setAlert: sql.prepare((qb, walletId: string, threshold: number | null, now: number) =>
      qb
        .updateTable('wallets')
        .set({ alert_threshold: threshold, updated_at: now })
        .where('id', '=', walletId)
        .returning(['available', 'held', 'alert_threshold', 'updated_at']),
    ),
  };
}

/** Wallets and their ledger: the only place balances change. */
export class WalletRepository {
  private readonly q: ReturnType<typeof walletStatements>;

  constructor(
    private readonly database: Database,
    private readonly onLowBalance: LowBalanceListener = () => {},
  ) {
    this.q = walletStatements(database.statements);
  }

  /** The owner's wallet as committed (read handle). */
  async find(owner: Owner) {
    return (await this.database.readRows(this.q.byOwner(owner.profileId, owner.mode)))[0];
  }

  async findInUnit(tx: Tx, owner: Owner) {
    return (await tx.execute(this.q.byOwner(owner.profileId, owner.mode))).rows[0];
  }

  async findById(tx: Tx, walletId: string) {
    return (await tx.execute(this.q.byId(walletId))).rows[0];
  }

  /** Sets (or with null clears) the low-balance threshold; the wallet as it is after. */
  async setAlert(tx: Tx, walletId: string, threshold: number | null, now: number) {
    return (await tx.execute(this.q.setAlert(walletId, threshold, now))).rows[0];
  }

  /** Creates the wallet at zero if it does not exist; true when it was created now. */
  async createIfMissing(tx: Tx, wallet: { id: string; profileId: string; mode: Mode; now: number }): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .insertInto('wallets')
        .values({
          id: wallet.id,
          profile_id: wallet.profileId,
          mode: wallet.mode,
          available: 0,
          held: 0,
          created_at: wallet.now,
          updated_at: wallet.now,
        })
        .onConflict((oc) => oc.columns(['profile_id', 'mode']).doNothing()),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /**
   * The only way money moves: the balance change, refused (null, nothing written) when either
   * balance would go below zero, and its ledger entry, queued to go out with the unit's next
   * writes. Returns the balances after it.
   */
  async post(tx: Tx, posting: Posting, now: number): Promise<Balances | null> {
    // A balance is never touched by a queued write: the move goes ahead of the queued ledger rows.
    const [after] = (await tx.executeAhead(this.q.move(posting.walletId, posting.availableDelta, posting.heldDelta, now))).rows;
    if (!after) return null;
    const balances = { available: Number(after.available), held: Number(after.held) };
    // A fall from at or above the threshold to below it: once per crossing (docs/webhooks.md, "Low-balance alert").
    const threshold = after.alert_threshold === null ? null : Number(after.alert_threshold);
    if (threshold !== null && balances.available < threshold && balances.available - posting.availableDelta >= threshold) {
      this.onLowBalance(tx, {
        walletId: posting.walletId,
        profileId: after.profile_id,
        mode: after.mode,
        ...balances,
        threshold,
        now,
      });
    }
    const entry = this.database.statements.insert(
      'ledger_entries',
      ledgerRow({ ...posting, availableAfter: balances.available, heldAfter: balances.held, now }),
    );
    // Entries keep the order of their postings (their ids are the ledger's order).
    tx.write({ ...entry, ordered: true });
    return balances;
  }

  /**
   * Several postings to one wallet, in order: the same ledger entries and balances as post() for
   * each in turn, written as one balance update and batched ledger rows (bulk imports). Nothing is
   * written when any step would take a balance below zero. A concurrent change to the wallet fails
   * the whole unit.
   */
  async postMany(tx: Tx, walletId: string, postings: readonly Posting[], now: number): Promise<PostManyResult> {
    const stray = postings.find((p) => p.walletId !== walletId);
    if (stray) throw new Error(`postMany on wallet ${walletId} was given a posting for wallet ${stray.walletId}`);
    const wallet = await this.findById(tx, walletId);
    if (!wallet) throw new Error(`no wallet ${walletId}`);
    const start = { available: Number(wallet.available), held: Number(wallet.held) };
    const running = { ...start };
    const after: Balances[] = [];
    const entries: LedgerEntryInput[] = [];
    for (const [index, posting] of postings.entries()) {
      const next = { available: running.available + posting.availableDelta, held: running.held + posting.heldDelta };
      if (next.available < 0 || next.held < 0) return { ok: false, failedAt: index, balance: { ...running } };
      Object.assign(running, next);
      after.push({ ...next });
      entries.push({ ...posting, availableAfter: next.available, heldAfter: next.held, now });
    }
    if (entries.length === 0) return { ok: true, after };
    const replaced = await tx.execute(
      tx.qb
        .updateTable('wallets')
        .set({ available: running.available, held: running.held, updated_at: now })
        .where('id', '=', walletId)
        .where('available', '=', start.available)
        .where('held', '=', start.held),
    );
    if (Number(replaced.numAffectedRows ?? 0) === 0) {
      throw new Error(`wallet ${walletId} changed while a batch of postings was being booked`);
    }
    for (let at = 0; at < entries.length; at += LEDGER_BATCH) {
      await tx.execute(tx.qb.insertInto('ledger_entries').values(entries.slice(at, at + LEDGER_BATCH).map(ledgerRow)));
    }
    return { ok: true, after };
  }

  // ---- ledger verify (read-only, inside its snapshot) ----

  /** Sum of every ledger entry per wallet. */
  async ledgerTotals(tx: Tx) {
    return tx.db
      .selectFrom('wallets as w')
      .leftJoin('ledger_entries as l', 'l.wallet_id', 'w.id')
      .select((eb) => [
        'w.id',
        'w.profile_id',
        'w.mode',
        'w.available',
        'w.held',
        eb.fn.coalesce(eb.fn.sum<number>('l.available_delta'), eb.lit(0)).as('ledger_available'),
        eb.fn.coalesce(eb.fn.sum<number>('l.held_delta'), eb.lit(0)).as('ledger_held'),
      ])
      .groupBy(['w.id', 'w.profile_id', 'w.mode', 'w.available', 'w.held'])
      .orderBy('w.id')
      .execute();
  }

  /**
   * Entries whose balances after do not follow from the entry before them on the same wallet (in
   * id order) and their own deltas: the ledger read in order must replay the wallet's history.
   */
  async brokenRunningBalances(tx: Tx) {
    const chained = tx.db
      .selectFrom('ledger_entries')
      .select((eb) => [
        'id',
        'wallet_id',
        'available_delta',
        'held_delta',
        'available_after',
        'held_after',
        eb.fn
          .agg<number | null>('lag', ['available_after'])
          .over((o) => o.partitionBy('wallet_id').orderBy('id'))
          .as('previous_available'),
        eb.fn
          .agg<number | null>('lag', ['held_after'])
          .over((o) => o.partitionBy('wallet_id').orderBy('id'))
          .as('previous_held'),
      ])
      .as('c');
    return tx.db
      .selectFrom(chained)
      .selectAll()
      .where('previous_available', 'is not', null)
      .where((eb) =>
        eb.or([
          eb(eb('previous_available', '+', eb.ref('available_delta')), '!=', eb.ref('available_after')),
          eb(eb('previous_held', '+', eb.ref('held_delta')), '!=', eb.ref('held_after')),
        ]),
      )
      .orderBy('id')
      .limit(100)
      .execute();
  }

  /** How many entries of each kind the ledger holds. */
  async entriesByKind(tx: Tx) {
    return tx.db
      .selectFrom('ledger_entries')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('entries')])
      .groupBy('kind')
      .orderBy('kind')
      .execute();
  }

  /** Every staff adjustment entry. */
  async adjustmentEntries(tx: Tx) {
    return tx.db
      .selectFrom('ledger_entries')
      .select([
        'id',
        'wallet_id',
        'available_delta',
        'held_delta',
        'idempotency_key',
        'memo',
        'order_id',
        'order_item_id',
        'rc_transaction_id',
        'top_up_id',
      ])
      .where('kind', '=', 'adjustment')
      .orderBy('id')
      .execute();
  }

  async countLedgerEntries(tx: Tx): Promise<number> {
    const row = await tx.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
