import { backoffStrategies } from 'agenda';
import type { App } from '../src/app.js';
import type { LongJobContext } from '../src/jobs/context.js';
import { BACKOFF_UNIT_MS } from './backoff.js';
import type { JobDefinition } from './types.js';

/**
 * Runs `work` with a `touch` that reports progress, and renews the lock in between reports.
 * A long job's lock lives `config.longJobLockMs` (lockLifetime 'long'): a dead worker's run
 * is taken over once it has gone unrenewed this long. Runs renew it with every progress
 * report and with a heartbeat at a quarter of it, so a quiet step (one long ffmpeg call)
 * keeps it too.
 */
export async function withHeartbeat<T>(
  app: Pick<App, 'config'>,
  progress: (percent: number) => Promise<void>,
  work: (touch: (percent: number) => Promise<void>) => Promise<T>,
): Promise<T> {
  let last = 0;
  const timer = setInterval(() => void progress(last).catch(() => {}), app.config.longJobLockMs / 4);
  try {
    return await work((percent) => {
      last = percent;
      return progress(percent);
    });
  } finally {
    clearInterval(timer);
  }
}

/** Runs of a long job in all: failures for a passing reason are retried after 5 s, then 15 s. */
export const LONG_JOB_ATTEMPTS = 3;
export const longJobBackoff = backoffStrategies.exponential({ delay: BACKOFF_UNIT_MS, factor: 3, maxRetries: LONG_JOB_ATTEMPTS - 1, jitter: 0.2 });

/**
 * A long job over one project that is retried for passing failures: the
 * heartbeat, the attempt count and the backoff in one place.
 */
export function longProjectJob(
  name: string,
  concurrency: number,
  run: (app: App, projectId: string, ctx: LongJobContext) => Promise<void>,
): JobDefinition<{ projectId: string; userId: string }> {
  return {
    name,
    concurrency,
    lockLifetime: 'long',
    backoff: longJobBackoff,
    handler: (job, { app, log, progress, lapsed }) =>
      withHeartbeat(app, progress, (touch) =>
        run(app, job.attrs.data.projectId, { log, attempt: (job.attrs.failCount ?? 0) + 1, maxAttempts: LONG_JOB_ATTEMPTS, touch, lapsed }),
      ),
  };
}
