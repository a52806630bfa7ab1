import { backoffStrategies } from 'agenda';
import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { PROCESS_JOB } from '../../src/projects/service.js';
import type { JobDefinition } from '../registry.js';

const MAX_ATTEMPTS = 3;
/**
 * A dead worker's run is taken over once its lock has gone unrenewed this long;
 * runs renew it with every progress report and on a heartbeat at a quarter of it.
 */
const LOCK_MS = Number(process.env.PROJECT_JOB_LOCK_MS) || 2 * 60_000;

/** The pipeline of a created project: fetch, probe, transcribe, complete (src/projects/pipeline.ts). */
export const processProjectJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: PROCESS_JOB,
  concurrency: 2,
  lockLifetime: LOCK_MS,
  backoff: backoffStrategies.exponential({ delay: 5000, factor: 3, maxRetries: MAX_ATTEMPTS - 1, jitter: 0.2 }),
  async handler(job, { app, log, progress }) {
    let last = 0;
    const heartbeat = setInterval(() => void progress(last).catch(() => {}), LOCK_MS / 4);
    try {
      await runProjectPipeline(app, job.attrs.data.projectId, {
        log,
        attempt: (job.attrs.failCount ?? 0) + 1,
        maxAttempts: MAX_ATTEMPTS,
        touch: (percent) => {
          last = percent;
          return progress(percent);
        },
      });
    } finally {
      clearInterval(heartbeat);
    }
  },
};
