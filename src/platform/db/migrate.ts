import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { MigrationKit, type SchemaMigration } from './migration-kit.js';
import { foundation } from './migrations/0001_foundation.js';
import { carriers } from './migrations/0002_carriers.js';
import { catalogue } from './migrations/0003_catalogue.js';
import { catalogueSearch } from './migrations/0003_catalogue_search.js';
import { files } from './migrations/0004_files.js';
import { jobs } from './migrations/0005_jobs.js';
import { orders } from './migrations/0006_orders.js';
import { documents } from './migrations/0007_documents.js';
import { events } from './migrations/0008_events.js';
import { packedOrders } from './migrations/0009_packed_orders.js';
import { orderLists } from './migrations/0010_order_lists.js';
import { idempotencyLeases } from './migrations/0011_idempotency_leases.js';
import { fulfilment } from './migrations/0012_fulfilment.js';
import { pickups } from './migrations/0013_pickups.js';
import { reports } from './migrations/0014_reports.js';
import { marketplaces } from './migrations/0015_marketplaces.js';
import { carrierAccounts } from './migrations/0016_carrier_accounts.js';
import { ownDeliveryMethods } from './migrations/0017_own_delivery_methods.js';
import { marketplaceFollowup } from './migrations/0019_marketplace_followup.js';
import { carrierPoints } from './migrations/0018_carrier_points.js';
import { reportIndexes } from './migrations/0020_report_indexes.js';
import { carrierRetiredContracts } from './migrations/0021_carrier_retired_contracts.js';
import { warehouseDropOffPoints } from './migrations/0022_warehouse_drop_off_points.js';
import { fileContents } from './migrations/0025_file_contents.js';
import { webhooks } from './migrations/0030_webhooks.js';
import { checkoutWidget } from './migrations/0040_checkout_widget.js';
import { thermalLabels } from './migrations/0070_thermal_labels.js';
import { employeeRoles } from './migrations/0080_employee_roles.js';
import { fileLinks } from './migrations/0091_file_links.js';

/** Every schema migration, in order. Add new ones at the end with the next number. */
export const MIGRATIONS: SchemaMigration[] = [
  foundation,
  catalogue,
  catalogueSearch,
  carriers,
  files,
  jobs,
  orders,
  documents,
  events,
  packedOrders,
  orderLists,
  idempotencyLeases,
  fulfilment,
  pickups,
  reports,
  marketplaces,
  carrierAccounts,
  ownDeliveryMethods,
  carrierPoints,
  marketplaceFollowup,
  reportIndexes,
  carrierRetiredContracts,
  warehouseDropOffPoints,
  fileContents,
  webhooks,
  checkoutWidget,
  thermalLabels,
  employeeRoles,
  fileLinks,
];

/**
 * Applies the migrations not yet applied (all of them; tests of a migration pass those before
 * it). Safe to run from several processes at once.
 */
export async function migrateToLatest(
  database: Database,
  upTo: readonly SchemaMigration[] = MIGRATIONS,
): Promise<string[]> {
  const kit = new MigrationKit(database.kind);
  const provider: MigrationProvider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      const migrations: Record<string, Migration> = {};
      for (const migration of upTo) {
        migrations[migration.name] = { up: (db: Kysely<unknown>) => migration.up(db, kit) };
      }
      return migrations;
    },
  };
  // Unordered: areas developed side by side add migrations whose numbers may land out of order.
  // PostgreSQL: name the schema of the migration tables, or Kysely takes those of any other
  // schema on the server (a bench's, a parallel test's) for ours.
  const migrationTableSchema =
    database.kind === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: database.db,
    provider,
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
