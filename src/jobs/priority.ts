/**
 * Interactive work before batch work, inside a worker (docs/concurrency.md).
 *
 * A job runs in its class (JOB_CLASSES), which follows it through every await
 * (AsyncLocalStorage). While an interactive job that uses the CPU (an export,
 * a pipeline) runs in this process:
 * - the programs of batch and upkeep jobs (ffmpeg, the transcription engine)
 *   run at their class's niceness: those that start then start at it, those
 *   already running are lowered to it, every thread, as the interactive job
 *   starts. An export the user waits on renders at nearly full speed beside a
 *   long magic-clips analysis, which goes on with the cycles left. Lowered
 *   stays lowered: a process may not raise its children's priority again.
 * - work a batch job does in this process (the face detector, frame by frame)
 *   yields between its steps: `yieldToInteractive` waits until none runs.
 * With no interactive work here, batch work runs at the normal priority: it
 * gives way to this service's interactive work, not to every program of the
 * machine. "Here" is this machine: a worker also counts the interactive CPU
 * jobs other workers on the same machine (MACHINE_ID) run, read from the
 * shared queue every second (`setInteractiveNearby`, workers/agenda.ts).
 *
 * Users share the cores the same way: a user running more CPU jobs than
 * another user with CPU work, across every worker (`setUsersOverShare`, read
 * from the shared queue by workers/agenda.ts), has their programs run
 * SHARE_NICENESS lower, those running now lowered at once. A light user's
 * render beside another's flood of uploads runs at nearly full speed, and the
 * flood takes what is left; a user alone, or users running alike, are never
 * lowered.
 *
 * A render's decoder and encoder take threads by the same standing
 * (`renderThreads`): ffmpeg's own while no program of this service that keeps
 * a core busy and weighs as much runs beside it on the machine, the cores'
 * share of each such program otherwise.
 *
 * The claim keeps the other half: every kind has slots of its own in a worker
 * (workers/agenda.ts), so a delivery or a render is never left waiting for
 * slots that long jobs hold.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import { SERVICE_VARIABLE, serviceMarkOf, setServiceMark } from '../config.js';
import { INTERACTIVE_CPU_JOB_NAMES, JOB_CLASSES, type JobClass, type JobName } from './names.js';

/** The niceness of each class's programs (0 is normal, 19 the lowest). */
export const CLASS_NICENESS: Readonly<Record<JobClass, number>> = { interactive: 0, batch: 10, upkeep: 10 };

/** How much lower the programs of a user over their share run (added to their class's, at most 19). */
export const SHARE_NICENESS = 15;

interface Running {
  cls: JobClass;
  /** the job's user (its data's userId), if it has one */
  user?: string;
}

const current = new AsyncLocalStorage<Running>();
/** interactive jobs that use the CPU, running in this process now */
let interactive = 0;
/** interactive jobs that use the CPU, run by other workers on this machine, as this worker last read them */
let nearby = 0;
let resume: Array<() => void> = [];
/** whether batch work gives way now */
const interactiveHere = () => interactive > 0 || nearby > 0;

/**
 * This machine, as the workers on it name it in the queue: the kernel's boot id, which every
 * container on one machine shares (their cores are the same), or the host name where there is none.
 */
export const MACHINE_ID: string = (() => {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || os.hostname();
  } catch {
    return os.hostname();
  }
})();

/** The class of the work running here: its job's, or interactive outside any job (a request's preview). */
export const currentClass = (): JobClass => current.getStore()?.cls ?? 'interactive';

/** users running more CPU jobs than another user with CPU work, as the worker last read it */
let overShare: ReadonlySet<string> = new Set();

/** The niceness of a program of work in `running`: its class's while interactive work runs here, plus SHARE_NICENESS for a user over their share. */
function nicenessOf(running: Running | undefined): number {
  const cls = running?.cls ?? 'interactive';
  const byClass = cls !== 'interactive' && interactiveHere() ? CLASS_NICENESS[cls] : 0;
  const byShare = running?.user !== undefined && overShare.has(running.user) ? SHARE_NICENESS : 0;
  return Math.min(19, byClass + byShare);
}

/** The niceness a program of the current work starts at (nicenessOf). */
export const currentNiceness = (): number => nicenessOf(current.getStore());

/** programs of jobs running now: pid → the work that started them */
const programs = new Map<number, Running>();

/**
 * A program has started, at `niceness`: its session is set to that niceness
 * too; a program of a job is lowered when interactive work starts here (a
 * batch or upkeep one) or its user goes over their share. Returns what forgets
 * it (call it when the program ends).
 */
