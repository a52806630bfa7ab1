import { importUserMedia, IMPORT_JOB } from '../../src/library/user-media.js';
import type { JobDefinition } from '../registry.js';

/** Downloads and probes a library entry added by URL. */
export const importUserMediaJob: JobDefinition<{ userMediaId: string; userId: string }> = {
  name: IMPORT_JOB,
  concurrency: 2,
  async handler(job, { app }) {
    await importUserMedia(app, job.attrs.data.userMediaId, (job.attrs.failCount ?? 0) + 1);
  },
};
