import { runBrollGeneration } from '../../src/projects/broll.js';
import { GENERATE_BROLL_JOB } from '../../src/projects/update.js';
import { longProjectJob } from '../heartbeat.js';

/** The AI B-roll clips of an accepted project update. */
export const generateBrollJob = longProjectJob(GENERATE_BROLL_JOB, 1, runBrollGeneration);
