/**
 * The scaled-out layout of the README's "Scaling out", on this machine: API
 * servers (`npm run server`) and workers (`npm run worker`) as separate
 * processes, each with a data folder of its own, sharing a fresh PostgreSQL
 * database, Redis and an S3-compatible store (s3rver, in this process).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { admin, descendants, ROOT, rssKiB, startService, startWorker, stopProcess, type Service } from './support.js';

export const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

export interface Cluster {
  servers: Service[];
  workers: ChildProcess[];
  /** the store's server (bench/s3-server.ts), a process of its own */
  s3: ChildProcess;
  /** what every process was given */
  env: Record<string, string>;
  /** a user made by the operator CLI (`flags` beside its email: credits, plan): its id and API key */
  user(flags?: string[]): Promise<{ id: string; apiKey: string }>;
  stop(): Promise<void>;
}

/** The resident memory of a started process and its children, in MiB (npm, node and what node runs). */
export function treeRssMiB(child: ChildProcess): number {
  const pids = [child.pid!, ...descendants(child.pid!).map((d) => d.pid)];
  return pids.reduce((sum, pid) => sum + rssKiB(pid), 0) / 1024;
}

/** The Node process of a started role (`npm run …` starts node, which runs the service). */
export function nodeOf(child: ChildProcess): number {
  const node = descendants(child.pid!).filter((d) => d.comm === 'node');
  return (node.at(-1) ?? { pid: child.pid! }).pid;
}

/** s3rver in a child process: its endpoint, bucket and credentials once it listens. */
function startS3(): Promise<{ child: ChildProcess; endpoint: string; bucket: string; credentials: { accessKeyId: string; secretAccessKey: string } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/s3-server.ts'), 'media'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, ...JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`the S3 server exited with ${code}`)));
  });
}

export async function startCluster(
  databaseUrl: string,
  { servers = 2, workers = 2, env = {} }: { servers?: number; workers?: number; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const s3 = await startS3();
  const shared: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    STORAGE_URL: `s3://${s3.bucket}/bench`,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: '1',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    URL_SIGNING_SECRET: 'bench-cluster-signing-secret-of-enough-length',
    ALLOW_PRIVATE_NETWORK: '1',
    ...env,
  };
  const dirs: string[] = [];
  const dataDir = (role: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${role}-`));
    dirs.push(dir);
    return dir;
  };
  const started: Service[] = [];
  const running: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(running.map(stopProcess));
    await Promise.all(started.map((s) => s.stop()));
    s3.child.kill('SIGTERM');
    await new Promise((r) => (s3.child.exitCode !== null ? r(null) : s3.child.once('exit', r)));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  };
  try {
    // the first server migrates the database; the others start on it
    started.push(await startService({ ...shared, DATA_DIR: dataDir('server-0'), INSTANCE_NAME: 'server-0' }, 'server', true));
    for (let i = 1; i < servers; i++)
      started.push(await startService({ ...shared, DATA_DIR: dataDir(`server-${i}`), INSTANCE_NAME: `server-${i}` }, 'server', true));
    for (let i = 0; i < workers; i++) {
      const svc = { ...started[0], env: { ...started[0].env, DATA_DIR: dataDir(`worker-${i}`), INSTANCE_NAME: `worker-${i}` } };
      running.push(await startWorker(svc));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  let users = 0;
  return {
    servers: started,
    workers: running,
    s3: s3.child,
    env: shared,
    async user(flags = ['--api-credits', '100000']) {
      const made = await admin(started[0].env, 'user', 'create', '--email', `bench-${Date.now()}-${users++}@bench.local`, ...flags);
      return { id: made.userId, apiKey: made.apiKey };
    },
    stop,
  };
}
