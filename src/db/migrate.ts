import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './connection.js';
import type { DialectName } from './dialect.js';
import * as initial from './migrations/0001_initial.js';
import * as catalogVersion from './migrations/0002_catalog_version.js';
import * as dropOrdersStateIndex from './migrations/0003_drop_orders_state_index.js';
import * as outboxLeasedIndex from './migrations/0004_outbox_leased_index.js';
import * as ordersListingCoveringIndex from './migrations/0005_orders_listing_covering_index.js';
import * as ordersVersion from './migrations/0006_orders_version.js';
import * as idempotencyKeys from './migrations/0007_idempotency_keys.js';
import * as sandboxPollCalls from './migrations/0008_sandbox_poll_calls.js';
import * as eventsAndWebhooks from './migrations/0009_events_and_webhooks.js';
import * as consoleTables from './migrations/0010_console.js';
import * as workerHeartbeats from './migrations/0011_worker_heartbeats.js';
import * as staffPasswordChange from './migrations/0012_staff_password_change.js';
import * as upstreams from './migrations/0013_upstreams.js';
import * as reconciliation from './migrations/0014_reconciliation.js';
import * as mobileMoneyTopUps from './migrations/0015_mobile_money_topups.js';
import * as operatorNetwork from './migrations/0016_operator_network.js';
import * as partnerOperations from './migrations/0017_partner_operations.js';
import * as staffTotp from './migrations/0018_staff_totp.js';
import * as refunds from './migrations/0019_refunds.js';
import * as staffSearchIndexes from './migrations/0020_staff_search_indexes.js';
import * as partialDeliveryIndexes from './migrations/0021_partial_delivery_indexes.js';
import * as upstreamAttemptIndexes from './migrations/0022_upstream_attempt_indexes.js';
import * as marginCosts from './migrations/0023_margin_costs.js';
import * as attemptProblem from './migrations/0024_attempt_problem.js';
import * as topUpApprovals from './migrations/0025_top_up_approvals.js';
import * as staffFourEyes from './migrations/0026_staff_four_eyes.js';
import * as attemptAbsences from './migrations/0027_attempt_absences.js';
import * as momoPendingPerPartner from './migrations/0028_momo_pending_per_partner.js';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

/** In order; never edit one that has shipped, add the next instead. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_initial': initial,
  '0002_catalog_version': catalogVersion,
  '0003_drop_orders_state_index': dropOrdersStateIndex,
  '0004_outbox_leased_index': outboxLeasedIndex,
  '0005_orders_listing_covering_index': ordersListingCoveringIndex,
  '0006_orders_version': ordersVersion,
  '0007_idempotency_keys': idempotencyKeys,
  '0008_sandbox_poll_calls': sandboxPollCalls,
  '0009_events_and_webhooks': eventsAndWebhooks,
  '0010_console': consoleTables,
  '0011_worker_heartbeats': workerHeartbeats,
  '0012_staff_password_change': staffPasswordChange,
  '0013_upstreams': upstreams,
  '0014_reconciliation': reconciliation,
  '0015_mobile_money_topups': mobileMoneyTopUps,
  '0016_operator_network': operatorNetwork,
  '0017_partner_operations': partnerOperations,
  '0018_staff_totp': staffTotp,
  '0019_refunds': refunds,
  '0020_staff_search_indexes': staffSearchIndexes,
  '0021_partial_delivery_indexes': partialDeliveryIndexes,
  '0022_upstream_attempt_indexes': upstreamAttemptIndexes,
  '0023_margin_costs': marginCosts,
  '0024_attempt_problem': attemptProblem,
  '0025_top_up_approvals': topUpApprovals,
  '0026_staff_four_eyes': staffFourEyes,
  '0027_attempt_absences': attemptAbsences,
  '0028_momo_pending_per_partner': momoPendingPerPartner,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, this.dialect) }]),
    );
  }
}

/**
 * Kysely's migrator reads table metadata of every schema in the database (PostgreSQL); when another
 * schema is dropped at that moment (parallel test runs, another tenant), the catalogue query fails
 * with "… does not exist". Nothing was applied then, so the attempt is simply repeated; a real
 * migration error fails the same way every time and is reported after the last attempt.
 */
const UNDEFINED_OBJECT_CODES = new Set(['3F000', '42P01', '42703', '42704', '42883']);

function isCatalogueRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNDEFINED_OBJECT_CODES.has(code);
}

/** Names of the migrations recorded as applied in the database (none when it was never migrated). */
async function appliedNames(database: Database): Promise<string[]> {
  const table = database.pgSchema ? sql.id(database.pgSchema, 'kysely_migration') : sql.id('kysely_migration');
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(database.db);
    return rows.map((r) => r.name);
  } catch {
    return [];
  }
}

export interface MigrateOptions {
  /**
   * Told when the database carries migrations of a newer release (after a rollback of the code):
   * every migration this release knows is applied, so it runs on that schema instead of refusing
   * to start. Migrations are additive (docs/deployment.md); the changelog names any that is not.
   */
  onNewerSchema?(names: string[]): void;
}

/** Applies pending migrations; returns the names applied. Throws with the failing migration named. */
export async function migrateToLatest(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  const applied = await appliedNames(database);
  const unknown = applied.filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) {
    const last = Object.keys(MIGRATIONS).sort().at(-1) ?? '';
    const newer = unknown.every((name) => name > last) && Object.keys(MIGRATIONS).every((name) => applied.includes(name));
    if (!newer) throw new Error(`the database has migrations this release does not know: ${unknown.join(', ')}`);
    options.onNewerSchema?.(unknown);
    return [];
  }
  const migrator = new Migrator({
    db: database.db,
    provider: new StaticProvider(database.dialect),
    // Without it Kysely looks for its bookkeeping tables in every schema of the database.
    ...(database.pgSchema ? { migrationTableSchema: database.pgSchema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < 5 && database.dialect === 'postgres' && isCatalogueRace(error)) {
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
}
