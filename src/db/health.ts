import type { Db } from './client.js';
import { migrationNames } from './migrate/files.js';
import { unappliedMigrations } from './migrate/status.js';

/** The migrations this build ships (read once: they do not change while running). */
let shipped: Promise<string[]> | undefined;

/** True when the database answers and every shipped migration is recorded as finished. */
export async function migrationsApplied(db: Db): Promise<boolean> {
  shipped ??= migrationNames();
  const pending = await unappliedMigrations(await shipped, (sql) => db.$queryRawUnsafe(sql));
  return pending.length === 0;
}
