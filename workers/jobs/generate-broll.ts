import { backoffStrategies } from 'agenda';
import { runBrollGeneration } from '../../src/projects/broll.js';
import { GENERATE_BROLL_JOB } from '../../src/projects/update.js';
import { LONG_JOB_LOCK_MS, withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../registry.js';

const MAX_ATTEMPTS = 3;

/** The AI B-roll clips of an accepted project update. */
export const generateBrollJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: GENERATE_BROLL_JOB,
  concurrency: 1,
  lockLifetime: LONG_JOB_LOCK_MS,
  backoff: backoffStrategies.exponential({ delay: 5000, factor: 3, maxRetries: MAX_ATTEMPTS - 1, jitter: 0.2 }),
  handler: (job, { app, log, progress }) =>
    withHeartbeat(progress, (touch) =>
      runBrollGeneration(app, job.attrs.data.projectId, { log, attempt: (job.attrs.failCount ?? 0) + 1, maxAttempts: MAX_ATTEMPTS, touch }),
    ),
};
