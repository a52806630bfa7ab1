// Connection settings and messages shared by the lock, the adapter and the API.
import type pg from 'pg';

export type Log = (msg: string) => void;

export function connectionConfig(databaseUrl: string): pg.PoolConfig {
  return { connectionString: databaseUrl, connectionTimeoutMillis: 15_000, application_name: 'clipcast-migrate' };
}

/**
 * The same URL pointing at another database. pg lets the connection string
 * override a separate `database` option, so the URL itself has to change.
 */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** host:port/database of a connection string, without credentials, for messages. */
export function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.host}${url.pathname}`;
  } catch {
    return 'the database (unparsable URL)';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
