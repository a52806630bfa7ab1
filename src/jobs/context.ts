import type { Logger } from '../logger.js';

/**
 * What the worker hands a long job's run (workers/heartbeat.ts): its log, the
 * progress report that keeps the job's lock, and which run this is, so a
 * failure for a passing reason can leave the retry to the job.
 */
export interface LongJobContext {
  log: Logger;
  /** renews the job's lock; called with each progress report */
  touch(percent: number): Promise<void>;
  /** this run's number: runs before it failed on passing errors */
  attempt: number;
  maxAttempts: number;
  /** true once the worker gave this run up for a lock it did not renew in time: it records no failure, the job runs again */
  lapsed?(): boolean;
}
