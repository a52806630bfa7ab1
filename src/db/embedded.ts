import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded default: a PGlite database under DATA_DIR served over the
 * PostgreSQL wire protocol, so Prisma, migrations and Agenda use the very same
 * code path as against a real server.
 *
 * Only one process may open the PGlite directory: it must hold the owner lock
 * DATA_DIR/db/owner.lock (its pid and kind, created exclusively; the lock of a
 * dead pid is stale and taken over). The owner serves the database on a TCP
 * port written to DATA_DIR/db/server.json, with its kind, so that other
 * processes (the operator CLI) can reach it. Only the server of a long-lived
 * owner (the service) is worth connecting to: a CLI owner stops its server as
 * soon as its command is done.
 */
export interface EmbeddedServer {
  url: string;
  /** stops serving, closes PGlite, then releases the owner lock */
  stop(): Promise<void>;
}

/** service: long-lived (`npm start`), others may use its server; cli: one short command */
export type OwnerKind = 'service' | 'cli';

const CONNECTIONS = 64;

const dbDir = (dataDir: string) => path.join(dataDir, 'db');
const infoFile = (dataDir: string) => path.join(dbDir(dataDir), 'server.json');
const lockFile = (dataDir: string) => path.join(dbDir(dataDir), 'owner.lock');

export const urlFor = (port: number) => `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;

interface ServerInfo {
  pid: number;
  port: number;
  owner: OwnerKind;
}

/** What owner.lock holds; the token tells one acquisition from another of the same pid. */
export interface LockHolder {
  pid: number;
  kind: OwnerKind;
  token: string;
}

/** Tokens of the owner locks this process holds. */
const heldTokens = new Set<string>();

const readJson = async <T>(file: string): Promise<T | undefined> => {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return undefined; // absent, or being replaced
  }
};

/**
 * Whether the process that wrote a lock or server file as `pid` is still running. Our own pid
 * there, in a file this process did not write, was left by an earlier process that had the
 * same pid (a container restarted after a crash): that one is gone.
 */
const liveOther = (pid: number) => pid !== process.pid && processAlive(pid);

/**
 * The URL of the embedded server of a running service of this data dir, if any.
 * A server owned by a CLI command is not returned: it stops when the command ends.
 */
export async function findRunningServer(dataDir: string): Promise<string | undefined> {
  const info = await readJson<ServerInfo>(infoFile(dataDir));
  if (info?.owner !== 'service' || !liveOther(info.pid)) return undefined;
  return (await canConnect(info.port)) ? urlFor(info.port) : undefined;
}

/** The live holder of the owner lock, if any. */
export async function ownerLockHolder(dataDir: string): Promise<LockHolder | undefined> {
  const holder = await readJson<LockHolder>(lockFile(dataDir));
  if (!holder || !Number.isInteger(holder.pid) || holder.pid <= 0) return undefined;
  if (heldTokens.has(holder.token)) return holder;
  return liveOther(holder.pid) ? holder : undefined;
}

export interface OwnerLock {
  readonly kind: OwnerKind;
  release(): Promise<void>;
}

/**
 * Takes the owner lock if nobody alive holds it; undefined when a live process does.
 * A lock left by a dead process is taken over.
 */
export async function tryAcquireOwnerLock(dataDir: string, kind: OwnerKind): Promise<OwnerLock | undefined> {
  const file = lockFile(dataDir);
  await fs.mkdir(dbDir(dataDir), { recursive: true });
  const holder: LockHolder = { pid: process.pid, kind, token: crypto.randomBytes(8).toString('hex') };
  // written aside, then linked into place: link() fails if the lock exists, and nobody ever sees half a lock
  const tmp = `${file}.${holder.token}`;
  await fs.writeFile(tmp, JSON.stringify(holder));
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await fs.link(tmp, file);
        heldTokens.add(holder.token);
        return { kind, release: () => releaseLock(file, holder.token) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      if (await ownerLockHolder(dataDir)) return undefined;
      await removeStaleLock(file);
    }
    return undefined;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

async function releaseLock(file: string, token: string): Promise<void> {
  if (!heldTokens.delete(token)) return;
  if ((await readJson<LockHolder>(file))?.token === token) await fs.rm(file, { force: true });
}

/**
 * Moves a dead holder's lock out of the way. The rename is atomic, so of several
 * processes that found it stale only one removes it; should that one have moved a
 * fresh lock taken in the meantime, it puts it back.
 */
async function removeStaleLock(file: string): Promise<void> {
  const aside = `${file}.stale.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch {
    return; // gone already
  }
  try {
    const moved = await readJson<LockHolder>(aside);
    if (moved && (heldTokens.has(moved.token) || liveOther(moved.pid))) await fs.link(aside, file).catch(() => {});
  } finally {
    await fs.rm(aside, { force: true });
  }
}

/** Opens the PGlite directory of dataDir and serves it; the caller must hold the owner lock, which stop() releases. */
export async function startEmbeddedServer(dataDir: string, lock: OwnerLock): Promise<EmbeddedServer> {
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  const close = async () => {
    try {
      await fs.rm(infoFile(dataDir), { force: true });
      await server?.stop();
    } finally {
      try {
        await db?.close();
      } finally {
        // after PGlite is closed: the next owner must not open it before
        await lock.release();
      }
    }
  };
  try {
    await fs.mkdir(dbDir(dataDir), { recursive: true });
    db = await PGlite.create(path.join(dbDir(dataDir), 'pgdata'));
    server = serveOverSocket(db);
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    // written whole (rename) so that a reader never sees half a file
    const tmp = `${infoFile(dataDir)}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify({ pid: process.pid, port, owner: lock.kind } satisfies ServerInfo));
    await fs.rename(tmp, infoFile(dataDir));
    let stopping: Promise<void> | undefined;
    return {
      url: urlFor(port),
      stop: () => (stopping ??= close()),
    };
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
}

/** Frontend messages of the extended query protocol that a Sync ends (Parse, Bind, Describe, Execute, Close, Flush). */
const BATCH_MESSAGES = new Set([...'PBDECH'].map((c) => c.charCodeAt(0)));

/**
 * A socket server for `db` on a free port of 127.0.0.1 (start() it).
 *
 * pglite-socket (0.2.17) queues the messages of every connection one at a time into PGlite's
 * single session, and keeps one connection's messages together only inside a transaction. But
 * a query of the extended protocol (Parse, Bind, Describe, Execute, then Sync) keeps its
 * unnamed statement and portal in the session as well: interleaved with another connection's,
 * it fails ("unnamed prepared statement does not exist") or runs the other one's statement.
 * So the queue is shown a batch that has not reached its Sync as an open transaction, and
 * runs the same connection's messages until it has.
 */
export function serveOverSocket(db: PGlite): PGLiteSocketServer {
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: CONNECTIONS });
  const queue = (server as unknown as { queryQueue?: { db?: unknown } }).queryQueue;
  if (queue?.db !== db) throw new Error('@electric-sql/pglite-socket changed: its query queue no longer holds the database (see serveOverSocket)');
  let batchOpen = false;
  // what the queue calls of its database
  queue.db = {
    isInTransaction: () => batchOpen || db.isInTransaction(),
    runExclusive: <T>(fn: () => Promise<T>) => db.runExclusive(fn),
    execProtocolRawStream(message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) {
      batchOpen = BATCH_MESSAGES.has(message[0]);
      return db.execProtocolRawStream(message, options);
    },
    // the ROLLBACK after a connection that left inside a transaction (or a batch)
    exec(sql: string) {
      batchOpen = false;
      return db.exec(sql);
    },
  };
  return server;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
