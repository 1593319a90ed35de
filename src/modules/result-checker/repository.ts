import type { Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB, RcTransactionState } from '../../db/schema.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode, Role } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import { reverseCompletedOrder } from '../orders/repository.js';
import { orderRow } from '../orders/rows.js';
import { recordLedgerEntries, walletNetsAgainstRecords } from '../wallet/ledger-verify-repository.js';
import type { CostedCredential, CredentialCipher } from './credential-crypto.js';

const RC_KINDS = ['rc_debit', 'rc_refund', 'rc_reversal'] as const;
const INSERT_BATCH = 200;

function packagesForRole(db: Kysely<DB>, role: Role) {
  return db
    .selectFrom('rc_packages as p')
    .leftJoin('rc_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'p.id').on('rp.role', '=', role))
    .select((eb) => ['p.id', 'p.name', 'p.status', eb.fn.coalesce('rp.price', 'p.price').as('price')]);
}

export type RcPackageRow = Awaited<ReturnType<ReturnType<typeof packagesForRole>['executeTakeFirstOrThrow']>>;

function rcStatements(sql: Statements) {
  return {
    packageForRole: sql.prepare((qb, packageId: string, role: Role) => packagesForRole(qb, role).where('p.id', '=', packageId)),
    /**
     * Takes the oldest unassigned credential of the package in one statement. PostgreSQL skips rows
     * another transaction is taking (no waiting, no double assignment); SQLite has a single writer.
     * The `assigned_transaction_id is null` re-check and the unique rc_transactions.credential_id
     * are the backstops.
     */
    assign: sql.prepare((qb, packageId: string, transactionId: string, now: number) => {
      let next = qb
        .selectFrom('rc_credentials')
        .select('id')
        .where('package_id', '=', packageId)
        .where('assigned_transaction_id', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .limit(1);
      if (sql.dialect === 'postgres') next = next.forUpdate().skipLocked();
      return qb
        .updateTable('rc_credentials')
        .set({ assigned_transaction_id: transactionId, assigned_at: now })
        .where('id', '=', next)
        .where('assigned_transaction_id', 'is', null)
        .returning(['id', 'secret']);
    }),
    activePackages: sql.prepare((qb, role: Role) =>
      qb
        .selectFrom('rc_packages as p')
        .leftJoin('rc_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'p.id').on('rp.role', '=', role))
        .select((eb) => [
          'p.id',
          'p.code',
          'p.name',
          'p.display_name',
          'p.description',
          'p.priority',
          'p.check_limit',
          'p.includes_pdf',
          eb.fn.coalesce('rp.price', 'p.price').as('price'),
          eb
            .selectFrom('rc_credentials as c')
            .select((sub) => sub.fn.countAll<number>().as('n'))
            .whereRef('c.package_id', '=', 'p.id')
            .where('c.assigned_transaction_id', 'is', null)
            .as('stock'),
        ])
        .where('p.status', '=', 'Active')
        .orderBy((eb) => eb.case().when('p.priority', 'is', null).then(1).else(0).end())
        .orderBy('p.priority')
        .orderBy('p.name'),
    ),
  };
}

/** A result-checker sale as it is recorded: its rc_transactions row and the order GET /orders lists. */
export interface SaleRecord {
  /** Shared by the rc transaction and its order row: one purchase, one id. */
  id: string;
  shortReference: string;
  profileId: string;
  mode: Mode;
  packageId: string;
  packageName: string;
  amount: number;
  buyerPhone: string;
  state: Extract<RcTransactionState, 'completed' | 'failed'>;
  credentialId: string | null;
  credentialSecret: string | null;
  bulkId: string | null;
  errorMessage: string | null;
  walletBalanceBefore: number;
  walletBalanceAfter: number;
  now: number;
}

export interface RcPackageUpsert {
  id: string;
  code: string;
  name: string;
  displayName: string;
  description: string | null;
  status: 'Active' | 'Inactive';
  priority: number | null;
  checkLimit: number | null;
  includesPdf: boolean | null;
  price: number;
  rolePrices: { role: Role; price: number }[];
}

/** Result-checker packages, their credential inventory and the sales. */
export class ResultCheckerRepository {
  private readonly q: ReturnType<typeof rcStatements>;

  constructor(private readonly database: Database) {
    this.q = rcStatements(database.statements);
  }

  /** Packages with the price the given role pays (role price, else the package price); read handle. */
  async findForRole(packageIds: readonly string[], role: Role): Promise<RcPackageRow[]> {
    const ids = [...new Set(packageIds)];
    if (ids.length === 0) return [];
    if (ids.length === 1 && ids[0] !== undefined) return this.database.readRows(this.q.packageForRole(ids[0], role));
    return packagesForRole(this.database.read, role).where('p.id', 'in', ids).execute();
  }

  /** findForRole inside a unit, as the unit sees them. */
  async findForRoleInUnit(tx: Tx, packageIds: readonly string[], role: Role): Promise<RcPackageRow[]> {
    const ids = [...new Set(packageIds)];
    if (ids.length === 0) return [];
    if (ids.length === 1 && ids[0] !== undefined) return (await tx.execute(this.q.packageForRole(ids[0], role))).rows;
    return (await tx.execute(packagesForRole(tx.qb, role).where('p.id', 'in', ids))).rows;
  }

  /** Active packages priced for `role`, with their live stock (GET /api/v1/result-checker/packages). */
  async listActive(role: Role) {
    return this.database.readRows(this.q.activePackages(role));
  }

  async packageExists(tx: Tx, packageId: string): Promise<boolean> {
    return (await tx.execute(tx.qb.selectFrom('rc_packages').select('id').where('id', '=', packageId))).rows.length > 0;
  }

  /** Every package (any status) with its unassigned credentials: the staff's stock report. */
  async stockByPackage() {
    return this.database.read
      .selectFrom('rc_packages as p')
      .select((eb) => [
        'p.id',
        'p.code',
        'p.name',
        'p.status',
        eb
          .selectFrom('rc_credentials as c')
          .select((c) => c.fn.countAll<string | number>().as('n'))
          .whereRef('c.package_id', '=', 'p.id')
          .where('c.assigned_transaction_id', 'is', null)
          .as('stock'),
        eb
          .selectFrom('rc_credentials as c')
          .select((c) => c.fn.countAll<string | number>().as('n'))
          .whereRef('c.package_id', '=', 'p.id')
          .where('c.voided_at', 'is not', null)
          .as('voided'),
      ])
      .orderBy('p.id')
      .execute();
  }

  async countUnassigned(packageId: string): Promise<number> {
    const row = await this.database.read
      .selectFrom('rc_credentials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('package_id', '=', packageId)
      .where('assigned_transaction_id', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * The next credential of the package, taken for `transactionId`; undefined when none is left.
   * Inventory is touched by nothing the unit queues: the assignment goes ahead of queued writes.
   */
  async assignCredential(
    tx: Tx,
    packageId: string,
    transactionId: string,
    now: number,
  ): Promise<{ id: string; secret: string } | undefined> {
    return (await tx.executeAhead(this.q.assign(packageId, transactionId, now))).rows[0];
  }

  /**
   * Adds credentials not yet known for the package (by username digest), encrypted; returns how
   * many were added. Duplicates in the list itself and ones already stored are skipped.
   */
  async insertCredentials(
    tx: Tx,
    cipher: CredentialCipher,
    packageId: string,
    credentials: readonly CostedCredential[],
    now: number,
  ): Promise<number> {
    const unique = new Map<string, CostedCredential>();
    for (const credential of credentials) {
      const digest = cipher.usernameDigest(packageId, credential.username);
      if (!unique.has(digest)) unique.set(digest, credential);
    }
    const rows = [...unique].map(([digest, credential]) => ({
      id: newId('cred'),
      package_id: packageId,
      username_digest: digest,
      secret: cipher.encrypt({ username: credential.username, password: credential.password }),
      assigned_transaction_id: null,
      assigned_at: null,
      created_at: now,
      cost: credential.cost ?? null,
    }));
    let added = 0;
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      const query = tx.qb
        .insertInto('rc_credentials')
        .values(rows.slice(start, start + INSERT_BATCH))
        .onConflict((oc) => oc.columns(['package_id', 'username_digest']).doNothing());
      added += Number((await tx.execute(query)).numAffectedRows ?? 0);
    }
    return added;
  }

  /** Queues the sale's rc_transactions row and its order (orderType result_checker). */
  recordSale(tx: Tx, p: SaleRecord): void {
    const completedAt = p.state === 'completed' ? p.now : null;
    tx.write(
      this.database.statements.insert('rc_transactions', {
        id: p.id,
        profile_id: p.profileId,
        mode: p.mode,
        order_id: p.id,
        package_id: p.packageId,
        package_name: p.packageName,
        short_reference: p.shortReference,
        state: p.state,
        payment_gateway_status: null,
        amount: p.amount,
        currency: 'GHS',
        buyer_phone: p.buyerPhone,
        credential_id: p.credentialId,
        credential_secret: p.credentialSecret,
        bulk_id: p.bulkId,
        error_message: p.errorMessage,
        created_at: p.now,
        completed_at: completedAt,
        updated_at: p.now,
      }),
    );
    tx.write(
      this.database.statements.insert(
        'orders',
        orderRow({
          id: p.id,
          profileId: p.profileId,
          mode: p.mode,
          type: 'result_checker',
          state: p.state,
          shortReference: p.shortReference,
          beneficiaryMsisdn: p.buyerPhone,
          packageId: p.packageId,
          packageLabel: p.packageName,
          amount: p.amount,
          walletBalanceBefore: p.walletBalanceBefore,
          walletBalanceAfter: p.walletBalanceAfter,
          rcTransactionId: p.id,
          errorMessage: p.errorMessage,
          completedAt,
          createdAt: p.now,
        }),
      ),
    );
  }

  // ---- staff refunds, inside their unit ----

  /**
   * A sale by its id (the same as its order's) or its short reference, with the wallet that paid
   * for it; its row locked until the unit ends (PostgreSQL; SQLite has one writer).
   */
  async lockSale(tx: Tx, idOrReference: string) {
    let query = tx.qb
      .selectFrom('rc_transactions as t')
      .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 't.profile_id').onRef('w.mode', '=', 't.mode'))
      .selectAll('t')
      .select('w.id as wallet_id')
      .where((eb) => eb.or([eb('t.id', '=', idOrReference), eb('t.short_reference', '=', idOrReference.toUpperCase())]));
    if (this.database.statements.dialect === 'postgres') query = query.forUpdate(['t']);
    return (await tx.execute(query)).rows[0];
  }

  /** A completed sale → refunded (its state stays completed), once. */
  async markRefunded(tx: Tx, transactionId: string, reason: string, now: number): Promise<boolean> {
    const query = tx.qb
      .updateTable('rc_transactions')
      .set({ refunded_at: now, refund_reason: reason, updated_at: now })
      .where('id', '=', transactionId)
      .where('state', '=', 'completed')
      .where('refunded_at', 'is', null);
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  /** The sale's order completed → reversed with the reason; the order as it is now, or undefined when it was not completed. */
  async markOrderReversed(tx: Tx, orderId: string, reason: string, now: number) {
    const query = reverseCompletedOrder(tx.qb, orderId, reason, now).where('order_type', '=', 'result_checker').returningAll();
    return (await tx.execute(query)).rows[0];
  }

  /** The credential handed to `transactionId` made void (it stays assigned to it: never sold again), once. */
  async voidCredential(tx: Tx, credentialId: string, transactionId: string, reason: string, now: number): Promise<boolean> {
    const query = tx.qb
      .updateTable('rc_credentials')
      .set({ voided_at: now, void_reason: reason })
      .where('id', '=', credentialId)
      .where('assigned_transaction_id', '=', transactionId)
      .where('voided_at', 'is', null);
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  /** Voided credentials, newest first, with the sale each was refunded from (never the credential itself). */
  async voidedCredentials(limit: number) {
    return this.database.read
      .selectFrom('rc_credentials as c')
      .leftJoin('rc_transactions as t', 't.id', 'c.assigned_transaction_id')
      .select(['c.id', 'c.package_id', 'c.assigned_transaction_id', 'c.voided_at', 'c.void_reason', 't.short_reference', 't.profile_id'])
      .where('c.voided_at', 'is not', null)
      .orderBy('c.voided_at', 'desc')
      .orderBy('c.id')
      .limit(limit)
      .execute();
  }

  /** One transaction of its owner in its mode; another owner's or mode's is not found. */
  async findOwnTransaction(owner: Owner, id: string) {
    return this.database.read
      .selectFrom('rc_transactions')
      .selectAll()
      .where('id', '=', id)
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode)
      .executeTakeFirst();
  }

  /** A sale and its credential's state, for the staff's order page (never the credential's secret). */
  async saleForStaff(orderId: string) {
    return this.database.read
      .selectFrom('rc_transactions as t')
      .leftJoin('rc_credentials as c', 'c.id', 't.credential_id')
      .select([
        't.id',
        't.state',
        't.credential_id',
        't.buyer_phone',
        't.package_name',
        't.amount',
        't.error_message',
        't.refunded_at',
        't.refund_reason',
        'c.assigned_at',
        'c.voided_at',
        'c.void_reason',
      ])
      .where('t.order_id', '=', orderId)
      .executeTakeFirst();
  }

  // ---- seed import, inside its unit ----

  /** The package and its role prices (replacing the ones it had). */
  async upsertPackage(tx: Tx, p: RcPackageUpsert, now: number): Promise<void> {
    const row = {
      code: p.code,
      name: p.name,
      display_name: p.displayName,
      description: p.description,
      status: p.status,
      priority: p.priority,
      check_limit: p.checkLimit,
      includes_pdf: p.includesPdf === null ? null : p.includesPdf ? 1 : 0,
      price: p.price,
      updated_at: now,
    };
    await tx.execute(
      tx.qb
        .insertInto('rc_packages')
        .values({ id: p.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row)),
    );
    await tx.execute(tx.qb.deleteFrom('rc_package_prices').where('package_id', '=', p.id));
    if (p.rolePrices.length > 0) {
      await tx.execute(tx.qb.insertInto('rc_package_prices').values(p.rolePrices.map((r) => ({ package_id: p.id, ...r }))));
    }
  }

  // ---- ledger verify (read-only, inside its snapshot) ----

  /** Per wallet: the net of its rc ledger entries (ledger_net) and the total of its completed, unrefunded purchases (records_total). */
  async walletRcTotals(tx: Tx) {
    const kept = tx.db
      .selectFrom('rc_transactions')
      .select(['profile_id', 'mode', 'amount'])
      .where('state', '=', 'completed')
      .where('refunded_at', 'is', null);
    return walletNetsAgainstRecords(tx, RC_KINDS, kept.as('t'));
  }

  /** Per rc transaction: the entries that name it (count and net, and its staff refunds), with its order's state and its credential's void. */
  async transactionLedgerNets(tx: Tx) {
    const sales = tx.db
      .selectFrom('rc_transactions as t')
      .leftJoin('orders as o', 'o.id', 't.order_id')
      .leftJoin('rc_credentials as c', 'c.id', 't.credential_id')
      .select(['t.id', 't.profile_id', 't.mode', 't.state', 't.amount', 't.bulk_id', 't.refunded_at', 't.credential_id', 'o.state as order_state', 'c.voided_at']);
    const columns = ['t.id', 't.state', 't.mode', 't.amount', 't.bulk_id', 't.refunded_at', 't.credential_id', 't.order_state', 't.voided_at'] as const;
    return recordLedgerEntries(tx, sales.as('t'), 'rc_transaction_id')
      .select((eb) => [
        ...columns,
        eb.fn.sum<number>(eb.case().when('l.kind', '=', 'rc_reversal').then(1).else(0).end()).as('reversals'),
        eb.fn
          .sum<number>(eb.case().when('l.kind', '=', 'rc_reversal').then(eb.ref('l.available_delta')).else(0).end())
          .as('reversal_net'),
      ])
      .groupBy(columns)
      .execute();
  }

  /** Per bulk purchase: the total of its items. */
  async bulkTotals(tx: Tx) {
    return tx.db
      .selectFrom('rc_transactions')
      .select((eb) => ['bulk_id', eb.fn.sum<number>('amount').as('total'), eb.fn.countAll<number>().as('items')])
      .where('bulk_id', 'is not', null)
      .groupBy('bulk_id')
      .execute();
  }

  /** rc ledger entries that name no transaction: bulk debits (idempotency key rc_bulk_debit:<bulkId>). */
  async unattachedRcEntries(tx: Tx) {
    return tx.db
      .selectFrom('ledger_entries')
      .select(['id', 'kind', 'available_delta', 'held_delta', 'idempotency_key'])
      .where('kind', 'in', RC_KINDS)
      .where('rc_transaction_id', 'is', null)
      .orderBy('id')
      .execute();
  }

  /** rc ledger entries booked on a wallet that is not the transaction owner's wallet of its mode. */
  async misdirectedRcEntries(tx: Tx) {
    return tx.db
      .selectFrom('ledger_entries as l')
      .innerJoin('rc_transactions as t', 't.id', 'l.rc_transaction_id')
      .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
      .select(['l.id', 't.id as transaction_id'])
      .where((eb) => eb.or([eb('w.profile_id', '!=', eb.ref('t.profile_id')), eb('w.mode', '!=', eb.ref('t.mode'))]))
      .orderBy('l.id')
      .execute();
  }

  /** Voided credentials whose sale is not a refunded one (a void is only ever the mark of a refund). */
  async voidsWithoutRefund(tx: Tx) {
    return tx.db
      .selectFrom('rc_credentials as c')
      .leftJoin('rc_transactions as t', 't.id', 'c.assigned_transaction_id')
      .select(['c.id', 'c.assigned_transaction_id'])
      .where('c.voided_at', 'is not', null)
      .where((eb) => eb.or([eb('t.id', 'is', null), eb('t.refunded_at', 'is', null)]))
      .orderBy('c.id')
      .execute();
  }

  /** Inventory links that disagree: a credential and the transaction it was handed to must point at each other. */
  async inventoryMismatches(tx: Tx) {
    const credentialSide = await tx.db
      .selectFrom('rc_credentials as c')
      .leftJoin('rc_transactions as t', 't.id', 'c.assigned_transaction_id')
      .select(['c.id as credential_id', 'c.assigned_transaction_id', 't.credential_id as transaction_credential_id'])
      .where('c.assigned_transaction_id', 'is not', null)
      .where((eb) =>
        eb.or([eb('t.id', 'is', null), eb('t.credential_id', 'is', null), eb('t.credential_id', '!=', eb.ref('c.id'))]),
      )
      .execute();
    const transactionSide = await tx.db
      .selectFrom('rc_transactions as t')
      .leftJoin('rc_credentials as c', 'c.id', 't.credential_id')
      .select(['t.id', 't.state', 't.mode', 't.credential_id', 't.credential_secret', 'c.assigned_transaction_id'])
      .where((eb) =>
        eb.or([
          eb.and([
            eb('t.credential_id', 'is not', null),
            eb.or([
              eb('c.id', 'is', null),
              eb('c.assigned_transaction_id', 'is', null),
              eb('c.assigned_transaction_id', '!=', eb.ref('t.id')),
            ]),
          ]),
          eb.and([eb('t.state', '=', 'completed'), eb('t.credential_secret', 'is', null)]),
          eb.and([eb('t.state', '=', 'completed'), eb('t.mode', '=', 'live'), eb('t.credential_id', 'is', null)]),
          eb.and([
            eb('t.state', '!=', 'completed'),
            eb.or([eb('t.credential_id', 'is not', null), eb('t.credential_secret', 'is not', null)]),
          ]),
          eb.and([eb('t.mode', '=', 'test'), eb('t.credential_id', 'is not', null)]),
        ]),
      )
      .execute();
    return { credentialSide, transactionSide };
  }
}
