import crypto from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations } from '../../src/db/migrate/index.js';
import { serveOverSocket, urlFor } from '../../src/db/embedded.js';

/**
 * Tests run against a real PostgreSQL when TEST_DATABASE_URL or DATABASE_URL
 * names a server (each file gets a fresh database cloned from a migrated
 * template), else against the embedded database (a PGlite socket server per file).
 */
export const serverUrl = () => process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  await asAdmin((client) => client.query(sql));
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl()!, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** How long a drop waits for the database's connections to close before it cuts them. */
const DROP_GRACE_MS = 1_000;

/**
 * Drops a test database. A pool's end() resolves once it has asked its connections to close, not once
 * they have: cut at that moment (FORCE), a connection still closing gets the server's 57P01 on its idle
 * listener, which the pool re-emits with nobody listening, an uncaught error in the test's process. So
 * the drop waits a moment for the connections to go, then cuts whatever a test left open.
 */
async function dropDatabase(name: string): Promise<void> {
  await asAdmin(async (client) => {
    for (const t0 = Date.now(); Date.now() - t0 < DROP_GRACE_MS; ) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

export const randomDbName = (label: string) => `t_${label}_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;

async function createServerDatabase(server: string, label: string, template?: string): Promise<TestDatabase> {
  const name = randomDbName(label);
  await adminQuery(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  return { url: withDatabase(server, name), drop: () => dropDatabase(name) };
}

/** A fresh, empty database: a new database on the server, else a new embedded PGlite server. */
export async function createEmptyDatabase(label = 'db'): Promise<TestDatabase> {
  const server = serverUrl();
  if (server) return createServerDatabase(server, label);
  const db = await PGlite.create();
  const socket = serveOverSocket(db);
  await socket.start();
  return {
    url: urlFor(Number(socket.getServerConn().split(':').pop())),
    async drop() {
      await socket.stop();
      await db.close();
    },
  };
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(template = process.env.TEST_TEMPLATE_DB): Promise<TestDatabase> {
  const server = serverUrl();
  if (server && template) return createServerDatabase(server, 'db', template);
  const database = await createEmptyDatabase();
  try {
    await applyMigrations(database.url);
  } catch (e) {
    await database.drop();
    throw e;
  }
  return database;
}
