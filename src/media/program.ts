/**
 * The one way the service runs a program (ffmpeg, ffprobe, pocketsphinx, espeak-ng, yt-dlp,
 * fontconfig, and the demo's service and CLI), so that every run keeps the same rules:
 *
 * - no shell; the program leads a process group of its own, and ending the run (its abort
 *   signal, its time limit, more output than allowed) kills that whole group with SIGKILL,
 *   so nothing it started runs on;
 * - it dies with this process, however this process ends: the kernel kills the program at
 *   once (setpriv --pdeathsig, tiedToThisProcess), and the group keeper (a shell waiting on a
 *   pipe from this process) kills what remains of each group when the pipe closes;
 * - stdout is collected (up to a limit), handed over line by line, or left to the caller as a
 *   stream read at the caller's pace; the last few KiB of stderr are kept and quoted in the
 *   error, after a redaction of the caller's choice (signed URLs);
 * - the run settles once the program and its pipes are gone: with its output, with a
 *   ProgramError saying what went wrong, or with the abort signal's reason.
 *
 * The render's ffmpeg is built and started by fluent-ffmpeg, which spawns it itself:
 * runFfmpegCommand holds such a command to the same rules, as far as a program this module
 * does not spawn can be (no group of its own: ffmpeg starts nothing).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FfmpegCommand } from 'fluent-ffmpeg';
import { programSearchPath, withServiceMark } from '../config.js';
import { currentNiceness, programStarted } from '../jobs/priority.js';

export interface ProgramOptions {
  cwd?: string;
  /** the program's environment (default this process's); its PATH finds a program named bare */
  env?: NodeJS.ProcessEnv;
  /** aborting kills the program's group; the run rejects with the signal's reason */
  signal?: AbortSignal;
  /** kills the group and rejects with a ProgramError ('timeout') after this many milliseconds */
  timeoutMs?: number;
  /**
   * What becomes of stdout: 'collect' (the default) keeps it for the result, up to maxStdout
   * characters; a function takes it line by line as it comes; 'stream' leaves it to the caller
   * (RunningProgram.stdout), read at the caller's pace; 'ignore' discards it.
   */
  stdout?: 'collect' | 'stream' | 'ignore' | ((line: string) => void);
  /** with 'collect': more characters than this kills the group and rejects with a ProgramError ('output'); default 16 MiB */
  maxStdout?: number;
  /** each line of stderr as it comes; its tail is kept for the error either way */
  onStderrLine?: (line: string) => void;
  /** stdout and stderr both go to this open file instead (a service's log): nothing is collected or quoted */
  logFd?: number;
  /** applied to stderr before it is kept or quoted: withoutUrlQueries (media/input.ts) when an argument may be a signed URL */
  redact?: (text: string) => string;
  /** how many of stderr's last lines an exit's error message quotes (default 5) */
  quoteLines?: number;
  /** what errors call the program (default: its file's name) */
  name?: string;
}

export interface ProgramResult {
  /** what the program wrote on stdout, when collected ('' otherwise) */
  stdout: string;
  /** the last STDERR_TAIL characters it wrote on stderr, with what `redact` hides taken out */
  stderr: string;
}

/** A program started by startProgram (or a fluent-ffmpeg command run by runFfmpegCommand). */
export interface RunningProgram {
  /** its process id, once it runs (the id of its group too) */
  readonly pid: number | undefined;
  /** stdout, for a run started with stdout 'stream' (else null): read it to its end, or stop the run */
  readonly stdout: Readable | null;
  /** settles once the program has ended and its pipes are closed */
  readonly done: Promise<ProgramResult>;
  /** true until `done` settles */
  readonly running: boolean;
  /** kills its group now (SIGKILL); `done` rejects with `reason` (default an AbortError). Nothing once it has ended */
  stop(reason?: unknown): void;
  /**
   * Asks the program alone to end (SIGTERM by default), as a service is stopped: it ends as it
   * will, and what it leaves of its group is killed then.
   */
  terminate(signal?: NodeJS.Signals): void;
}

/** What went wrong: not found, found but not started, ended badly, out of time, too much output. */
export type ProgramFailure = 'missing' | 'unstartable' | 'exit' | 'timeout' | 'output';

