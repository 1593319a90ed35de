/**
 * The unique indexes whose refusals mean something to the services (an open delivery for a number,
 * a repeated payment reference, ...), each defined once by its table and columns. PostgreSQL names
 * the index in a violation, SQLite lists its columns: both are matched from this one definition,
 * and test/db/unique-indexes.test.ts ties it to the schema the migrations build on both engines.
 */
export const UNIQUE_INDEXES = {
  order_items_in_flight: { table: 'order_items', columns: ['mode', 'beneficiary_msisdn'] },
  orders_payment_reference: { table: 'orders', columns: ['profile_id', 'mode', 'payment_reference'] },
  orders_short_reference_key: { table: 'orders', columns: ['short_reference'] },
  top_ups_reference: { table: 'top_ups', columns: ['profile_id', 'mode', 'reference'] },
  top_ups_momo_pending: { table: 'top_ups', columns: ['profile_id', 'mode', 'payment_phone'] },
  ledger_entries_idempotency_key_key: { table: 'ledger_entries', columns: ['idempotency_key'] },
  rc_transactions_credential_id_key: { table: 'rc_transactions', columns: ['credential_id'] },
  rc_transactions_short_reference_key: { table: 'rc_transactions', columns: ['short_reference'] },
  staff_accounts_email_key: { table: 'staff_accounts', columns: ['email'] },
} as const satisfies Record<string, { table: string; columns: readonly string[] }>;

export type UniqueIndex = keyof typeof UNIQUE_INDEXES;

const INDEX_NAMES = Object.keys(UNIQUE_INDEXES) as UniqueIndex[];

/** How SQLite ends the message of a violation of `index`: "UNIQUE constraint failed: t.a, t.b". */
function sqliteColumnList(index: UniqueIndex): string {
  const { table, columns } = UNIQUE_INDEXES[index];
  return columns.map((column) => `${table}.${column}`).join(', ');
}

/** A write refused by one of the unique indexes above (either engine). */
export class UniqueViolation extends Error {
  constructor(
    readonly index: UniqueIndex,
    cause: unknown,
  ) {
    super(`unique index ${index} refused the write`, { cause });
    this.name = 'UniqueViolation';
  }
}

/** The index a driver error reports as violated, when it is one of UNIQUE_INDEXES. */
function violatedIndex(error: unknown): UniqueIndex | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown };
  if (e.code === '23505') return INDEX_NAMES.find((name) => name === e.constraint) ?? null;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const message = typeof e.message === 'string' ? e.message : '';
    return INDEX_NAMES.find((name) => message.endsWith(sqliteColumnList(name))) ?? null;
  }
  return null;
}

/** A driver error as the storage layer reports it: a UniqueViolation when it is one, else as it is. */
export function translateDriverError(error: unknown): unknown {
  if (error instanceof UniqueViolation) return error;
  const index = violatedIndex(error);
  return index === null ? error : new UniqueViolation(index, error);
}

export function isUniqueViolation(error: unknown, index: UniqueIndex): error is UniqueViolation {
  return error instanceof UniqueViolation && error.index === index;
}

/**
 * For a `.catch()` after writes: turns a refusal by one of `meanings`' indexes into the error the
 * caller gives it; anything else is rethrown as it is.
 */
export function whenRefusedBy(meanings: Partial<Record<UniqueIndex, () => Error>>): (error: unknown) => never {
  return (error: unknown) => {
    const translated = translateDriverError(error);
    const meaning = translated instanceof UniqueViolation ? meanings[translated.index] : undefined;
    throw meaning ? meaning() : translated;
  };
}
