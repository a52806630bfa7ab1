import { backoffStrategies } from 'agenda';
import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { PROCESS_JOB } from '../../src/projects/service.js';
import { LONG_JOB_LOCK_MS, withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../registry.js';

const MAX_ATTEMPTS = 3;

/** The pipeline of a created project: fetch, probe, transcribe, complete (src/projects/pipeline.ts). */
export const processProjectJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: PROCESS_JOB,
  concurrency: 2,
  lockLifetime: LONG_JOB_LOCK_MS,
  backoff: backoffStrategies.exponential({ delay: 5000, factor: 3, maxRetries: MAX_ATTEMPTS - 1, jitter: 0.2 }),
  handler: (job, { app, log, progress }) =>
    withHeartbeat(progress, (touch) =>
      runProjectPipeline(app, job.attrs.data.projectId, { log, attempt: (job.attrs.failCount ?? 0) + 1, maxAttempts: MAX_ATTEMPTS, touch }),
    ),
};
