// Whether a database has applied the shipped migrations, in one query and
// without the schema engine (which takes a while to load).
import pg from 'pg';
import { DEFAULT_MIGRATIONS_DIR, migrationNames } from './files.js';

const APPLIED = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/** Runs a query and returns its rows (a pg client's or Prisma's raw query). */
export type RowsQuery = (sql: string) => Promise<Array<{ migration_name: string }>>;

/**
 * The shipped migrations a database has not recorded as applied; every one of
 * them on a fresh database. A migration recorded as failed is pending too.
 */
export async function unappliedMigrations(shipped: readonly string[], query: RowsQuery): Promise<string[]> {
  if (shipped.length === 0) return [];
  let rows: Array<{ migration_name: string }> = [];
  try {
    rows = await query(APPLIED);
  } catch (e) {
    if (!isUndefinedTable(e)) throw e;
  }
  const applied = new Set(rows.map((r) => r.migration_name));
  return shipped.filter((m) => !applied.has(m));
}

/** The pending migrations of the database at `url`, over one short connection. */
export async function pendingMigrations(url: string, migrationsDir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const shipped = await migrationNames(migrationsDir);
  if (shipped.length === 0) return [];
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return await unappliedMigrations(shipped, async (sql) => (await client.query<{ migration_name: string }>(sql)).rows);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Waits for another process (a service starting on the same database) to apply
 * the pending migrations, rather than migrating the same database at once.
 */
export async function waitForMigrations(url: string, timeoutMs = 60_000, migrationsDir = DEFAULT_MIGRATIONS_DIR): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; (await pendingMigrations(url, migrationsDir)).length > 0; ) {
    if (Date.now() > deadline) throw new Error('the running service has not finished applying its migrations; try again shortly');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** undefined_table (a pg error): no migration has ever run there. */
const isUndefinedTable = (e: unknown) => (e as { code?: unknown } | null)?.code === '42P01';
