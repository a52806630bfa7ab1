import { applyMigrations } from '../../src/db/migrate/index.js';
import { adminQuery, randomDbName, serverUrl, withDatabase } from './db.js';

/** Migrates one template database per run; each test file clones it (fast) instead of migrating. */
export default async function setup() {
  const server = serverUrl();
  if (!server) return undefined;
  const name = randomDbName('tpl');
  await adminQuery(`CREATE DATABASE "${name}"`);
  await applyMigrations(withDatabase(server, name));
  process.env.TEST_TEMPLATE_DB = name;
  return async () => {
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
}
