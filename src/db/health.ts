import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations', import.meta.url));

/** Names of the migrations this build ships (read once: they do not change while running). */
const shipped = fs
  .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(MIGRATIONS_DIR, d.name, 'migration.sql')))
  .map((d) => d.name);

/** True when the database answers and every shipped migration is recorded as finished. */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL AND migration_name = ANY($1::text[])`,
    shipped,
  );
  return Number(rows[0]?.n ?? 0) === shipped.length;
}
