import { runBrollGeneration } from '../../src/projects/broll.js';
import { longProjectJob } from '../heartbeat.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/** The AI B-roll clips of an accepted project update. */
export const generateBrollJob = longProjectJob(JOB_NAMES.generateBroll, 1, runBrollGeneration);
