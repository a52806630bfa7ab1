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

builder.subscriptionFields((t) => ({
  jobEvents: t.field({
    type: JobEventType,
    description: 'Lifecycle and progress of one of your background jobs, from whichever process runs it',
    args: { jobId: t.arg.id({ required: true }) },
    subscribe: async (_root, { jobId }, ctx) => {
      const owner = await ctx.app.jobs.ownerOf(String(jobId));
      if (owner !== currentUser(ctx).id) throw notFound('Job');
      return ctx.app.pubsub.subscribe('jobEvent', String(jobId));
    },
    resolve: (event) => event,
  }),
}));
