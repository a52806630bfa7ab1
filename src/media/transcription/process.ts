import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderrTail = '';
    let aborted = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    lines(child.stdout, (l) => opts.onStdoutLine?.(l));
    lines(child.stderr, (l) => {
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

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
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
