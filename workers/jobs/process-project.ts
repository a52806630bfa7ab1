import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { PROCESS_JOB } from '../../src/projects/service.js';
import { LONG_JOB_ATTEMPTS, LONG_JOB_LOCK_MS, longJobBackoff, withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../registry.js';

/** The pipeline of a created project: fetch, probe, transcribe, complete (src/projects/pipeline.ts). */
export const processProjectJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: PROCESS_JOB,
  concurrency: 2,
  lockLifetime: LONG_JOB_LOCK_MS,
  backoff: longJobBackoff,
  handler: (job, { app, log, progress }) =>
    withHeartbeat(progress, (touch) =>
      runProjectPipeline(app, job.attrs.data.projectId, { log, attempt: (job.attrs.failCount ?? 0) + 1, maxAttempts: LONG_JOB_ATTEMPTS, touch }),
    ),
};
