// The driver adapter the schema engine migrates through: PrismaPg made fit for
// catalog introspection, whole scripts, shadow databases and a clean close.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  ColumnTypeEnum,
  type ConnectionInfo,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { connectionConfig, withDatabase } from './connection.js';

/** pg type OIDs of the internal one-byte `"char"` type of pg_catalog, and of text. */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * Row arrays of results that had pg_catalog's one-byte `"char"` columns
 * (contype, confdeltype, ...), with the indexes of those columns.
 */
const charColumnsOf = new WeakMap<unknown[], number[]>();

/**
 * pg client that lets `"char"` columns through @prisma/adapter-pg, which
 * rejects the type and so makes every schema introspection by the engine fail.
 * The columns are announced as text (pg already returns one-character strings)
 * and remembered, so MigrationAdapter can then declare them as the `Character`
 * the engine's describer reads.
 */
class CatalogFriendlyClient extends pg.Client {
  // One signature covering pg's overloads: promise, callback and Submittable forms.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config?.submit === 'function') return super.query(config, values, callback);
    if (typeof values === 'function') {
      return super.query(config, (err: Error | null, res: unknown) => values(err, err ? res : markCharColumns(res)));
    }
    if (typeof callback === 'function') {
      return super.query(config, values, (err: Error | null, res: unknown) => callback(err, err ? res : markCharColumns(res)));
    }
    return super.query(config, values).then(markCharColumns);
  }
}

function markCharColumns<T>(result: T): T {
  // Multi-statement simple queries resolve to one result per statement.
  for (const r of (Array.isArray(result) ? result : [result]) as (pg.QueryResult | undefined)[]) {
    const indexes: number[] = [];
    r?.fields?.forEach((field, i) => {
      if (field.dataTypeID !== PG_CHAR_OID) return;
      field.dataTypeID = PG_TEXT_OID;
      indexes.push(i);
    });
    if (r && indexes.length > 0) charColumnsOf.set(r.rows, indexes);
  }
  return result;
}

/**
 * Migration-aware adapter factory on top of PrismaPg. It replaces PrismaPg's
 * own shadow database handling, which (7.10.0) sets `database` next to a
 * `connectionString` that pg lets win, so the "shadow" pool reaches the main
 * database; it also never closes the pool used to create the shadow database.
 * Every pool is tracked so that nothing is left open after the engine is freed.
 */
export class PgMigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres' as const;
  readonly adapterName = '@prisma/adapter-pg';
  lastError: unknown;
  private readonly adapters = new Set<MigrationAdapter>();

  constructor(private readonly databaseUrl: string) {}

  connect(): Promise<SqlDriverAdapter> {
    return this.track(() => this.open(connectionConfig(this.databaseUrl)));
  }

  /** A fresh database on the same server, dropped again when the engine disposes it. */
  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.track(async () => {
      const database = `prisma_migrate_shadow_db_${randomUUID().replaceAll('-', '')}`;
      await this.admin(`CREATE DATABASE "${database}"`);
      try {
        return await this.open(connectionConfig(withDatabase(this.databaseUrl, database)), () => this.admin(`DROP DATABASE IF EXISTS "${database}"`));
      } catch (err) {
        await this.admin(`DROP DATABASE IF EXISTS "${database}"`).catch(() => {});
        throw err;
      }
    });
  }

  /** Closes whatever the engine left open, shadow databases included. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.adapters].map((a) => a.dispose()));
  }

  private async open(config: pg.PoolConfig, afterClose?: () => Promise<void>): Promise<MigrationAdapter> {
    // One connection, like the native engine: its own advisory lock, scripts and
    // bookkeeping share a session. The engine issues one statement at a time,
    // so it never waits for a connection it holds itself.
    const pool = new pg.Pool({ ...config, max: 1, Client: CatalogFriendlyClient as unknown as new () => pg.ClientBase });
    pool.on('error', (err) => {
      this.lastError = err;
    });
    const inner = await new PrismaPg(pool).connect();
    const adapter = new MigrationAdapter(inner, async () => {
      this.adapters.delete(adapter);
      await inner.dispose();
      await pool.end();
      await afterClose?.();
    });
    this.adapters.add(adapter);
    return adapter;
  }

  private async admin(sql: string): Promise<void> {
    const client = new pg.Client(connectionConfig(this.databaseUrl));
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  private async track<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      this.lastError = err;
      throw err;
    }
  }
}

/**
 * PrismaPg's adapter with two changes: scripts are sent whole, and disposing
 * closes the pool. PrismaPg splits scripts on every `;`, which breaks
 * migrations with semicolons in string literals, comments or function bodies.
 * A parameterless query goes through PostgreSQL's simple query protocol, which
 * runs a multi-statement script as one implicit transaction, exactly as the
 * native engine applies migration.sql files: a failing migration leaves nothing
 * half-applied.
 */
class MigrationAdapter implements SqlDriverAdapter {
  readonly provider = 'postgres' as const;
  readonly adapterName: string;
  private disposed: Promise<void> | undefined;

  constructor(
    private readonly inner: SqlDriverAdapter,
    private readonly onDispose: () => Promise<void>,
  ) {
    this.adapterName = inner.adapterName;
  }

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    const result = await this.inner.queryRaw(query);
    // PrismaPg hands pg's row array through, which is how the columns marked by
    // CatalogFriendlyClient are found again.
    for (const i of charColumnsOf.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.inner.executeRaw(query);
  }

  async executeScript(script: string): Promise<void> {
    // executeRaw keeps PrismaPg's translation of database errors.
    await this.inner.executeRaw({ sql: script, args: [], argTypes: [] });
  }

  startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    return this.inner.startTransaction(isolationLevel);
  }

  getConnectionInfo(): ConnectionInfo {
    return this.inner.getConnectionInfo?.() ?? { supportsRelationJoins: true };
  }

  dispose(): Promise<void> {
    this.disposed ??= this.onDispose();
    return this.disposed;
  }
}
