// Comparing schema.prisma with the migrations (a new migration) or with a
// database (drift).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DiffParams, DiffTarget } from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { Log } from './connection.js';
import { NO_FILTERS, withEngine } from './engine.js';
import {
  DEFAULT_MIGRATIONS_DIR,
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  MIGRATION_FILE,
  migrationSlug,
  migrationTimestamp,
  PROJECT_ROOT,
  readMigrations,
  readSchema,
  type SchemaFile,
} from './files.js';

export interface DiffOptions {
  migrationsDir?: string;
  schemaPath?: string;
  /**
   * A PostgreSQL server on which a temporary shadow database is created (and
   * dropped) to replay the existing migrations; its own data is never read.
   * Defaults to DATABASE_URL, then TEST_DATABASE_URL.
   */
  databaseUrl?: string;
  log?: Log;
}

/**
 * Writes `<migrationsDir>/<YYYYMMDDHHMMSS>_<name>/migration.sql` with the SQL
 * that takes the schema produced by the existing migrations to schema.prisma.
 * Writes nothing and returns `dir: null` when there is nothing to migrate.
 *
 * The existing migrations are replayed by the engine on a shadow database that
 * lives only for the duration of the call.
 */
export async function diffMigration(name: string, opts: DiffOptions = {}): Promise<{ dir: string | null; sql: string }> {
  const slug = migrationSlug(name);
  const migrationsDir = path.resolve(opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const schema = await readSchema(opts.schemaPath);
  const { databaseUrl } = opts;
  if (!databaseUrl) {
    throw new Error(
      'diffMigration needs a PostgreSQL server to replay the existing migrations on a temporary shadow database: ' +
        'pass databaseUrl or set DATABASE_URL (or TEST_DATABASE_URL).',
    );
  }

  const migrations = await readMigrations(migrationsDir);
  // The engine infers the connector from the lockfile; before the first migration
  // there is none yet, so it is given the one about to be written.
  const from: DiffTarget = {
    tag: 'migrations',
    ...migrations,
    lockfile: { ...migrations.lockfile, content: migrations.lockfile.content ?? LOCKFILE_CONTENT },
  };
  const sql = await runDiff(databaseUrl, schema, from, opts.log);
  if (!sql) {
    opts.log?.('schema.prisma matches the existing migrations; no migration written');
    return { dir: null, sql: '' };
  }

  const dirName = `${migrationTimestamp(new Date())}_${slug}`;
  const last = migrations.migrationDirectories.at(-1)?.path;
  if (last !== undefined && dirName <= last) {
    // Migrations apply in name order; a new one sorting earlier would never run
    // on databases that already have `last` (clock skew, or two diffs in a second).
    throw new Error(`New migration ${dirName} would not sort after the latest one (${last}); retry in a second.`);
  }
  const dir = path.join(migrationsDir, dirName);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, MIGRATION_FILE), sql, { encoding: 'utf8', flag: 'wx' });
  if (migrations.lockfile.content !== LOCKFILE_CONTENT) {
    await writeFile(path.join(migrationsDir, LOCKFILE_NAME), LOCKFILE_CONTENT, 'utf8');
  }
  opts.log?.(`wrote ${path.relative(process.cwd(), path.join(dir, MIGRATION_FILE))}`);
  return { dir, sql };
}

/**
 * The SQL that would bring the database's schema to schema.prisma, or '' when
 * they match. After applyMigrations, a non-empty result means schema.prisma was
 * edited without generating a migration (or the database was changed by hand).
 * `_prisma_migrations` is ignored by the engine.
 */
export async function schemaDrift(databaseUrl: string, opts: { schemaPath?: string; log?: Log } = {}): Promise<string> {
  const schema = await readSchema(opts.schemaPath);
  // `schemaDatasource` makes the engine introspect the database behind its adapter.
  const from: DiffTarget = { tag: 'schemaDatasource', files: [schema], configDir: PROJECT_ROOT };
  return runDiff(databaseUrl, schema, from, opts.log);
}

async function runDiff(databaseUrl: string, schema: SchemaFile, from: DiffTarget, log: Log | undefined): Promise<string> {
  const params: DiffParams = {
    from,
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    // exitCode 2 tells "there is a difference" apart from the comment the engine
    // prints for an empty script.
    exitCode: true,
    filters: NO_FILTERS,
  };
  const result = await withEngine(databaseUrl, schema, log ?? (() => {}), (engine) => engine.diff(params));
  return result.exitCode === 2 && result.stdout ? result.stdout : '';
}