export function programStarted(pid: number | undefined, niceness = 0): () => void {
  // the niceness it started at holds for its whole session (lowerSession)
  if (pid) lowerSession(pid, niceness);
  const running = current.getStore();
  if (!running || !pid) return () => {};
  programs.set(pid, running);
  return () => void programs.delete(pid);
}

/** Lowers every program running now to its work's niceness (nicenessOf); one above it already is left. */
function lowerPrograms() {
  for (const [pid, running] of programs) {
    const niceness = nicenessOf(running);
    if (niceness > 0) lower(pid, niceness);
  }
}

/**
 * The users over their share now: those running more CPU jobs (CPU_JOB_NAMES,
 * every worker's) than the user running fewest among those running any. Their
 * programs running here are lowered at once, and their next ones start lower.
 */
export function setUsersOverShare(users: Iterable<string>): void {
  const next = new Set(users);
  const added = [...next].some((u) => !overShare.has(u));
  overShare = next;
  if (added) lowerPrograms();
}

/** The users over their share among running CPU jobs counted per user: more than the fewest any of them runs (none when fewer than two users run). */
export function usersOverShare(runningByUser: ReadonlyMap<string, number>): string[] {
  if (runningByUser.size < 2) return [];
  const fewest = Math.min(...runningByUser.values());
  return [...runningByUser].filter(([, n]) => n > fewest).map(([user]) => user);
}

/**
 * Where the kernel groups tasks by session (Linux's autogroup, on by default
 * on most distributions), a niceness weighs only against tasks of the same
 * session: a program leading a session of its own (as every program here
 * does, src/media/program.ts) competes with the other sessions as a whole
 * group, at the group's own niceness. Measured here: four busy programs in
 * sessions of their own, two at nice 10, shared two cores evenly; with their
 * sessions' niceness at 10 too, the two at 0 ran about nine times as much.
 * So a program's session is lowered with it, when the program leads a session
 * of its own (never this process's: that would lower the worker itself).
 * Without autogroup (no /proc/<pid>/autogroup), the niceness alone decides.
 */
export function lowerSession(pid: number, niceness: number): void {
  if (niceness <= 0 || process.platform !== 'linux') return;
  try {
    const theirs = fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8');
    ourSession ??= sessionOf(fs.readFileSync('/proc/self/autogroup', 'utf8'));
    if (sessionOf(theirs) === ourSession) return;
    const now = Number(/nice (-?\d+)/.exec(theirs)?.[1] ?? 0);
    if (now < niceness) fs.writeFileSync(`/proc/${pid}/autogroup`, String(Math.min(19, niceness)));
  } catch {
    // no autogroup here, or the program ended meanwhile
  }
}

/** this process's autogroup, read once: a process keeps the session it started in (none here calls setsid) */
let ourSession: string | undefined;
/** The group of an autogroup line ("/autogroup-85 nice 0"). */
const sessionOf = (line: string) => line.split(' ')[0];

/** Lowers every thread of `pid` to `niceness` (raising a niceness is always allowed), and its session (lowerSession); a thread gone meanwhile is left. */
function lower(pid: number, niceness: number) {
  lowerSession(pid, niceness);
  let threads: string[];
  try {
    threads = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    threads = [String(pid)];
  }
  for (const tid of threads) {
    try {
      if (os.getPriority(Number(tid)) < niceness) os.setPriority(Number(tid), niceness);
    } catch {
      // the thread, or the program, ended meanwhile
    }
  }
}

/**
 * Runs a job of `name` (of `user`, its data's userId) in its class; an
 * interactive job that uses the CPU holds back this process's batch steps
 * while it runs.
 */
export async function runInClass<T>(name: string, work: () => Promise<T>, user?: string): Promise<T> {
  const cls = JOB_CLASSES[name as JobName] ?? 'batch';
  const holds = INTERACTIVE_CPU_JOB_NAMES.has(name);
  if (holds && interactive++ === 0 && nearby === 0) lowerPrograms();
  try {
    return await current.run(user === undefined ? { cls } : { cls, user }, work);
  } finally {
    if (holds) --interactive;
    resumeBatch();
  }
}

/**
 * How many interactive jobs that use the CPU other workers on this machine run now (read from
 * the shared queue by workers/agenda.ts): while there are any, batch work here gives way as it
 * does to this worker's own.
 */
export function setInteractiveNearby(count: number): void {
  const before = interactiveHere();
  nearby = count;
  if (!before && interactiveHere()) lowerPrograms();
  resumeBatch();
}

/** Lets the waiting batch steps go on once no interactive CPU work runs on this machine. */
function resumeBatch() {
  if (interactiveHere() || resume.length === 0) return;
  const waiting = resume;
  resume = [];
  for (const go of waiting) go();
}