/** A run that failed, with what the program said. Aborted runs reject with the signal's reason instead. */
export class ProgramError extends Error {
  /** the program's name, as messages give it */
  readonly program: string;
  readonly failure: ProgramFailure;
  /** its exit code, when it exited ('exit') */
  readonly code: number | null;
  /** the signal that killed it, when one did ('exit': not one this module sent) */
  readonly signal: NodeJS.Signals | null;
  /** the last of what it wrote on stderr, redacted */
  readonly stderr: string;
  /** what it wrote on stdout until then, when collected */
  readonly stdout: string;

  constructor(
    message: string,
    details: {
      program: string;
      failure: ProgramFailure;
      code?: number | null;
      signal?: NodeJS.Signals | null;
      stderr?: string;
      stdout?: string;
      cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ProgramError';
    this.program = details.program;
    this.failure = details.failure;
    this.code = details.code ?? null;
    this.signal = details.signal ?? null;
    this.stderr = details.stderr ?? '';
    this.stdout = details.stdout ?? '';
  }
}

/** Characters of stderr a run keeps: enough for ffmpeg's or yt-dlp's last error and what led to it. */
export const STDERR_TAIL = 4096;
const MAX_STDOUT = 16 * 1024 * 1024;
const QUOTED_LINES = 5;

/** The last `count` non-empty lines of `text`. */
export function lastLines(text: string, count: number): string[] {
  return text
    .split(/\r?\n|\r/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-count);
}

/** The message of a run that started and ended badly: how it ended, and its last stderr lines. */
export function exitMessage(program: string, code: number | null, signal: NodeJS.Signals | null, stderr: string, quoteLines = QUOTED_LINES): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const quoted = lastLines(stderr, quoteLines).join(' | ');
  return `${program} ${how}${quoted ? `: ${quoted}` : ''}`;
}

/** The error of a spawn that failed: ENOENT is a program not installed, anything else one that would not start. */
export function startError(program: string, cause: NodeJS.ErrnoException): ProgramError {
  const missing = cause.code === 'ENOENT';
  return new ProgramError(missing ? `${program} is not installed or not on PATH` : `${program} could not start: ${cause.message}`, {
    program,
    failure: missing ? 'missing' : 'unstartable',
    cause,
  });
}

/** The last `limit` characters of a stream of text, as written so far. */
export class TextTail {
  private text = '';
  constructor(private readonly limit = STDERR_TAIL) {}
  add(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit);
  }
  toString(): string {
    return this.text;
  }
}

/** A consumer of a run's output whose exception ends the run with it (`stop`), rather than escaping from a stream's event. */
const guardedBy =
  (stop: (reason: unknown) => void) =>
  <T>(fn: (v: T) => void) =>
  (v: T) => {
    try {
      fn(v);
    } catch (e) {
      stop(e);
    }
  };

const abortError = () => new DOMException('The program was stopped', 'AbortError');

