import { sweepDeletedProject } from '../../src/projects/removal.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import type { JobDefinition } from '../types.js';

/** The second sweep of a deleted project's stored files (src/projects/removal.ts). */
export const removeProjectFilesJob: JobDefinition<{ deletedProjectId: string; userId: string }> = {
  name: JOB_NAMES.removeProjectFiles,
  async handler(job, { app, log }) {
    const removed = await sweepDeletedProject(app, job.attrs.data.deletedProjectId);
    if (removed) log.info({ projectId: job.attrs.data.deletedProjectId, removed }, 'late files of a deleted project removed');
  },
};
