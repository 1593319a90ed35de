import type { Database } from '../../db/connection.js';
import type { ProviderBalanceRow } from '../../db/schema.js';

/** Each upstream's last float reading and insufficient-float refusal (provider_balances). */
export class FloatRepository {
  constructor(private readonly database: Database) {}

  async reading(provider: string, currency: string, available: number, now: number): Promise<void> {
    await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .insertInto('provider_balances')
          .values({ provider, currency, available, read_at: now, read_error: null, error_at: null, refused_at: null })
          .onConflict((oc) => oc.column('provider').doUpdateSet({ currency, available, read_at: now, read_error: null, error_at: null })),
      ),
    );
  }

  /** A reading that failed: the one before it stays, with its time. */
  async readFailed(provider: string, error: string, now: number): Promise<void> {
    const readError = error.slice(0, 500);
    await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .insertInto('provider_balances')
          .values({ provider, currency: null, available: null, read_at: null, read_error: readError, error_at: now, refused_at: null })
          .onConflict((oc) => oc.column('provider').doUpdateSet({ read_error: readError, error_at: now })),
      ),
    );
  }

  async refused(provider: string, now: number): Promise<void> {
    await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .insertInto('provider_balances')
          .values({ provider, currency: null, available: null, read_at: null, read_error: null, error_at: null, refused_at: now })
          .onConflict((oc) => oc.column('provider').doUpdateSet({ refused_at: now })),
      ),
    );
  }

  async all(): Promise<ProviderBalanceRow[]> {
    return this.database.read.selectFrom('provider_balances').selectAll().orderBy('provider').execute();
  }

  /** When the upstream last took a submission (an attempt accepted or completed), by provider. */
  async lastTaken(provider: string): Promise<number | null> {
    const row = await this.database.read
      .selectFrom('provider_attempts')
      .select('created_at')
      .where('provider', '=', provider)
      .where('status', 'in', ['accepted', 'completed'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.created_at) : null;
  }
}
