import { startAutoRender } from '../../src/exports/service.js';
import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { longProjectJob } from '../heartbeat.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/**
 * The pipeline of a created project: fetch, probe, transcribe, then complete
 * or, with autoRender, start the export's render (src/projects/pipeline.ts).
 */
export const processProjectJob = longProjectJob(JOB_NAMES.processProject, 2, (app, projectId, ctx) => runProjectPipeline(app, projectId, ctx, startAutoRender));
