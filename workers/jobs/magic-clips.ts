import { runClip } from '../../src/magic-clips/clips.js';
import { runMagicClipsPipeline } from '../../src/magic-clips/pipeline.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { LONG_JOB_ATTEMPTS, longJobBackoff, longProjectJob, withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../types.js';

/** A magic-clips project up to its chosen clips: source, transcription, moments (src/magic-clips/pipeline.ts). */
export const processMagicClipsJob = longProjectJob(JOB_NAMES.processMagicClips, 2, runMagicClipsPipeline);

/** One clip: face analysis and render (src/magic-clips/clips.ts); CPU-bound, one at a time per worker. */
export const renderClipJob: JobDefinition<{ clipId: string; projectId: string; userId: string }> = {
  name: JOB_NAMES.renderClip,
  concurrency: 1,
  lockLifetime: 'long',
  backoff: longJobBackoff,
  handler: (job, { app, log, progress, lapsed }) =>
    withHeartbeat(app, progress, (touch) =>
      runClip(app, job.attrs.data.clipId, { log, attempt: (job.attrs.failCount ?? 0) + 1, maxAttempts: LONG_JOB_ATTEMPTS, touch, lapsed }),
    ),
};
