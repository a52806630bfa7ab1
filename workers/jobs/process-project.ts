import { resumeRenders, startAutoRender } from '../../src/exports/service.js';
import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { longProjectJob } from '../heartbeat.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/**
 * The pipeline of a created project: fetch, probe, transcribe, then complete
 * or, with autoRender, start the export's render (src/projects/pipeline.ts).
 * A run after a crash between the move to exporting and the render's queueing
 * finds the project exporting: it queues the render the crash left out.
 */
export const processProjectJob = longProjectJob(JOB_NAMES.processProject, 2, async (app, projectId, ctx) => {
  await runProjectPipeline(app, projectId, ctx, startAutoRender);
  await resumeRenders(app, { projectId });
});
