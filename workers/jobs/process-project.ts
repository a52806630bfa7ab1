import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { longProjectJob } from '../heartbeat.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/** The pipeline of a created project: fetch, probe, transcribe, complete (src/projects/pipeline.ts). */
export const processProjectJob = longProjectJob(JOB_NAMES.processProject, 2, runProjectPipeline);
