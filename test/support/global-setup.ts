import { applyMigrations } from '../../src/db/migrate/index.js';
import { adminQuery, randomDbName, serverUrl, withDatabase } from './db.js';

interface Template {
  name: Promise<string>;
  /** the tiers whose setup holds it */
  users: number;
}

/** The run's template, shared by the tiers that need a database: their setups run in one process, and migrations must not run twice at once. */
const run = globalThis as typeof globalThis & { testTemplate?: Template };

async function makeTemplate(server: string): Promise<string> {
  const name = randomDbName('tpl');
  await adminQuery(`CREATE DATABASE "${name}"`);
  await applyMigrations(withDatabase(server, name));
  return name;
}

/** Migrates one template database per run; each test file clones it (fast) instead of migrating. */
export default async function setup() {
  const server = serverUrl();
  if (!server) return undefined;
  const template = (run.testTemplate ??= { name: makeTemplate(server), users: 0 });
  template.users++;
  process.env.TEST_TEMPLATE_DB = await template.name;
  return async () => {
    if (--template.users > 0) return;
    run.testTemplate = undefined;
    await adminQuery(`DROP DATABASE IF EXISTS "${await template.name}" WITH (FORCE)`);
  };
}
