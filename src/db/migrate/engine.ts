// Runs the schema engine against a database for one call, and makes its logs
// and errors readable.
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { PgMigrationAdapterFactory } from './adapter.js';
import { errorMessage, type Log } from './connection.js';
import type { SchemaFile } from './files.js';
import { loadSchemaEngine } from './wasm.js';

/** No tables or enums are managed outside Prisma (prisma.config.ts declares none). */
export const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

/**
 * Runs `fn` with an engine connected to `databaseUrl`, then frees the engine and
 * closes every connection it opened (the engine does not dispose its adapters).
 */
export async function withEngine<T>(databaseUrl: string, schema: SchemaFile | undefined, log: Log, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const glue = await loadSchemaEngine();
  const factory = new PgMigrationAdapterFactory(databaseUrl);
  let engine: SchemaEngine | undefined;
  try {
    engine = await glue.SchemaEngine.new(
      { datamodels: schema ? [[schema.path, schema.content]] : undefined },
      (line: string) => forwardEngineLog(line, log),
      bindMigrationAwareSqlAdapterFactory(factory),
    );
    return await fn(engine);
  } catch (err) {
    throw engineError(err, factory.lastError);
  } finally {
    engine?.free();
    await factory.close();
  }
}

/** The engine logs JSON lines; only the progress and problems are worth showing. */
function forwardEngineLog(line: string, log: Log): void {
  let entry: { level?: string; fields?: { message?: string } };
  try {
    entry = JSON.parse(line);
  } catch {
    return;
  }
  const message = entry.fields?.message ?? '';
  const applying = /^Applying `(.+)`$/.exec(message);
  if (applying) log(`applying ${applying[1]}`);
  else if (entry.level === 'WARN' || entry.level === 'ERROR') log(`schema engine: ${message}`);
}

/**
 * Engine errors carry the Rust span trace after the message; adapter failures
 * raised as plain JS errors reach the engine only as an opaque id, so the last
 * one seen by the factory is attached as the cause.
 */
function engineError(err: unknown, adapterError: unknown): Error {
  let message = errorMessage(err);
  if (message.includes('found failed migrations')) {
    // `prisma migrate resolve` needs the native engine; this is what it does.
    message +=
      '\nA migration runs as one transaction, so unless it commits by itself none of it is applied. Once the cause is fixed, mark it ' +
      'rolled back and migrate again: UPDATE "_prisma_migrations" SET rolled_back_at = now() ' +
      "WHERE migration_name = '<name>' AND finished_at IS NULL;";
  }
  if (adapterError && !message.includes(errorMessage(adapterError))) {
    return new Error(`${message}\nCaused by: ${errorMessage(adapterError)}`, { cause: adapterError });
  }
  return new Error(message, { cause: err });
}
