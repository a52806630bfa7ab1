import type { AiProviders } from './ai/providers.js';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { RateLimits } from './limits/rate-limits.js';
import type { Logger } from './logger.js';
import type { Transcriber } from './media/transcription/types.js';
import type { PubSub } from './pubsub.js';
import type { Storage } from './storage/storage.js';

/** Enqueues background work; implemented over Agenda in workers/agenda.ts. */
export interface JobQueue {
  /**
   * runs as soon as a worker is free; returns the job id. With `once`, a job
   * of that name whose data has those values (done or not) is not queued again:
   * its id is returned.
   */
  enqueue(name: string, data: Record<string, unknown>, opts?: { at?: Date; priority?: number; once?: Record<string, string> }): Promise<string>;
  /** the `userId` a job was enqueued for, or null when the job is unknown or has no owner */
  ownerOf(jobId: string): Promise<string | null>;
  /** the data a job was enqueued with, or null when the job is unknown */
  dataOf(jobId: string): Promise<Record<string, unknown> | null>;
  /** where a job stands, or null when the job is unknown */
  stateOf(jobId: string): Promise<JobSummary | null>;
  /**
   * The jobs of these names enqueued with data holding these values: the one at
   * work first (running, then waiting to run), then the others, latest run first.
   */
  jobsFor(data: Record<string, string>, names: readonly string[]): Promise<JobSummary[]>;
  /**
   * For each of `ids` in order, the id of the job `jobsFor({ [subject]: id }, names)`
   * lists first, or null: one query for a page of projects or exports.
   */
  currentJobIds(subject: JobSubject, ids: readonly string[], names: readonly string[]): Promise<Array<string | null>>;
  /**
   * Removes every job enqueued with data holding these values, waiting or
   * running (a run at work stops by itself: see workers/agenda.ts); resolves
   * to how many.
   */
  removeJobs(data: Record<string, string>): Promise<number>;
  /**
   * The queue now, for back-pressure and the health and metrics readings:
   * null where the store cannot say (jobs kept in MongoDB).
   */
  queueState(): Promise<QueueState | null>;
  /** How many of one user's jobs wait (due, not running) and run now; null where the store cannot say. */
  userLoad(userId: string): Promise<{ waiting: number; running: number } | null>;
}

export interface QueueState {
  /** per job name with any job due or running: how many wait and run, and how long the waiting ones have waited so far (s) */
  byName: Array<{ name: string; waiting: number; running: number; waitP50: number; waitP95: number; waitP99: number }>;
  /** the users running jobs now, with how many */
  runningByUser: Array<{ userId: string; running: number }>;
}

/** What a job's data names, as the jobs of a project or an export are looked up. */
export type JobSubject = 'projectId' | 'exportId';

/** Where a job stands, as its subscribers and the objects that name it see it. */
export interface JobSummary {
  id: string;
  name: string;
  /** a worker runs it now */
  running: boolean;
  /** it has a run to come (a first one, or a retry after a failure) */
  waiting: boolean;
  /** why its last finished run failed, when it did */
  failReason: string | null;
  lastFinishedAt: Date | null;
}

/** What every part of a process shares: resolvers, services and jobs receive it. */
export interface App {
  config: Config;
  db: Db;
  log: Logger;
  pubsub: PubSub;
  jobs: JobQueue;
  storage: Storage;
  limits: RateLimits;
  /** B-roll generator, hook writer and bad-take detector, built once from the config */
  ai: AiProviders;
  /** the configured transcription engine, built once */
  transcriber: Transcriber;
}
