// Database migrations driven by Prisma's WebAssembly schema engine.
//
// The native schema engine binary cannot be installed everywhere this service is
// built, so `prisma migrate` is not used. The same engine compiled to WebAssembly
// (@prisma/schema-engine-wasm) talks to PostgreSQL through a driver adapter
// (@prisma/adapter-pg). It reads the same `schema/migrations/*/migration.sql`
// files and records them in the same `_prisma_migrations` table as
// `prisma migrate deploy`, so both tools stay interchangeable.
//
//   applyMigrations(url)   apply pending migrations (safe to run concurrently)   apply.ts
//   diffMigration(name)    write the next migration from schema.prisma          diff.ts
//   schemaDrift(url)       SQL that would bring a database to schema.prisma      diff.ts
//   pendingMigrations(url) shipped migrations not applied yet (no engine)        status.ts
// The advisory lock is lock.ts, the engine's loader wasm.ts, its runs engine.ts,
// the driver adapter it talks through adapter.ts, the files it reads files.ts.
export { applyMigrations, type ApplyOptions } from './apply.js';
export type { Log } from './connection.js';
export { diffMigration, schemaDrift, type DiffOptions } from './diff.js';
export { DEFAULT_MIGRATIONS_DIR, DEFAULT_SCHEMA_PATH } from './files.js';
export { MIGRATION_LOCK_KEY } from './lock.js';
export { pendingMigrations, unappliedMigrations, waitForMigrations } from './status.js';
