import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded default: a PGlite database under DATA_DIR served over the
 * PostgreSQL wire protocol, so Prisma, migrations and Agenda use the very same
 * code path as against a real server. The address of the running server is
 * written to DATA_DIR/db/server.json so that the operator CLI (another process)
 * can reach the database while the service holds it.
 */
export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

const CONNECTIONS = 64;

const dbDir = (dataDir: string) => path.join(dataDir, 'db');
const infoFile = (dataDir: string) => path.join(dbDir(dataDir), 'server.json');

export const urlFor = (port: number) => `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;

interface ServerInfo {
  pid: number;
  port: number;
}

/** The URL of an embedded server that another process of this data dir is running, if any. */
export async function findRunningServer(dataDir: string): Promise<string | undefined> {
  let info: ServerInfo;
  try {
    info = JSON.parse(await fs.readFile(infoFile(dataDir), 'utf8')) as ServerInfo;
  } catch {
    return undefined;
  }
  if (info.pid === process.pid || !processAlive(info.pid)) return undefined;
  return (await canConnect(info.port)) ? urlFor(info.port) : undefined;
}

export async function startEmbeddedServer(dataDir: string): Promise<EmbeddedServer> {
  await fs.mkdir(dbDir(dataDir), { recursive: true });
  const db = await PGlite.create(path.join(dbDir(dataDir), 'pgdata'));
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: CONNECTIONS });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  await fs.writeFile(infoFile(dataDir), JSON.stringify({ pid: process.pid, port } satisfies ServerInfo));
  let stopped = false;
  return {
    url: urlFor(port),
    async stop() {
      if (stopped) return;
      stopped = true;
      await fs.rm(infoFile(dataDir), { force: true });
      await server.stop();
      await db.close();
    },
  };
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
