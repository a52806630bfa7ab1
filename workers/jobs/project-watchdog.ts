import { resumeRenders } from '../../src/exports/service.js';
import { fail } from '../../src/projects/lifecycle.js';
import type { JobDefinition } from '../types.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/** A project whose step reported nothing for this long has lost its job for good. */
const STALE_MS = 3 * 60 * 60 * 1000;

/** An export queued this long without a render job has lost it (an API process killed after creating it). */
const UNQUEUED_EXPORT_MS = 60 * 1000;

/**
 * The last guard of "a project never stays in processing forever": a project in
 * processing or transcribing that has not moved for 3 hours (longer than any
 * step's time limit) fails with a reason, and its webhook goes out; an export
 * still queued after a minute gets its render job (once: one already queued stays the only one).
 */
export const projectWatchdogJob: JobDefinition = {
  name: JOB_NAMES.projectWatchdog,
  every: '1 minute',
  async handler(_job, { app, log }) {
    const resumed = await resumeRenders(app, { olderThanMs: UNQUEUED_EXPORT_MS });
    if (resumed) log.debug({ exports: resumed }, 'exports waiting over a minute: their render jobs ensured');
    const stale = await app.db.project.findMany({
      where: { status: { in: ['processing', 'transcribing'] }, updatedAt: { lt: new Date(Date.now() - STALE_MS) } },
      select: { id: true, kind: true },
      take: 500,
    });
    for (const project of stale) await fail(app, project, 'Processing stopped responding and was abandoned; create the project again');
    if (stale.length) log.warn({ projects: stale.length }, 'stale projects failed');
  },
};
