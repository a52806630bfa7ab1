import { syncAnalytics } from '../../src/publishing/analytics.js';
import { deliverPost, firePublication, sweepPublishing } from '../../src/publishing/delivery.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { withHeartbeat } from '../heartbeat.js';
import type { JobDefinition } from '../types.js';

/**
 * One delivery step of a post (src/publishing/delivery.ts). The service
 * queues the next step and the retries itself, so Agenda never retries; a
 * run that died is taken over once its lock (PROJECT_JOB_LOCK_MS) runs out,
 * after the post's lease (half of it).
 */
export const deliverPostJob: JobDefinition<{ postId: string; userId: string }> = {
  name: JOB_NAMES.deliverPost,
  concurrency: 4,
  lockLifetime: 'long',
  backoff: null,
  async handler(job, { app, log, progress }) {
    // a long upload keeps its job's lock, as it keeps its post's lease
    const outcome = await withHeartbeat(app, progress, () => deliverPost(app, job.attrs.data.postId, log));
    log.debug({ postId: job.attrs.data.postId, outcome }, 'post delivery step');
  },
};

/** A scheduled publication at its time; firing twice does nothing the second time. */
export const firePublicationJob: JobDefinition<{ publicationId: string; userId: string }> = {
  name: JOB_NAMES.firePublication,
  concurrency: 2,
  lockLifetime: 'long',
  backoff: null,
  async handler(job, { app }) {
    await firePublication(app, job.attrs.data.publicationId);
  },
};

/** What no job is going to do: overdue posts and scheduled publications past their time. */
export const sweepPublishingJob: JobDefinition = {
  name: JOB_NAMES.sweepPublishing,
  every: '1 minute',
  concurrency: 1,
  lockLifetime: 'long',
  backoff: null,
  async handler(_job, { app, log }) {
    const count = await sweepPublishing(app);
    if (count > 0) log.info({ count }, 'queued overdue posts and scheduled publications');
  },
};

/** Metrics and followers from the platforms, into the daily rows the listing and statistics read. */
export const syncAnalyticsJob: JobDefinition = {
  name: JOB_NAMES.syncAnalytics,
  every: '15 minutes',
  concurrency: 1,
  lockLifetime: 'long',
  backoff: null,
  async handler(_job, { app, log, progress }) {
    const result = await syncAnalytics(app, { touch: () => progress(0) });
    log.info(result, 'analytics synced');
  },
};

export const publishingJobs: JobDefinition[] = [deliverPostJob, firePublicationJob, sweepPublishingJob, syncAnalyticsJob];
