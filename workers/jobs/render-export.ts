import { RENDER_JOB, runExport } from '../../src/exports/service.js';
import type { JobDefinition } from '../registry.js';

/** A dead worker's render is taken over once its lock goes unrenewed this long (renders renew it with progress). */
const LOCK_MS = Number(process.env.PROJECT_JOB_LOCK_MS) || 2 * 60_000;

/** One export: a single ffmpeg pass into storage (src/exports/service.ts). */
export const renderExportJob: JobDefinition<{ exportId: string; projectId: string; userId: string }> = {
  name: RENDER_JOB,
  // renders are CPU-bound: one at a time per worker on a small machine
  concurrency: 1,
  lockLifetime: LOCK_MS,
  backoff: null,
  async handler(job, { app, log, progress }) {
    let last = 0;
    const heartbeat = setInterval(() => void progress(last).catch(() => {}), LOCK_MS / 4);
    try {
      await runExport(app, job.attrs.data.exportId, {
        log,
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
