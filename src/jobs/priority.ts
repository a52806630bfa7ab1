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
 * machine.
 *
 * The claim keeps the other half: every kind has slots of its own in a worker
 * (workers/agenda.ts), so a delivery or a render is never left waiting for
 * slots that long jobs hold.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import { CPU_JOB_NAMES, JOB_CLASSES, type JobClass, type JobName } from './names.js';

/** The niceness of each class's programs (0 is normal, 19 the lowest). */
export const CLASS_NICENESS: Readonly<Record<JobClass, number>> = { interactive: 0, batch: 10, upkeep: 10 };

interface Running {
  cls: JobClass;
}

const current = new AsyncLocalStorage<Running>();
/** interactive jobs that use the CPU, running in this process now */
let interactive = 0;
let resume: Array<() => void> = [];

/** The class of the work running here: its job's, or interactive outside any job (a request's preview). */
export const currentClass = (): JobClass => current.getStore()?.cls ?? 'interactive';

/** The niceness a program of the current work starts at: its class's while interactive work runs here, else 0. */
export function currentNiceness(): number {
  const cls = currentClass();
  return cls !== 'interactive' && interactive > 0 ? CLASS_NICENESS[cls] : 0;
}

/** batch and upkeep programs running now: pid → their class's niceness */
const programs = new Map<number, number>();

/**
 * A program of the current work has started: a batch or upkeep one is lowered
 * to its class's niceness when interactive work starts here. Returns what
 * forgets it (call it when the program ends).
 */
export function programStarted(pid: number | undefined): () => void {
  const cls = currentClass();
  if (cls === 'interactive' || !pid) return () => {};
  programs.set(pid, CLASS_NICENESS[cls]);
  return () => void programs.delete(pid);
}

/** Lowers every thread of `pid` to `niceness` (raising a niceness is always allowed); a thread gone meanwhile is left. */
function lower(pid: number, niceness: number) {
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

/** Runs a job of `name` in its class; an interactive job that uses the CPU holds back this process's batch steps while it runs. */
export async function runInClass<T>(name: string, work: () => Promise<T>): Promise<T> {
  const cls = JOB_CLASSES[name as JobName] ?? 'batch';
  const holds = cls === 'interactive' && CPU_JOB_NAMES.has(name);
  if (holds && interactive++ === 0) for (const [pid, niceness] of programs) lower(pid, niceness);
  try {
    return await current.run({ cls }, work);
  } finally {
    if (holds && --interactive === 0) {
      const waiting = resume;
      resume = [];
      for (const go of waiting) go();
    }
  }
}

/**
 * A step boundary of batch work: returns at once unless this is batch work
 * and an interactive job that uses the CPU runs in this process, in which case
 * it waits until none does (or `signal` aborts).
 */
export function yieldToInteractive(signal?: AbortSignal): Promise<void> | undefined {
  if (interactive === 0 || currentClass() === 'interactive') return undefined;
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
