import type { Config } from '../config.js';
import { findRunningServer, startEmbeddedServer } from './embedded.js';

export interface Database {
  /** PostgreSQL connection string every component uses */
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded database of DATA_DIR: the one a
 * running service already serves, or a new embedded server owned by this process.
 */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, close: async () => {} };
  const running = await findRunningServer(config.dataDir);
  if (running) return { url: running, embedded: true, close: async () => {} };
  const server = await startEmbeddedServer(config.dataDir);
  return { url: server.url, embedded: true, close: () => server.stop() };
}
