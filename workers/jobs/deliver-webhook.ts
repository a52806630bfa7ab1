import { deliverWebhook, sweepWebhooks } from '../../src/webhooks/service.js';
import type { JobDefinition } from '../types.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/**
 * One attempt of a webhook delivery. The service schedules the next attempt
 * itself (its own backoff, recorded on the delivery), so Agenda never retries.
 */
export const deliverWebhookJob: JobDefinition<{ deliveryId: string }> = {
  name: JOB_NAMES.deliverWebhook,
  concurrency: 2,
  // an attempt lasts at most ~10 s; a run still locked after PROJECT_JOB_LOCK_MS (2 min) died with its worker,
  // and the worker that takes it over finds the delivery's lease (half that) run out
  lockLifetime: 'long',
  backoff: null,
  async handler(job, { app, log }) {
    const outcome = await deliverWebhook(app, job.attrs.data.deliveryId);
    log.debug({ deliveryId: job.attrs.data.deliveryId, outcome }, 'webhook attempt');
  },
};

/** Sends what no job is going to send: deliveries recorded or retried by a process that died before enqueueing. */
export const sweepWebhooksJob: JobDefinition = {
  name: JOB_NAMES.sweepWebhooks,
  every: '1 minute',
  concurrency: 1,
  // a sweep takes moments: one locked by a dead worker must not stop the sweeps for the default 30 min
  lockLifetime: 'long',
  backoff: null,
  async handler(_job, { app, log }) {
    const count = await sweepWebhooks(app);
    if (count > 0) log.info({ count }, 'enqueued overdue webhook deliveries');
  },
};

/** Both webhook jobs, for the registry. */
export const webhookJobs: JobDefinition[] = [deliverWebhookJob, sweepWebhooksJob];
