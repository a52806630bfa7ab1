/**
 * Interactive work before batch work, inside a worker (docs/concurrency.md).
 *
 * A job runs in its class (JOB_CLASSES), which follows it through every await
 * (AsyncLocalStorage):
 * - every program it starts (ffmpeg, the transcription engine) runs at its
 *   class's niceness: a batch job's programs take the cycles interactive work
 *   leaves, so an export the user waits on renders at nearly full speed beside
 *   a long magic-clips analysis, which goes on at the pace of what is left;
 * - work it does in this process (the face detector, frame by frame) yields
 *   between its steps: `yieldToInteractive` waits while an interactive job
 *   that uses the CPU runs in this process.
 *
 * The claim keeps the other half: every kind has slots of its own in a worker
 * (workers/agenda.ts), so a delivery or a render is never left waiting for
 * slots that long jobs hold.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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

/** The niceness the current work's programs run at. */
export const currentNiceness = (): number => CLASS_NICENESS[currentClass()];

/** Runs a job of `name` in its class; an interactive job that uses the CPU holds back this process's batch steps while it runs. */
export async function runInClass<T>(name: string, work: () => Promise<T>): Promise<T> {
  const cls = JOB_CLASSES[name as JobName] ?? 'batch';
  const holds = cls === 'interactive' && CPU_JOB_NAMES.has(name);
  if (holds) interactive++;
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