/** Starts a program under the rules above; `done` tells how it ended. */
export function startProgram(file: string, args: readonly string[], options: ProgramOptions = {}): RunningProgram {
  const { signal, timeoutMs, redact = (t: string) => t } = options;
  const name = options.name ?? path.basename(file);
  const stdoutMode = options.logFd !== undefined ? 'log' : typeof options.stdout === 'function' ? 'lines' : (options.stdout ?? 'collect');
  if (signal?.aborted) return notStarted(signal.reason, stdoutMode === 'stream' ? Readable.from([]) : null);

  const niceness = currentNiceness();
  const [command, commandArgs] = atNiceness(niceness, ...tiedToThisProcess(file, args, programSearchPath(options.env)));
  const out = options.logFd ?? (stdoutMode === 'ignore' ? 'ignore' : 'pipe');
  const child = spawn(command, commandArgs, {
    cwd: options.cwd,
    // this service's mark goes with a program given an environment of its own (priority.ts, markPrograms)
    env: options.env && withServiceMark(options.env),
    stdio: ['ignore', out, options.logFd ?? 'pipe'],
    detached: GROUPS,
    shell: false,
  });
  const pid = child.pid;
  if (pid) keeper.add(pid);
  child.once('exit', programStarted(pid, niceness));

  const stderr = new TextTail();
  let stdout = '';
  let settled = false;
  let exited = false;
  let stopped: { reason: unknown } | undefined;
  let spawnError: NodeJS.ErrnoException | undefined;

  const stop = (reason: unknown = abortError()) => {
    if (settled || stopped) return;
    stopped = { reason };
    if (!exited) killGroup(pid);
    // a process that left the group would hold the pipes open, and the run with them
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  const guarded = guardedBy(stop);

  if (child.stdout && stdoutMode === 'collect') {
    const max = options.maxStdout ?? MAX_STDOUT;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > max) {
        stop(new ProgramError(`${name} wrote more than ${max} characters`, { program: name, failure: 'output', stdout, stderr: redact(String(stderr)) }));
      }
    });
  } else if (child.stdout && stdoutMode === 'lines') eachLine(child.stdout, guarded(options.stdout as (line: string) => void));
  if (child.stderr) {
    const onLine = options.onStderrLine && guarded(options.onStderrLine);
    eachLine(child.stderr, (line) => {
      stderr.add(`${line}\n`);
      onLine?.(line);
    });
  }

  const timer = timeoutMs
    ? setTimeout(
        () => stop(new ProgramError(`${name} timed out after ${timeoutMs} ms`, { program: name, failure: 'timeout', stdout, stderr: redact(String(stderr)) })),
        timeoutMs,
      )
    : undefined;
  const onAbort = () => stop(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  child.on('error', (e: NodeJS.ErrnoException) => {
    // a failed spawn; 'close' follows. An error of a running child (a failed kill) changes nothing
    if (!pid) spawnError = e;
  });
  child.once('exit', () => {
    exited = true;
    // what the program left running in its group goes with it (its pipes would hold the run open)
    killGroup(pid);
    if (pid) keeper.remove(pid);
  });
  const done = new Promise<ProgramResult>((resolve, reject) => {
    child.once('close', (code: number | null, sig: NodeJS.Signals | null) => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const tail = redact(String(stderr));
      if (stopped) return reject(stopped.reason);
      if (spawnError) return reject(startError(name, spawnError));
      if (code === 0) return resolve({ stdout, stderr: tail });
      reject(
        new ProgramError(exitMessage(name, code, sig, tail, options.quoteLines), { program: name, failure: 'exit', code, signal: sig, stderr: tail, stdout }),
      );
    });
  });
  // the caller may only stop a run, never read its end: no unhandled rejection then
  done.catch(() => undefined);

  return {
    pid,
    stdout: stdoutMode === 'stream' ? child.stdout : null,
    done,
    get running() {
      return !settled;
    },
    stop,
    terminate(sig: NodeJS.Signals = 'SIGTERM') {
      if (exited || !pid) return;
      try {
        process.kill(pid, sig);
      } catch {
        // gone already
      }
    },
  };
}

/** A run that never started, its signal aborted already: it rejects with the signal's reason, as a stopped run does. */
function notStarted(reason: unknown, stdout: Readable | null): RunningProgram {
  const done = Promise.reject(reason);
  done.catch(() => undefined);
  return { pid: undefined, stdout, done, running: false, stop: () => undefined, terminate: () => undefined };
}

/** Runs a program to its end (startProgram): its output, or the reason it failed. */
export function runProgram(file: string, args: readonly string[], options: ProgramOptions = {}): Promise<ProgramResult> {
  return startProgram(file, args, options).done;
}

/**
 * Runs a short program to its end and blocks until it has, for callers that cannot wait
 * (fonts.ts's font list, read where a render's arguments are built). It is tied to this
 * process, but leads no group: a blocking run cannot watch one, so its time limit kills the
 * program alone. For programs that start none (fc-list).
 */
export function runProgramSync(
  file: string,
  args: readonly string[],
  options: Pick<ProgramOptions, 'cwd' | 'env' | 'timeoutMs' | 'maxStdout' | 'name'> = {},
): ProgramResult {
  const name = options.name ?? path.basename(file);
  const [command, commandArgs] = tiedToThisProcess(file, args, programSearchPath(options.env));
  const ran = spawnSync(command, commandArgs, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: options.maxStdout ?? MAX_STDOUT,
  });
  const stdout = ran.stdout ?? '';
  const stderr = (ran.stderr ?? '').slice(-STDERR_TAIL);
  const error = ran.error as NodeJS.ErrnoException | undefined;
  if (error?.code === 'ETIMEDOUT')
    throw new ProgramError(`${name} timed out after ${options.timeoutMs} ms`, { program: name, failure: 'timeout', stdout, stderr });
  if (error?.code === 'ENOBUFS')
    throw new ProgramError(`${name} wrote more than ${options.maxStdout ?? MAX_STDOUT} characters`, { program: name, failure: 'output', stdout, stderr });
  if (error) throw startError(name, error);
  if (ran.status === 0) return { stdout, stderr };
  throw new ProgramError(exitMessage(name, ran.status, ran.signal, stderr), {
    program: name,
    failure: 'exit',
    code: ran.status,
    signal: ran.signal,
    stderr,
    stdout,
  });
}

