import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/ports.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PG_SERVER = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function withPgDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const u = new URL(PG_SERVER);
    u.pathname = `/${name}`;
    return await fn(u.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

export interface Service {
  url: string;
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  /** ms from spawn to the first 200 of /healthz */
  coldStartMs: number;
  stop(): Promise<void>;
}

/** Runs `npm start` (or another script) as an operator would and waits for /healthz. */
export async function startService(env: Record<string, string>, script = 'start', keepData = false): Promise<Service> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'bench-data-')));
  const fullEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env };
  const t0 = performance.now();
  // its log (pino JSON on stdout) goes to a temporary file, removed when it ends: quoted here if it ends before it is stopped
  const logPath = path.join(os.tmpdir(), `bench-${script}-${port}.log`);
  const log = await fs.open(logPath, 'w');
  const child = spawn('npm', ['run', '--silent', script], { cwd: ROOT, env: fullEnv, stdio: ['ignore', log.fd, 'inherit'], detached: true });
  await log.close();
  let stopping = false;
  child.once('exit', (code, signal) => {
    void (async () => {
      if (!stopping) {
        const tail = (await fs.readFile(logPath, 'utf8').catch(() => '')).split('\n').slice(-20).join('\n');
        process.stderr.write(`# ${script} on port ${port} ended before it was stopped (${signal ?? `exit ${code}`}); its log's last lines:\n${tail}\n`);
      }
      await fs.rm(logPath, { force: true });
    })();
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.status === 200) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
    if (performance.now() - t0 > 180_000) throw new Error('service did not become healthy in 180 s');
  }
  const coldStartMs = performance.now() - t0;
  return {
    url,
    env: fullEnv,
    child,
    coldStartMs,
    async stop() {
      stopping = true;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      if (!keepData) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `npm run worker` beside a started service (same environment, LOG_LEVEL
 * info); resolves once its queue runs. `onLine` gets each line it logs (pino
 * JSON).
 */
export function startWorker(svc: Service, onLine?: (line: string) => void): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'worker'], {
      cwd: ROOT,
      env: { ...svc.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let tail = '';
    let pending = '';
    let started = false;
    const timer = setTimeout(() => reject(new Error(`worker not running after 60 s: ${tail}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        tail = (tail + line + '\n').slice(-2000);
        onLine?.(line);
        if (!started && line.includes('agenda started')) {
          started = true;
          clearTimeout(timer);
          resolve(child);
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}: ${tail.slice(-500)}`)));
  });
}

/** Stops a process started detached (its whole group) and waits for it. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* gone */
  }
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
}

/** Runs the operator CLI against a service's environment and returns its JSON. */
export function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`admin ${args.join(' ')}: ${err}`))));
  });
}

/** VmRSS of a process in KiB (0 when it is gone). */
export function rssKiB(pid: number | 'self'): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Every process's parent, command name and CPU seconds so far (user and system, all its threads), from /proc. */
export function processTable(): Map<number, { ppid: number; comm: string; cpu: number }> {
  const table = new Map<number, { ppid: number; comm: string; cpu: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid ... utime stime (fields 14 and 15, in ticks of 1/100 s)
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      table.set(Number(name), { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch {
      // gone
    }
  }
  return table;
}

/**
 * CPU seconds spent by every process on the machine while `work` runs, summed
 * by the kind `kindOf` gives each (from its pid, its command name and its
 * ancestors' pids); sampled every `everyMs`, so a process that ends between
 * two samples loses at most that much of its time, and one that starts and
 * ends between two is missed.
 */
export async function cpuByKind<T>(
  kindOf: (pid: number, comm: string, ancestors: readonly number[]) => string,
  work: () => Promise<T>,
  everyMs = 200,
): Promise<{ result: T; cpu: Map<string, number> }> {
  const before = processTable();
  const last = new Map<number, { comm: string; kind: string; cpu: number; from: number }>();
  /** processes whose pid came back as another program (or a fork that became one: its name changes at exec) */
  const ended: Array<{ kind: string; cpu: number; from: number }> = [];
  const sample = () => {
    const table = processTable();
    for (const [pid, p] of table) {
      const seen = last.get(pid);
      if (seen?.comm === p.comm) {
        seen.cpu = p.cpu;
        continue;
      }
      if (seen) ended.push(seen);
      const ancestors = ancestorsOf(table, pid);
      // not counted: what a process alive at the start had spent already, and what a fork spent before its exec (counted under its first name)
      const from = seen ? (p.cpu >= seen.cpu ? seen.cpu : 0) : before.get(pid)?.comm === p.comm ? before.get(pid)!.cpu : 0;
      last.set(pid, { comm: p.comm, kind: kindOf(pid, p.comm, ancestors), cpu: p.cpu, from });
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    sample();
    const cpu = new Map<string, number>();
    for (const { kind, cpu: c, from } of [...ended, ...last.values()]) cpu.set(kind, (cpu.get(kind) ?? 0) + c - from);
    return { result, cpu };
  } finally {
    clearInterval(timer);
  }
}

/** The pids above `pid` in `table`, its parent first (at most 32, short of init). */
function ancestorsOf(table: ReadonlyMap<number, { ppid: number }>, pid: number): number[] {
  const up: number[] = [];
  for (let p = table.get(pid)?.ppid ?? 0; p > 1 && up.length < 32; p = table.get(p)?.ppid ?? 0) up.push(p);
  return up;
}

/** Every live descendant of `root` (children, their children, ...) with its command name. */
export function descendants(root: number): Array<{ pid: number; comm: string }> {
  const table = processTable();
  return [...table].filter(([pid]) => ancestorsOf(table, pid).includes(root)).map(([pid, p]) => ({ pid, comm: p.comm }));
}

/** CPU seconds of the waited-for children of this process so far (cutime and cstime). */
export function childrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}
