// Migrations: schema/migrations applies cleanly, is recorded like `prisma migrate
// deploy` records it, is safe to run concurrently, works over the embedded
// PGlite server, and matches schema.prisma (so editing schema.prisma without
// `npm run db:diff -- <name>` fails this file).
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyMigrations,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SCHEMA_PATH,
  diffMigration,
  MIGRATION_LOCK_KEY,
  pendingMigrations,
  schemaDrift,
} from '../../src/db/migrate/index.ts';
import { createEmptyDatabase, serverUrl, type TestDatabase } from '../support/db.ts';
import { runEntry } from '../support/process.ts';

/** Without a server, the databases are embedded PGlite servers of this process. */
const SERVER_URL = serverUrl();
const TARGET = SERVER_URL ? 'PostgreSQL' : 'embedded PGlite';

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Databases made by this file, dropped in afterAll whatever happens. */
const created: TestDatabase[] = [];
async function freshDatabase(label: string): Promise<string> {
  const database = await createEmptyDatabase(`migr_${label}`);
  created.push(database);
  return database.url;
}

async function migrationNames(dir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

interface MigrationRow {
  migration_name: string;
  finished: boolean;
  rolled_back: boolean;
}
const MIGRATION_ROWS = `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
                        FROM _prisma_migrations ORDER BY migration_name`;

let expected: string[];
let url: string;

beforeAll(async () => {
  expected = await migrationNames();
  url = await freshDatabase('main');
});

afterAll(async () => {
  for (const database of created) await database.drop();
});

describe(`applyMigrations on ${TARGET}`, () => {
  it('applies every migration directory once and records it in _prisma_migrations', async () => {
    expect(expected.length).toBeGreaterThan(0);

    const first = await applyMigrations(url);
    expect(first.applied).toEqual(expected);

    const rows = await query<MigrationRow>(url, MIGRATION_ROWS);
    expect(rows).toEqual(expected.map((migration_name) => ({ migration_name, finished: true, rolled_back: false })));

    const second = await applyMigrations(url);
    expect(second.applied).toEqual([]);
    expect(await query<MigrationRow>(url, MIGRATION_ROWS)).toHaveLength(expected.length);
  });

  it('pendingMigrations names, without the engine, what applyMigrations would apply', async () => {
    const target = await freshDatabase('pending');
    expect(await pendingMigrations(target)).toEqual(expected);
    await applyMigrations(target);
    expect(await pendingMigrations(target)).toEqual([]);
    // a migration recorded as failed is still pending
    await query(target, `UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1`, [expected.at(-1)]);
    expect(await pendingMigrations(target)).toEqual([expected.at(-1)]);
  });

  it('leaves no drift between the migrated database and schema.prisma', async () => {
    await applyMigrations(url); // a no-op after the test above, needed when run alone
    const drift = await schemaDrift(url);
    // Non-empty means schema.prisma changed without a migration.
    expect(drift, 'schema.prisma differs from schema/migrations: run `npm run db:diff -- <name>`').toBe('');
  });

  // PGlite serves every connection from one session, where advisory locks never block
  it.skipIf(!SERVER_URL)('waits for the migration lock held by another session (needs a PostgreSQL server)', async () => {
    const target = await freshDatabase('lock');
    const holder = new pg.Client({ connectionString: target });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      const logs: string[] = [];
      let settled = false;
      const run = applyMigrations(target, { log: (m) => logs.push(m) }).finally(() => {
        settled = true;
      });
      await waitFor(() => logs.some((m) => m.startsWith('waiting for another process')));
      await new Promise((r) => setTimeout(r, 200));
      expect(settled).toBe(false);

      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      expect((await run).applied).toEqual(expected);
    } finally {
      await holder.end();
    }
  });

  it.skipIf(!SERVER_URL)('is safe when two processes migrate the same database at once (needs a PostgreSQL server)', async () => {
    const target = await freshDatabase('race');
    const runs = await Promise.all([runCli(['apply'], target), runCli(['apply'], target)]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);

    const rows = await query<MigrationRow>(target, MIGRATION_ROWS);
    expect(rows.map((r) => r.migration_name)).toEqual(expected);
    expect(rows.every((r) => r.finished && !r.rolled_back)).toBe(true);
    // Exactly one of the two did the work.
    const reports = runs.map((r) => r.stdout);
    expect(reports.filter((out) => out.includes('no pending migrations'))).toHaveLength(1);
  });
});