/**
 * A step boundary of batch work: returns at once unless this is batch work
 * and an interactive job that uses the CPU runs on this machine (in this
 * process or another worker), in which case it waits until none does (or
 * `signal` aborts).
 */
export function yieldToInteractive(signal?: AbortSignal): Promise<void> | undefined {
  if (!interactiveHere() || currentClass() === 'interactive') return undefined;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      resume = resume.filter((r) => r !== go);
      reject(signal!.reason);
    };
    const go = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    resume.push(go);
  });
}

/** How many interactive jobs that use the CPU run in this process (for tests and /metrics). */
export const interactiveRunning = () => interactive;

// ---------------------------------------------------------------------------
// a render's threads

/**
 * Marks the programs this process starts from now on (every program inherits its environment: SERVICE_VARIABLE) as this service's: the
 * one whose data is in the database at `databaseUrl` (a digest of its host, port and name; not its credentials).
 */
export function markPrograms(databaseUrl: string): void {
  let where = databaseUrl;
  try {
    const url = new URL(databaseUrl);
    where = `${url.hostname.toLowerCase()}:${url.port || '5432'}${url.pathname}`;
  } catch {
    // not a URL: the whole text names it
  }
  setServiceMark(createHash('sha256').update(where).digest('hex').slice(0, 16));
}

/**
 * The programs that keep a core busy for as long as they run: ffmpeg when it encodes H.264 (a render, an AI clip), and
 * pocketsphinx (src/media/transcription/pocketsphinx.ts), by their names as the kernel keeps them (15 characters).
 * Not counted: ffmpeg's other runs (the sound written for the speech engine before it starts, frames read for faces: short
 * or light), and the Whisper engine, which runs in a Node process of its own.
 */
const BUSY_PROGRAMS = new Set(['ffmpeg', 'pocketsphinx_continuous'].map((name) => name.slice(0, 15)));

/**
 * How many of this service's programs (markPrograms) that keep a core busy run now at a niceness no higher than
 * `niceness`, as this process sees them in /proc: every worker's on the machine when they share its processes (one
 * host, or one container), this worker's own in a container of its own. A program of a worker that died is gone with
 * it (it dies with its parent where setpriv is installed: src/media/program.ts). None where there is no /proc, or no
 * mark.
 */
export async function busyProgramsBeside(niceness: number): Promise<number> {
  const service = serviceMarkOf();
  if (!service || process.platform !== 'linux') return 0;
  const mark = `${SERVICE_VARIABLE}=${service}`;
  let pids: string[];
  try {
    pids = (await fsp.readdir('/proc')).filter((d) => /^\d/.test(d));
  } catch {
    return 0;
  }
  const busy = async (pid: string) => {
    try {
      const stat = await fsp.readFile(`/proc/${pid}/stat`, 'latin1');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!BUSY_PROGRAMS.has(comm)) return false;
      // the fields after the name start at the state (the third): the niceness is the nineteenth
      if (!(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) <= niceness)) return false;
      if (!(await fsp.readFile(`/proc/${pid}/environ`, 'latin1')).split('\0').includes(mark)) return false;
      return comm !== 'ffmpeg' || (await fsp.readFile(`/proc/${pid}/cmdline`, 'latin1')).includes('libx264');
    } catch {
      // ended meanwhile, or another user's
      return false;
    }
  };
  return (await Promise.all(pids.map(busy))).filter(Boolean).length;
}

/**
 * The threads a render's decoders and encoders each get (ffmpeg's `-threads`): ffmpeg's own choice (undefined) while it
 * has the machine's cores to itself, and the cores' share of each busy program of this service that runs beside it and
 * weighs as much or more (busyProgramsBeside, at a niceness no higher than the render's `niceness`) otherwise: one each on 2 cores.
 *
 * Threads beyond a program's share of the cores cost CPU without making anything faster: the decoder's frame threads
 * (one a core and one more) and x264's (one and a half a core) wait on each other and evict each other's frames from
 * the caches. Measured on 2 cores (the load bench's 20 s 1080x1920 talk, four pairs of runs): six transcodes at once
 * took 19 % less wall and CPU time with one thread each than with ffmpeg's own, two at once 11 % less; one alone took
 * 1.86 times as long. A render that outranks the rest (an export beside batch work, a user's beside another's flood)
 * keeps ffmpeg's own: the rest give way to it. A render keeps the threads it started with.
 */
export async function renderThreads(niceness = currentNiceness(), cores = os.availableParallelism()): Promise<number | undefined> {
  const each = Math.floor(cores / (1 + (await busyProgramsBeside(niceness))));
  return each >= cores ? undefined : Math.max(1, each);
}
