import type { JobSummary } from '../app.js';
import { notFound } from '../errors.js';
import type { JobEvent } from '../pubsub.js';
import { builder } from './builder.js';
import { currentUser } from './context.js';

export const JobEventType = builder.objectRef<JobEvent>('JobEvent').implement({
  description: 'A step in the life of a background job: start, progress, complete, success, fail or retry',
  fields: (t) => ({
    jobId: t.exposeID('jobId'),
    jobName: t.exposeString('jobName'),
    type: t.exposeString('type'),
    progress: t.exposeFloat('progress', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
  }),
});

/** The `complete` event of a job that has run its last, for a subscriber who came after it. */
const lastEvent = (job: JobSummary): JobEvent => ({
  jobId: job.id,
  jobName: job.name,
  type: 'complete',
  progress: null,
  error: job.failReason,
  at: (job.lastFinishedAt ?? new Date()).toISOString(),
});

builder.subscriptionFields((t) => ({
  jobEvents: t.field({
    type: JobEventType,
    description:
      'Lifecycle and progress of one of your background jobs, from whichever process runs it (`Project.jobId`, `Export.jobId`). ' +
      "The stream ends after the `complete` of the job's last run (a failed run with a retry to come is followed by that retry); " +
      'a job that has already run its last gives that `complete` event (with `error` when it failed), then ends.',
    args: { jobId: t.arg.id({ required: true }) },
    subscribe: async (_root, { jobId }, ctx) => {
      const id = String(jobId);
      const owner = await ctx.app.jobs.ownerOf(id);
      if (owner !== currentUser(ctx).id) throw notFound('Job');
      // listen before reading the state: nothing that happens in between is lost
      const events = ctx.app.pubsub.subscribe('jobEvent', id)[Symbol.asyncIterator]();
      const first = events.next();
      const state = await ctx.app.jobs.stateOf(id);
      return (async function* () {
        try {
          if (state && !state.running && !state.waiting) {
            yield lastEvent(state);
            return;
          }
          for (let next = await first; !next.done; next = await events.next()) {
            yield next.value;
            // the job's row is saved before its complete is told: a retry to come is already there
            if (next.value.type === 'complete' && !(await ctx.app.jobs.stateOf(id))?.waiting) return;
          }
        } finally {
          await events.return?.();
        }
      })();
    },
    resolve: (event) => event,
  }),
}));
