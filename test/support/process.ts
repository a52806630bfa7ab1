import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  proc: ChildProcess;
  output: () => string;
  /** sends `signal`; a process still running after graceMs is killed (SIGKILL), so a stuck stop cannot hang a test */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

export interface SpawnOptions {
  /**
   * The process leads a process group of its own and signals go to the whole
   * group: a SIGKILL takes its ffmpeg children too, as a crashed container or machine would.
   */
  group?: boolean;
}

/**
 * Runs a TypeScript entry (and its arguments) in its own Node process until
 * `ready(output)` holds, checked at each output line and every 100 ms.
 */
async function spawnUntil(
  args: string[],
  env: Record<string, string>,
  ready: (output: string) => boolean | Promise<boolean>,
  timeoutMs: number,
  { group = false }: SpawnOptions,
): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  const signal = (s: NodeJS.Signals) => {
    try {
      if (group && proc.pid) process.kill(-proc.pid, s);
      else proc.kill(s);
    } catch {
      // gone already
    }
  };
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      proc.stdout!.off('data', check);
      if (err) {
        signal('SIGKILL'); // nobody would stop it otherwise
        reject(err);
      } else resolve();
    };
    const check = () =>
      void Promise.resolve(ready(out)).then(
        (ok) => ok && finish(),
        () => {},
      );
    const timer = setTimeout(() => finish(new Error(`${args.join(' ')} not ready after ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const poll = setInterval(check, 100);
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => finish(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)));
  });
  return {
    proc,
    output: () => out,
    stop: (sig = 'SIGTERM', graceMs = 15_000) =>
      new Promise((resolve) => {
        // exited already (with a code, or killed by a signal): 'exit' will not come again
        if (proc.exitCode !== null || proc.signalCode !== null) {
          if (group) signal('SIGKILL'); // what the leader left running
          return resolve(proc.exitCode);
        }
        const kill = setTimeout(() => signal('SIGKILL'), graceMs);
        proc.once('exit', (code) => {
          clearTimeout(kill);
          resolve(code);
        });
        signal(sig);
      }),
  };
}

/** Runs a TypeScript entry in its own Node process and waits for it to print `ready`. */
export const spawnReady = (file: string, env: Record<string, string>, timeoutMs = 60_000, opts: SpawnOptions = {}): Promise<Child> =>
  spawnUntil([file], env, (out) => /^ready$/m.test(out), timeoutMs, opts);

/** `npm run server` (src/main.ts server) on a free port of 127.0.0.1, once /healthz answers. */
export async function spawnServer(env: Record<string, string>, timeoutMs = 60_000): Promise<Child & { url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const healthy = () =>
    fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  const child = await spawnUntil(['src/main.ts', 'server'], { PORT: String(port), HOST: '127.0.0.1', ...env }, healthy, timeoutMs, {});
  return { ...child, url };
}

/** What a command printed and how it ended. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `args` (a TypeScript entry and its arguments) in its own Node process to its end, in the project's folder. */
export function runEntry(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A process as /proc/<pid>/stat tells (Linux): its name, state, parent, and start in clock ticks after boot. */
export interface ProcStat {
  pid: number;
  name: string;
  state: string;
  ppid: number;
  start: string;
}

export function procStat(pid: number): ProcStat | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // the name may hold spaces and parentheses: the fields follow its last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), state: fields[0], ppid: Number(fields[1]), start: fields[19] };
}

/** The live children of process `pid` that run `name` (ffmpeg). */
export function childrenOf(pid: number, name: string): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map((p) => procStat(Number(p)))
    .filter((p): p is ProcStat => p !== null && p.ppid === pid && p.name === name && p.state !== 'Z');
}

/** Whether process `p` has ended: gone, a zombie not reaped yet, or its pid now another process's. */
export function ended(p: ProcStat): boolean {
  const now = procStat(p.pid);
  return now === null || now.state === 'Z' || now.start !== p.start;
}
