// What a job file declares and what its handler receives: apart from the
// registry, which imports every job file.
import type { BackoffStrategy, Job } from 'agenda';
import type { App } from '../src/app.js';
import type { Logger } from '../src/logger.js';

/** What a job handler gets besides its Agenda job. */
export interface JobContext {
  app: App;
  /** child of the process logger, bound to the job's name and id */
  log: Logger;
  /**
   * Reports progress (0-100) to subscribers, local and remote, and renews the job's lock
   * (it is `job.touch`). Long jobs must call it at least every lockLifetime/2, or
   * Agenda cancels them; it throws once the job has been cancelled, so it is also the
   * cancellation check.
   */
  progress(percent: number): Promise<void>;
  /** aborts when the run must stop now: its project was deleted */
  signal: AbortSignal;
  /**
   * True once Agenda has given this run up because its lock lapsed (agenda.ts, RunLapsed): the job is
   * another run's, or runs again, so this run records no failure of its subject.
   */
  lapsed(): boolean;
}

/** One background job: its handler plus the options Agenda needs to run it. */
export interface JobDefinition<DATA = Record<string, unknown>> {
  name: string;
  // Method syntax on purpose: parameters compare bivariantly, so a definition typed with its
  // own DATA still fits in the plain `JobDefinition[]` below.
  handler(job: Job<DATA>, ctx: JobContext): Promise<void>;
  /** jobs of this name run at once per worker process (default: the factory's defaultConcurrency) */
  concurrency?: number;
  /** ms a run may go without `ctx.progress` before Agenda presumes it dead (default: the factory's); 'long': PROJECT_JOB_LOCK_MS */
  lockLifetime?: number | 'long';
  /** recurring: interval ('1 hour') or cron expression; workers schedule it when they start */
  every?: string;
  /** retries after a failure; null disables them (default: the factory's exponential backoff) */
  backoff?: BackoffStrategy | null;
}
