/**
 * Back-pressure: new work is refused while the service cannot take it,
 * before a byte of its body is read (the REST door checks as the request
 * arrives; GraphQL before the operation runs), so nothing half-made is kept.
 *
 * - 503 SERVICE_UNAVAILABLE, with Retry-After: the queue's waiting work (due
 *   jobs of the interactive and batch classes not running yet, every user's)
 *   has reached QUEUE_MAX_WAITING, or the data disk has less than
 *   DISK_MIN_FREE_MB free.
 * - 429 RATE_LIMIT_EXCEEDED, with Retry-After: this user has
 *   USER_MAX_WAITING jobs waiting already (their share: others still get in).
 *
 * The service-wide readings are taken at most once a CACHE_MS per process;
 * a user's load is one indexed count. What is refused: creating or uploading
 * a project or magic-clips project, an export, a library file.
 */
import fs from 'node:fs/promises';
import type { App } from '../app.js';
import { AppError } from '../errors.js';
import { jobNamesOf } from '../jobs/names.js';

/** The operations (GraphQL root fields; their REST routes alike) that add work. */
export const PRESSURED_OPERATIONS: ReadonlySet<string> = new Set([
  'createProject',
  'uploadProject',
  'createMagicClips',
  'uploadMagicClips',
  'exportProject',
  'createUserMedia',
  'uploadUserMedia',
]);

/** How long a service-wide reading stands. */
export const CACHE_MS = 1000;
/** Seconds to come back after, by cause. */
export const RETRY_AFTER = { queue: 30, disk: 300, user: 30 } as const;

interface Reading {
  at: number;
  waiting: number;
  freeBytes: number;
}

const readings = new WeakMap<object, Promise<Reading>>();

const LOADED = new Set([...jobNamesOf('interactive'), ...jobNamesOf('batch')]);

async function reading(app: Pick<App, 'config' | 'jobs'>): Promise<Reading> {
  const kept = readings.get(app);
  if (kept) {
    const r = await kept;
    if (Date.now() - r.at < CACHE_MS) return r;
  }
  const next = (async () => {
    const [state, disk] = await Promise.all([app.jobs.queueState(), fs.statfs(app.config.dataDir).catch(() => null)]);
    const waiting = (state?.byName ?? []).filter((n) => LOADED.has(n.name)).reduce((sum, n) => sum + n.waiting, 0);
    const freeBytes = disk ? disk.bavail * disk.bsize : Number.POSITIVE_INFINITY;
    return { at: Date.now(), waiting, freeBytes };
  })();
  readings.set(app, next);
  // a reading that failed is taken again next time
  next.catch(() => readings.delete(app));
  return next;
}

/** Why new work of `userId` cannot be taken now, or null when it can. */
export async function refusalFor(app: Pick<App, 'config' | 'jobs'>, userId: string): Promise<AppError | null> {
  const { queueMaxWaiting, userMaxWaiting, diskMinFreeBytes } = app.config.backPressure;
  const now = await reading(app);
  if (now.freeBytes < diskMinFreeBytes) {
    return new AppError(
      'SERVICE_UNAVAILABLE',
      `The service is low on disk space (${Math.floor(now.freeBytes / 2 ** 20)} MiB free) and takes no new work now; retry in ${RETRY_AFTER.disk} s`,
      { retryAfter: RETRY_AFTER.disk },
    );
  }
  if (now.waiting >= queueMaxWaiting) {
    return new AppError('SERVICE_UNAVAILABLE', `The service is busy (${now.waiting} jobs waiting) and takes no new work now; retry in ${RETRY_AFTER.queue} s`, {
      retryAfter: RETRY_AFTER.queue,
    });
  }
  const load = await app.jobs.userLoad(userId);
  if (load && load.waiting >= userMaxWaiting) {
    return new AppError(
      'RATE_LIMIT_EXCEEDED',
      `You have ${load.waiting} jobs waiting, your share of the queue (${userMaxWaiting}); retry in ${RETRY_AFTER.user} s, as they start`,
      { retryAfter: RETRY_AFTER.user },
    );
  }
  return null;
}
