// Command line for src/db/migrate/.
//
//   tsx src/db/migrate-cli.ts apply          (npm run db:migrate)
//   tsx src/db/migrate-cli.ts diff <name>    (npm run db:diff -- <name>)
//
// Exits non-zero with the reason on stderr when anything fails.
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../config.ts';
import { applyMigrations, diffMigration } from './migrate/index.ts';

const USAGE = 'usage: migrate-cli.ts apply | diff <name>';

interface ResolvedDatabase {
  url: string;
  close(): Promise<void>;
}

/** What src/db/database.ts exports (a version taking no argument would ignore it). */
interface DatabaseModule {
  openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, opts: { role: 'cli' }): Promise<ResolvedDatabase>;
}

/**
 * The database to migrate, chosen as the service chooses it: src/db/database.ts
 * returns DATABASE_URL when set, else the embedded PGlite database of DATA_DIR.
 * Without that module only DATABASE_URL is supported.
 */
async function resolveDatabaseUrl(config: Config): Promise<ResolvedDatabase> {
  const databaseModule = await importDatabaseModule();
  // a short-lived command: a running service's database, else owned for the command's duration
  if (databaseModule) return databaseModule.openDatabase(config, { role: 'cli' });

  const url = config.databaseUrl;
  if (!url) throw new Error('DATABASE_URL is not set; set it to the PostgreSQL database to migrate.');
  return { url, close: async () => {} };
}

async function importDatabaseModule(): Promise<DatabaseModule | null> {
  // A computed specifier keeps the type checker from requiring the module to exist.
  const specifier = new URL('./database.ts', import.meta.url);
  let mod: Partial<DatabaseModule>;
  try {
    mod = (await import(specifier.href)) as Partial<DatabaseModule>;
  } catch (err) {
    // Only the module itself being absent means "not written yet"; errors inside
    // it, or in its own imports, must surface.
    const code = (err as NodeJS.ErrnoException).code;
    const message = err instanceof Error ? err.message : '';
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(fileURLToPath(specifier))) return null;
    throw err;
  }
  if (typeof mod.openDatabase !== 'function') throw new Error('src/db/database.ts does not export openDatabase()');
  return mod as DatabaseModule;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  const log = (msg: string) => console.log(msg);
  const config = loadConfig();

  switch (command) {
    case 'apply': {
      if (args.length > 0) throw new Error(USAGE);
      const db = await resolveDatabaseUrl(config);
      try {
        await applyMigrations(db.url, { log });
      } finally {
        await db.close();
      }
      return;
    }
    case 'diff': {
      const [name, ...rest] = args;
      if (!name || rest.length > 0) throw new Error(`${USAGE}\n(npm run db:diff -- <name>)`);
      // diffMigration logs the file it wrote, or that there was nothing to write.
      await diffMigration(name, { log, databaseUrl: config.databaseUrl ?? config.testDatabaseUrl });
      return;
    }
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2)).then(
  () => {
    process.exitCode = 0;
  },
  (err: unknown) => {
    console.error(`migrate: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
