// Applying the pending migrations, one process and one call at a time.
import path from 'node:path';
import type { Log } from './connection.js';
import { NO_FILTERS, withEngine } from './engine.js';
import { DEFAULT_MIGRATIONS_DIR, readMigrations } from './files.js';
import { MigrationLock } from './lock.js';

export interface ApplyOptions {
  /** Directory holding `<timestamp>_<name>/migration.sql`; defaults to schema/migrations. */
  migrationsDir?: string;
  log?: Log;
}

/**
 * Applies the pending migrations of `migrationsDir` to the database and records
 * them in `_prisma_migrations`. Idempotent: applied migrations are skipped.
 *
 * Concurrent callers are serialised by a PostgreSQL advisory lock held on a
 * dedicated connection (several processes) and by an in-process queue (several
 * calls in one process, which matters on PGlite where every connection shares
 * one session and advisory locks therefore never block).
 *
 * Like `prisma migrate deploy`, it refuses to continue past a migration recorded
 * as failed, and never re-runs an applied migration, even if its file changed.
 * Over PGlite's socket server it needs two connections (lock + engine).
 */
export function applyMigrations(databaseUrl: string, opts: ApplyOptions = {}): Promise<{ applied: string[] }> {
  const run = inProcessQueue.then(() => applyLocked(databaseUrl, opts));
  // The queue must survive a failed run, hence the swallowed rejection here only.
  inProcessQueue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

let inProcessQueue: Promise<void> = Promise.resolve();

async function applyLocked(databaseUrl: string, opts: ApplyOptions): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => {});
  const migrationsList = await readMigrations(path.resolve(opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR));
  const lock = await MigrationLock.acquire(databaseUrl, log);
  try {
    const { appliedMigrationNames } = await withEngine(databaseUrl, undefined, log, (engine) =>
      engine.applyMigrations({ migrationsList, filters: NO_FILTERS }),
    );
    log(
      appliedMigrationNames.length > 0 ? `applied ${appliedMigrationNames.length} migration(s): ${appliedMigrationNames.join(', ')}` : 'no pending migrations',
    );
    return { applied: appliedMigrationNames };
  } finally {
    await lock.release();
  }
}
