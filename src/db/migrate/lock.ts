// The advisory lock that serialises migrating processes.
import pg from 'pg';
import { connectionConfig, describeUrl, errorMessage, type Log } from './connection.js';

/**
 * Key of the advisory lock held around applyMigrations. It must differ from the
 * engine's own lock (72707369): the engine takes that one on its pooled
 * connection, which would wait forever behind ours if the keys were equal.
 */
export const MIGRATION_LOCK_KEY = '7270736942';

/**
 * Session-level advisory lock on its own connection: held for as long as the
 * connection lives, and released by the server if this process dies.
 */
export class MigrationLock {
  private constructor(
    private readonly client: pg.Client | null,
    private readonly log: Log,
  ) {}

  static async acquire(databaseUrl: string, log: Log): Promise<MigrationLock> {
    const client = new pg.Client(connectionConfig(databaseUrl));
    // Without a listener a dropped connection would crash the process; losing
    // the lock mid-run is tolerable because the engine takes its own lock too.
    client.on('error', (err) => log(`migration lock connection error: ${err.message}`));
    await client.connect().catch((err: unknown) => {
      throw new Error(`Cannot connect to ${describeUrl(databaseUrl)}: ${errorMessage(err)}`, { cause: err });
    });
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [MIGRATION_LOCK_KEY]);
      if (!rows[0]?.locked) {
        log('waiting for another process to finish migrating...');
        await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      }
      return new MigrationLock(client, log);
    } catch (err) {
      // Servers speaking the protocol without advisory locks (e.g. some
      // embedded or proxied setups) still get migrated, just unserialised.
      log(`advisory lock unavailable (${errorMessage(err)}); migrating without it`);
      await client.end().catch(() => {});
      return new MigrationLock(null, log);
    }
  }

  async release(): Promise<void> {
    if (!this.client) return;
    try {
      await this.client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
    } catch (err) {
      // Closing the session below releases the lock anyway.
      this.log(`could not release the migration lock cleanly: ${errorMessage(err)}`);
    } finally {
      await this.client.end().catch(() => {});
    }
  }
}
