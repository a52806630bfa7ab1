import { runProjectPipeline } from '../../src/projects/pipeline.js';
import { PROCESS_JOB } from '../../src/projects/service.js';
import { longProjectJob } from '../heartbeat.js';

/** The pipeline of a created project: fetch, probe, transcribe, complete (src/projects/pipeline.ts). */
export const processProjectJob = longProjectJob(PROCESS_JOB, 2, runProjectPipeline);
