import type { Tx } from '../../db/unit-of-work.js';

/**
 * The staff accounts among `ids` with who created each and who last reset its password: what the
 * four-eyes rule (./service.ts) compares, read in the approving unit of any module.
 */
export async function fourEyesAccounts(tx: Tx, ids: string[]) {
  if (ids.length === 0) return [];
  const { rows } = await tx.execute(
    tx.qb
      .selectFrom('staff_accounts')
      .select(['id', 'email', 'role', 'status', 'created_by_staff_id', 'password_reset_by_staff_id'])
      .where('id', 'in', ids),
  );
  return rows;
}
