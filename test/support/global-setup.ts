import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations } from '../../src/db/migrate/index.js';
import { adminQuery, randomDbName, serverUrl, withDatabase } from './db.js';
import { mediaFixtures } from './media.js';

interface Template {
  name: Promise<string>;
  /** the tiers whose setup holds it */
  users: number;
}

interface Fixtures {
  dir: Promise<string>;
  users: number;
}

/**
 * The run's template database and fixtures folder, shared by the tiers that need them: their
 * setups run in one process, and migrations must not run twice at once.
 */
const run = globalThis as typeof globalThis & { testTemplate?: Template; testFixtures?: Fixtures };

/** The folder of fixtures made once per run (test/support/fixture-cache.ts), with the small media most files use already in it. */
async function makeFixtures(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'test-fixtures-'));
  process.env.TEST_FIXTURES_DIR = dir;
  await mediaFixtures();
  return dir;
}

/** Shares the run's fixtures folder; the last tier to end removes it. */
async function fixturesSetup() {
  const fixtures = (run.testFixtures ??= { dir: makeFixtures(), users: 0 });
  fixtures.users++;
  process.env.TEST_FIXTURES_DIR = await fixtures.dir;
  return async () => {
    if (--fixtures.users > 0) return;
    run.testFixtures = undefined;
    await fs.rm(await fixtures.dir, { recursive: true, force: true });
  };
}

async function makeTemplate(server: string): Promise<string> {
  const name = randomDbName('tpl');
  await adminQuery(`CREATE DATABASE "${name}"`);
  await applyMigrations(withDatabase(server, name));
  return name;
}

/** Migrates one template database per run; each test file clones it (fast) instead of migrating. */
async function templateSetup() {
  const server = serverUrl();
  if (!server) return async () => {};
  const template = (run.testTemplate ??= { name: makeTemplate(server), users: 0 });
  template.users++;
  process.env.TEST_TEMPLATE_DB = await template.name;
  return async () => {
    if (--template.users > 0) return;
    run.testTemplate = undefined;
    await adminQuery(`DROP DATABASE IF EXISTS "${await template.name}" WITH (FORCE)`);
  };
}

export default async function setup() {
  const [endTemplate, endFixtures] = await Promise.all([templateSetup(), fixturesSetup()]);
  return async () => {
    await Promise.all([endTemplate(), endFixtures()]);
  };
}
