import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { abortReason, TranscriptionError } from './errors.js';

export interface RunOptions {
  signal?: AbortSignal;
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
}

const TAIL = 2000;

/**
 * Runs a program to completion, handing over its output line by line as it comes.
 * An abort kills the child (SIGKILL: the engines hold no state worth a graceful stop)
 * and rejects with the signal's reason once the child is gone.
 */
export function runTool(file: string, args: string[], opts: RunOptions = {}): Promise<void> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const child = spawn(...tiedToThisProcess(file, args), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderrTail = '';
    let aborted = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    eachLine(child.stdout, (l) => opts.onStdoutLine?.(l));
    eachLine(child.stderr, (l) => {
      stderrTail = (stderrTail + l + '\n').slice(-TAIL);
      opts.onStderrLine?.(l);
    });
    child.on('error', (e) => {
      spawnError = e;
    });
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      const name = path.basename(file);
      if (aborted && signal) return reject(abortReason(signal));
      if (spawnError) {
        const missing = spawnError.code === 'ENOENT';
        return reject(new TranscriptionError(missing ? `${name} is not installed or not on PATH` : `${name} could not start: ${spawnError.message}`, { cause: spawnError }));
      }
      if (code === 0) return resolve();
      const why = sig ? `was killed by ${sig}` : `exited with code ${code}`;
      reject(new TranscriptionError(`${name} ${why}${stderrTail.trim() ? `: ${stderrTail.trim().split('\n').slice(-5).join(' | ')}` : ''}`));
    });
  });
}

/** Calls `onLine` with each line of a child's output stream as it comes, and with the unfinished last one at its end. */
export function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split(/\r?\n|\r/);
    buffered = parts.pop() ?? '';
    for (const p of parts) onLine(p);
  });
  stream.on('end', () => {
    if (buffered) onLine(buffered);
    buffered = '';
  });
}

/** Absolute path of an executable: a path is checked as given, a bare name is looked up on PATH. */
export function findExecutable(name: string, searchPath: string): string | undefined {
  const executable = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/') || name.includes(path.sep)) return executable(name) ? path.resolve(name) : undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

let setpriv: string | null | undefined;

/**
 * The command and arguments that run `file` with `args` as a child that dies with this
 * process, however it ends: spread them into spawn or execFile.
 *
 * A process killed by SIGKILL runs no handler, so nothing of its own can stop its children:
 * an ffmpeg would render on for its whole length, beside the restarted worker's render of the
 * same work. Killing them by recorded pids would wait for a sweep, that is for another process
 * to start or run a job. The kernel's parent-death signal (prctl PR_SET_PDEATHSIG) has the
 * child killed the moment its parent dies; Node cannot set it without a native addon, so
 * util-linux's setpriv sets it and then executes the program, which keeps the signal and the
 * pid (killing the child kills the program). It fires when the thread that spawned the child
 * ends: Node spawns from its main thread, which ends only with the process. Only a parent
 * killed in the instant between the spawn and setpriv's prctl leaves its program running.
 *
 * Without setpriv (not Linux), or when `file` is not found on PATH (the spawn then fails with
 * ENOENT, as callers expect of a program missing), the program runs as it is.
 */
export function tiedToThisProcess(file: string, args: readonly string[]): [string, string[]] {
  const program = setprivPath() ? findExecutable(file, process.env.PATH ?? '') : undefined;
  return setpriv && program ? [setpriv, ['--pdeathsig', 'KILL', '--', program, ...args]] : [file, [...args]];
}

/** setpriv, when this is Linux and it is on PATH; looked up once. */
function setprivPath(): string | null {
  setpriv ??= process.platform === 'linux' ? (findExecutable('setpriv', process.env.PATH ?? '') ?? null) : null;
  return setpriv;
}

/**
 * ffmpeg tied to this process, for a runner that takes a program's path alone (fluent-ffmpeg):
 * src/media/bin/ffmpeg-tied when setpriv and ffmpeg are on PATH, else ffmpeg as it is.
 */
export function tiedFfmpegPath(): string {
  return setprivPath() && findExecutable('ffmpeg', process.env.PATH ?? '') ? TIED_FFMPEG : 'ffmpeg';
}

const TIED_FFMPEG = fileURLToPath(new URL('../bin/ffmpeg-tied', import.meta.url));

/**
 * Passes on a running program's progress, rising only and held below 1 (the output is still
 * to be read); the engine reports 1 itself once the words are in.
 */
export function progressReporter(onProgress: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let reported = 0;
  return (fraction) => {
    const f = Math.min(0.99, fraction);
    if (f > reported) {
      reported = f;
      onProgress?.(f);
    }
  };
}
