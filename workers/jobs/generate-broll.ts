import { runBrollGeneration } from '../../src/projects/broll.js';
import { GENERATE_BROLL_JOB } from '../../src/projects/update.js';
import { LONG_JOB_ATTEMPTS, LONG_JOB_LOCK_MS, longJobBackoff, withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../registry.js';

/** The AI B-roll clips of an accepted project update. */
export const generateBrollJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: GENERATE_BROLL_JOB,
  concurrency: 1,
  lockLifetime: LONG_JOB_LOCK_MS,
  backoff: longJobBackoff,
  handler: (job, { app, log, progress }) =>
    withHeartbeat(progress, (touch) =>
      runBrollGeneration(app, job.attrs.data.projectId, { log, attempt: (job.attrs.failCount ?? 0) + 1, maxAttempts: LONG_JOB_ATTEMPTS, touch }),
    ),
};
