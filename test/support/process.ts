import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  proc: ChildProcess;
  output: () => string;
  /** sends `signal`; a process still running after graceMs is killed (SIGKILL), so a stuck stop cannot hang a test */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

/** Runs a TypeScript entry in its own Node process and waits for it to print `ready`. */
export async function spawnReady(file: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL'); // nobody would stop it otherwise
      reject(new Error(`${file} not ready after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    proc.stdout!.on('data', () => {
      if (/^ready$/m.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}:\n${out}`));
    });
  });
  return {
    proc,
    output: () => out,
    stop: (signal = 'SIGTERM', graceMs = 15_000) =>
      new Promise((resolve) => {
        // exited already (with a code, or killed by a signal): 'exit' will not come again
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve(proc.exitCode);
        const kill = setTimeout(() => proc.kill('SIGKILL'), graceMs);
        proc.once('exit', (code) => {
          clearTimeout(kill);
          resolve(code);
        });
        proc.kill(signal);
      }),
  };
}
