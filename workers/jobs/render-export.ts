import { runExport } from '../../src/exports/service.js';
import { withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../types.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/** One export: a single ffmpeg pass into storage (src/exports/service.ts). */
export const renderExportJob: JobDefinition<{ exportId: string; projectId: string; userId: string }> = {
  name: JOB_NAMES.renderExport,
  // renders are CPU-bound: one at a time per worker on a small machine
  concurrency: 1,
  lockLifetime: 'long',
  backoff: null,
  handler: (job, { app, log, progress, signal, lapsed }) =>
    withHeartbeat(app, progress, (touch) => runExport(app, job.attrs.data.exportId, { log, touch, signal, lapsed })),
};