const shadowDatabases = async () =>
  (await query<{ datname: string }>(SERVER_URL!, "SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'")).map((r) => r.datname);

// the existing migrations are replayed on shadow databases the engine creates on the server
describe.skipIf(!SERVER_URL)('diffMigration (needs a PostgreSQL server)', () => {
  // Another process could be diffing on the same server: only new leftovers count.
  let shadowsBefore: string[];
  beforeAll(async () => {
    shadowsBefore = await shadowDatabases();
  });

  it('writes nothing when schema.prisma matches the migrations', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    try {
      await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      const result = await diffMigration('nothing', { migrationsDir: dir, databaseUrl: SERVER_URL });
      expect(result).toEqual({ dir: null, sql: '' });
      expect(await migrationNames(dir)).toEqual(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes the migration of a schema change, which then applies without drift', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    try {
      await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      const schemaPath = path.join(dir, 'schema.prisma');
      const schema = await readFile(DEFAULT_SCHEMA_PATH, 'utf8');
      await writeFile(schemaPath, schema.replace(/^model MusicTrack \{$/m, 'model MusicTrack {\n  artist String?'));

      const result = await diffMigration('Add artist!', { migrationsDir: dir, schemaPath, databaseUrl: SERVER_URL });
      expect(result.dir).toMatch(/[/\\]\d{14}_add_artist$/);
      expect(result.sql).toContain('ALTER TABLE "MusicTrack" ADD COLUMN     "artist" TEXT');
      expect(await readFile(path.join(result.dir!, 'migration.sql'), 'utf8')).toBe(result.sql);
      expect(await readFile(path.join(dir, 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');

      const target = await freshDatabase('diff');
      const { applied } = await applyMigrations(target, { migrationsDir: dir });
      expect(applied).toEqual([...expected, path.basename(result.dir!)]);
      expect(await schemaDrift(target, { schemaPath })).toBe('');
      expect(await schemaDrift(target)).not.toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('drops its shadow databases', async () => {
    expect((await shadowDatabases()).filter((name) => !shadowsBefore.includes(name))).toEqual([]);
  });
});

describe('applyMigrations over PGlite', () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let pgliteUrl: string;

  beforeAll(async () => {
    db = await PGlite.create();
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
    await server.start();
    const port = server.getServerConn().split(':').pop();
    pgliteUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  });

  afterAll(async () => {
    await server?.stop();
    await db?.close();
  });

  it('applies, records and skips the migrations like on PostgreSQL', async () => {
    // Two at once: PGlite shares one session between connections, so only the
    // in-process queue keeps them apart.
    const [a, b] = await Promise.all([applyMigrations(pgliteUrl), applyMigrations(pgliteUrl)]);
    expect([a.applied, b.applied]).toEqual([expected, []]);

    const { rows } = await db.query<MigrationRow>(MIGRATION_ROWS);
    expect(rows).toEqual(expected.map((migration_name) => ({ migration_name, finished: true, rolled_back: false })));

    expect((await applyMigrations(pgliteUrl)).applied).toEqual([]);
    expect(await schemaDrift(pgliteUrl)).toBe('');
  });
});

// ---------------------------------------------------------------------------

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for condition');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const runCli = (args: string[], databaseUrl: string) => runEntry(['src/db/migrate-cli.ts', ...args], { ...process.env, DATABASE_URL: databaseUrl });
