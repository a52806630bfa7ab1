import { backoffStrategies } from 'agenda';
import { runBrollGeneration } from '../../src/projects/broll.js';
import { GENERATE_BROLL_JOB } from '../../src/projects/update.js';
import type { JobDefinition } from '../registry.js';

const MAX_ATTEMPTS = 3;
const LOCK_MS = 2 * 60_000;

/** The AI B-roll clips of an accepted project update. */
export const generateBrollJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: GENERATE_BROLL_JOB,
  concurrency: 1,
  lockLifetime: LOCK_MS,
  backoff: backoffStrategies.exponential({ delay: 5000, factor: 3, maxRetries: MAX_ATTEMPTS - 1, jitter: 0.2 }),
  async handler(job, { app, log, progress }) {
    let last = 0;
    const heartbeat = setInterval(() => void progress(last).catch(() => {}), LOCK_MS / 4);
    try {
      await runBrollGeneration(app, job.attrs.data.projectId, {
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