// ---------------------------------------------------------------------------
// fluent-ffmpeg

/**
 * Runs a command fluent-ffmpeg built (the render's), holding it to this module's rules: the
 * ffmpeg it starts dies with this process (src/media/bin/ffmpeg-tied), the abort signal or the
 * time limit kills it, stderr's tail is kept and an exit quotes it in a ProgramError, stdout
 * comes line by line. `stop` kills it as well (the render's stall watchdog). fluent-ffmpeg
 * spawns ffmpeg itself, in this process's group; ffmpeg-tied gives it a session of its own
 * (setsid), so that the session takes its niceness (src/jobs/priority.ts, lowerSession).
 * ffmpeg starts no program, so it is all there is to kill.
 */
export function runFfmpegCommand(
  command: FfmpegCommand,
  options: Pick<ProgramOptions, 'signal' | 'timeoutMs' | 'onStderrLine' | 'redact' | 'quoteLines'> & { onStdoutLine?: (line: string) => void } = {},
): RunningProgram {
  const { signal, timeoutMs, redact = (t: string) => t } = options;
  const name = 'ffmpeg';
  if (signal?.aborted) return notStarted(signal.reason, null);
  command.setFfmpegPath(tiedFfmpegPath());

  const stderr = new TextTail();
  let proc: ChildProcess | undefined;
  let settled = false;
  let stopped: { reason: unknown } | undefined;
  const kill = () => {
    try {
      proc?.kill('SIGKILL');
    } catch {
      // gone already
    }
  };
  const stop = (reason: unknown = abortError()) => {
    if (settled || stopped) return;
    stopped = { reason };
    // before its start, it is killed as it starts
    kill();
  };
  const guarded = guardedBy(stop);

  const timer = timeoutMs
    ? setTimeout(
        () => stop(new ProgramError(`${name} timed out after ${timeoutMs} ms`, { program: name, failure: 'timeout', stderr: redact(String(stderr)) })),
        timeoutMs,
      )
    : undefined;
  const onAbort = () => stop(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  const done = new Promise<ProgramResult>((resolve, reject) => {
    const finish = (err: (Error & { code?: unknown }) | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const tail = redact(String(stderr));
      if (stopped) return reject(stopped.reason);
      if (!err) return resolve({ stdout: '', stderr: tail });
      // a failed spawn (ENOENT, EACCES) passed on as it came
      if (typeof err.code === 'string') return reject(startError(name, err as NodeJS.ErrnoException));
      // fluent-ffmpeg's words for an exit name no code: the process says how it ended
      if (proc && (proc.exitCode !== null || proc.signalCode !== null)) {
        const { exitCode: code, signalCode: sig } = proc;
        return reject(
          new ProgramError(exitMessage(name, code, sig, tail, options.quoteLines), { program: name, failure: 'exit', code, signal: sig, stderr: tail }),
        );
      }
      const missing = err.message === 'Cannot find ffmpeg';
      reject(
        new ProgramError(missing ? `${name} is not installed or not on PATH` : `${name} could not start: ${redact(err.message)}`, {
          program: name,
          failure: missing ? 'missing' : 'unstartable',
          stderr: tail,
          cause: err,
        }),
      );
    };
    command.on('start', () => {
      proc = (command as unknown as { ffmpegProc?: ChildProcess }).ffmpegProc;
      // its session takes its niceness in ffmpeg-tied, as it starts: nothing to set here
      proc?.once('exit', programStarted(proc.pid));
      if (proc?.stdout && options.onStdoutLine) eachLine(proc.stdout, guarded(options.onStdoutLine));
      if (stopped) kill();
    });
    const onLine = options.onStderrLine && guarded(options.onStderrLine);
    command.on('stderr', (line: string) => {
      stderr.add(`${line}\n`);
      onLine?.(line);
    });
    command.on('error', (err: Error) => finish(err));
    command.on('end', () => finish(null));
  });
  done.catch(() => undefined);
  command.run();

  return {
    get pid() {
      return proc?.pid;
    },
    stdout: null,
    done,
    get running() {
      return !settled;
    },
    stop,
    terminate(sig: NodeJS.Signals = 'SIGTERM') {
      try {
        proc?.kill(sig);
      } catch {
        // gone already
      }
    },
  };
}

// ---------------------------------------------------------------------------
// streams, paths

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
 * process, however it ends (`searchPath` finds a bare name; default this process's PATH).
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
 * The signal is the program's alone, not its children's: the group keeper takes those.
 *
 * Without setpriv (not Linux), or when `file` is not found (the spawn then fails with ENOENT,
 * as callers expect of a program missing), the program runs as it is.
 */
export function tiedToThisProcess(file: string, args: readonly string[], searchPath = programSearchPath()): [string, string[]] {
  const program = setprivPath() ? findExecutable(file, searchPath) : undefined;
  return setpriv && program ? [setpriv, ['--pdeathsig', 'KILL', '--', program, ...args]] : [file, [...args]];
}

/**
 * A command run at `niceness` (above 0: through coreutils' nice, which sets it
 * before the program starts any thread of its own); as it is when nice is not
 * on PATH.
 */
function atNiceness(niceness: number, command: string, args: string[]): [string, string[]] {
  if (niceness <= 0) return [command, args];
  nice ??= findExecutable('nice', programSearchPath()) ?? null;
  return nice ? [nice, ['-n', String(Math.min(19, Math.round(niceness))), command, ...args]] : [command, args];
}
let nice: string | null | undefined;

/** setpriv, when this is Linux and it is on PATH; looked up once. */
function setprivPath(): string | null {
  setpriv ??= process.platform === 'linux' ? (findExecutable('setpriv', programSearchPath()) ?? null) : null;
  return setpriv;
}

/**
 * ffmpeg tied to this process, for a runner that takes a program's path alone (fluent-ffmpeg):
 * src/media/bin/ffmpeg-tied when setpriv and ffmpeg are on PATH, else ffmpeg as it is.
 */
function tiedFfmpegPath(): string {
  return setprivPath() && findExecutable('ffmpeg', programSearchPath()) ? TIED_FFMPEG : 'ffmpeg';
}

const TIED_FFMPEG = fileURLToPath(new URL('./bin/ffmpeg-tied', import.meta.url));

// ---------------------------------------------------------------------------
// process groups

/**
 * Process groups are a POSIX matter; on Windows a run kills its program alone. A program
 * started detached leads a session (and a process group) of its own: its group is what a
 * stop kills, and its session what the scheduler weighs (src/jobs/priority.ts, lowerSession).
 */
const GROUPS = process.platform !== 'win32';

function killGroup(pid: number | undefined) {
  if (!pid) return;
  try {
    process.kill(GROUPS ? -pid : pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/**
 * The group keeper: one shell per process that started a program, reading "+ pgid" and
 * "- pgid" lines from a pipe only this process holds. When this process ends, however it
 * ends (SIGKILL included), the pipe closes, and the keeper kills every group still listed:
 * the programs' own children, which the parent-death signal does not reach. It ignores the
 * signals a terminal or a service manager sends to the whole group, so it outlives this
 * process by the moment it takes to do that, and ends then. A pid is taken off the list once
 * its program has ended and its group been killed.
 */
const KEEPER_SCRIPT = `trap '' INT HUP TERM QUIT
groups=' '
while read -r op pid; do
  case $op in
    +) groups="$groups$pid " ;;
    -) case $groups in *" $pid "*) groups="\${groups%% $pid *} \${groups#* $pid }" ;; esac ;;
  esac
done
for pid in $groups; do kill -s KILL -- "-$pid" 2>/dev/null; done
`;

const keeper = new (class GroupKeeper {
  private readonly groups = new Set<number>();
  private input: Writable | undefined;

  add(pid: number) {
    if (!GROUPS) return;
    this.groups.add(pid);
    this.send(`+ ${pid}\n`);
  }

  remove(pid: number) {
    if (!this.groups.delete(pid)) return;
    this.send(`- ${pid}\n`);
  }

  private send(line: string) {
    if (this.input) this.input.write(line);
    else this.start();
  }

  /** Starts a keeper and lists the groups running, this change included (a keeper that died is replaced so). */
  private start() {
    let child: ChildProcess;
    try {
      child = spawn('/bin/sh', ['-c', KEEPER_SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'] });
    } catch {
      return;
    }
    const input = child.stdin!;
    const gone = () => {
      if (this.input === input) this.input = undefined;
    };
    child.on('error', gone);
    child.once('exit', gone);
    input.on('error', gone);
    // neither the keeper nor its pipe holds this process open
    child.unref();
    (input as Writable & { unref?: () => void }).unref?.();
    this.input = input;
    input.write([...this.groups].map((pid) => `+ ${pid}\n`).join(''));
  }
})();
