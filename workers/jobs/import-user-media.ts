import { importUserMedia } from '../../src/library/user-media.js';
import type { JobDefinition } from '../types.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/** Downloads and probes a library entry added by URL. */
export const importUserMediaJob: JobDefinition<{ userMediaId: string; userId: string }> = {
  name: JOB_NAMES.importUserMedia,
  concurrency: 2,
  async handler(job, { app }) {
    await importUserMedia(app, job.attrs.data.userMediaId, (job.attrs.failCount ?? 0) + 1);
  },
};
