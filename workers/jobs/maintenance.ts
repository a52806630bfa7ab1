import type { App } from '../../src/app.js';
import { sweepWorkDir } from '../../src/jobs/work-dir.js';
import { sweepDeadUploads } from '../../src/library/user-media.js';
import type { Logger } from '../../src/logger.js';
import type { JobDefinition } from '../types.js';
import { JOBS_TABLE } from '../table.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../src/idempotency/keys.js';
import { dropExpiredAttempts } from '../../src/publishing/connections.js';
import { sweepHeardAudio } from '../../src/projects/transcript-reuse.js';

/** A finished one-time job stays this long (for `jobs` queries and operators), a failed one longer. */
export const COMPLETED_JOB_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const FAILED_JOB_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const BATCH = 5000;

export async function purgeIdempotencyKeys(app: App, log: Logger): Promise<number> {
  const cutoff = new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS);
  const { count } = await app.db.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff } } });
  if (count > 0) log.info({ count, cutoff }, 'purged expired idempotency keys');
  return count;
}

/**
 * Agenda keeps every finished job row; this deletes one-time jobs finished long
 * ago, in batches (recurring, pending and running jobs are never touched). Job
 * rows in MongoDB (MONGODB_URL) are left to the operator.
 */
export async function purgeFinishedJobs(app: App, log: Logger): Promise<number> {
  if (app.config.mongodbUrl) return 0;
  const completedBefore = new Date(Date.now() - COMPLETED_JOB_TTL_MS);
  const failedBefore = new Date(Date.now() - FAILED_JOB_TTL_MS);
  let total = 0;
  for (;;) {
    // finished: not scheduled again, not running; failed: its last run failed
    const count = await app.db.$executeRawUnsafe(
      `DELETE FROM "${JOBS_TABLE}" WHERE id IN (
         SELECT id FROM "${JOBS_TABLE}"
         WHERE type = 'normal' AND repeat_interval IS NULL AND repeat_at IS NULL
           AND next_run_at IS NULL AND locked_at IS NULL AND last_finished_at IS NOT NULL
           AND CASE WHEN failed_at IS NOT NULL AND failed_at >= last_finished_at
                    THEN last_finished_at < $2 ELSE last_finished_at < $1 END
         LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)`,
      completedBefore,
      failedBefore,
    );
    total += count;
    if (count < BATCH) break;
  }
  if (total > 0) log.info({ count: total }, 'purged finished jobs');
  return total;
}

/** What a process killed mid-write left stays this long: no write of ours goes a day without touching its file. */
export const LEFTOVER_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes what cut-off writes left behind, untouched for a day: partial files
 * of the media store, jobs' working files (at once where this host's process
 * that worked in them has died), library entries of uploads that never
 * ended. Run as each process starts and hourly.
 */
export async function sweepLeftovers(app: App, log: Logger): Promise<{ partials: number; workFiles: number; uploads: number }> {
  const before = new Date(Date.now() - LEFTOVER_TTL_MS);
  // each sweep apart: one that fails (a store that cannot list its partial uploads) leaves the others to run
  const swept = (what: string, sweep: () => Promise<number>) =>
    sweep().catch((err: unknown) => {
      log.warn({ err }, `sweeping ${what} failed`);
      return 0;
    });
  // partials first: a dead upload's delete then takes the folders they leave empty
  const partials = await swept('partial writes of the media store', () => app.storage.sweepPartials(before));
  const workFiles = await swept('the work dir', () => sweepWorkDir(app.config.dataDir, before));
  const uploads = await swept('dead uploads', () => sweepDeadUploads(app, before));
  if (partials + workFiles + uploads > 0) log.info({ partials, workFiles, uploads, before }, 'swept leftovers of cut-off writes');
  return { partials, workFiles, uploads };
}

/**
 * Hourly clean-up of what only has to live for a while. One job for all of it:
 * recurring jobs take lock slots when a worker starts, and a job announced
 * while every slot is taken waits for the next poll.
 */
export const maintenanceJob: JobDefinition = {
  name: JOB_NAMES.purge,
  every: '1 hour',
  concurrency: 1,
  async handler(_job, { app, log }) {
    await purgeIdempotencyKeys(app, log);
    await purgeFinishedJobs(app, log);
    await sweepLeftovers(app, log);
    const attempts = await dropExpiredAttempts(app);
    if (attempts > 0) log.info({ count: attempts }, 'dropped expired account connection attempts');
    const heard = await sweepHeardAudio(app);
    if (heard > 0) log.info({ count: heard }, 'dropped transcripts kept for reuse past their time');
  },
};
