import type { Config } from '../config.js';
import type { OwnerKind } from './embedded.js';

export interface Database {
  /** PostgreSQL connection string every component uses */
  url: string;
  embedded: boolean;
  /** true when the embedded server belongs to another process (a running service), which migrates it */
  shared: boolean;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Who opens the embedded database. `service` (long-lived): waits for a short-lived
   * owner (an operator command) to finish, then owns it. `cli` (one command): uses
   * the server of a running service, else owns it for the command's duration.
   * Either uses a running service's server rather than opening PGlite a second time.
   */
  role: OwnerKind;
  /** how long to wait for another owner to release the database (default: service 60 s, cli 120 s) */
  waitMs?: number;
  /** told once when the database is busy and the call starts to wait */
  log?: (msg: string) => void;
}

const DEFAULT_WAIT_MS: Record<OwnerKind, number> = { service: 60_000, cli: 120_000 };
const POLL_MS = 100;

/**
 * DATABASE_URL when set; otherwise the embedded database of DATA_DIR: the server of a
 * running service, or a new embedded server owned by this process under the owner lock.
 */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, opts: OpenOptions): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, shared: false, close: async () => {} };
  // loaded only in embedded mode: PGlite takes a while to load, and a DATABASE_URL needs none of it
  const { findRunningServer, ownerLockHolder, startEmbeddedServer, tryAcquireOwnerLock } = await import('./embedded.js');
  const { dataDir } = config;
  const deadline = Date.now() + (opts.waitMs ?? DEFAULT_WAIT_MS[opts.role]);
  let told = false;
  for (;;) {
    const running = await findRunningServer(dataDir);
    if (running) return { url: running, embedded: true, shared: true, close: async () => {} };
    const lock = await tryAcquireOwnerLock(dataDir, opts.role);
    if (lock) {
      const server = await startEmbeddedServer(dataDir, lock);
      return { url: server.url, embedded: true, shared: false, close: () => server.stop() };
    }
    // held by a short-lived owner, or by a service whose server is not up yet
    const holder = await ownerLockHolder(dataDir);
    if (holder?.pid === process.pid) throw new Error(`the embedded database of ${dataDir} is already open in this process`);
    if (Date.now() > deadline) {
      throw new Error(`the embedded database of ${dataDir} is busy: ${holder ? `${holder.kind} process ${holder.pid}` : 'another process'} holds it`);
    }
    if (holder && !told) {
      told = true;
      opts.log?.(`waiting for ${holder.kind} process ${holder.pid} to release the embedded database`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
