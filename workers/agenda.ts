import {
  Agenda,
  backoffStrategies,
  toJobId,
  type AgendaBackend,
  type BackoffStrategy,
  type DrainResult,
  type Job,
  type JobParameters,
  type NotificationChannel,
  type RetryDetails,
} from 'agenda';
import { PostgresJobRepository, PostgresNotificationChannel } from '@agendajs/postgres-backend';
import { fairClaimIndexSql, FairPostgresBackend, lockedOnColumnSql } from './fair-claim.js';
import { publishStatesInOrder } from './ordered-channel.js';
import pg from 'pg';
import type { App, JobQueue, JobSubject, JobSummary } from '../src/app.js';
import type { Config } from '../src/config.js';
import { CPU_JOB_NAMES, INTERACTIVE_CPU_JOB_NAMES } from '../src/jobs/names.js';
import { MACHINE_ID, runInClass, setInteractiveNearby, setUsersOverShare, usersOverShare } from '../src/jobs/priority.js';
import { isUuid } from '../src/ids.js';
import { withLog, type Logger } from '../src/logger.js';
import { jobs as registeredJobs } from './registry.js';
import { BACKOFF_UNIT_MS, scaled } from './backoff.js';
import type { JobDefinition } from './types.js';
import { JOBS_CHANNEL, JOBS_TABLE } from './table.js';

export type Role = 'server' | 'worker' | 'all';

/** The job queue of one process: what the App sees (enqueue) plus lifecycle. */
export interface Jobs extends JobQueue {
  readonly agenda: Agenda;
  readonly role: Role;
  /** hands the App to job handlers; needed before start() when this process runs jobs */
  attach(app: App): void;
  /** starts processing (worker, all) and listening to job events of other processes (all roles) */
  start(): Promise<void>;
  /** graceful stop: takes no new job, waits up to timeoutMs for running ones, then closes */
  drain(timeoutMs?: number): Promise<DrainResult>;
  /** immediate stop: jobs still running here are unlocked so another worker picks them up (jobs are idempotent) */
  stop(): Promise<void>;
}

export interface CreateAgendaOptions {
  config: Config;
  databaseUrl: string;
  log: Logger;
  role: Role;
  /** jobs this process runs when its role is worker or all (default: the registry) */
  definitions?: JobDefinition[];
}

/**
 * A render can take many minutes; 30 min of silence before Agenda presumes a run dead.
 * Long jobs must still call ctx.progress (job.touch) regularly: Agenda checks every
 * lockLifetime/2 and cancels a run whose lock has expired.
 */
export const DEFAULT_LOCK_LIFETIME_MS = 30 * 60 * 1000;
/**
 * Each kind has slots of its own (its definition's concurrency: one render at
 * a time, two pipelines, four deliveries): the process runs at most their sum,
 * so no kind waits for slots another holds, and a delivery or an export is
 * never left behind a worker full of long analyses. The CPU is shared by class
 * instead (src/jobs/priority.ts): beside interactive work, a batch job's
 * programs run at a lower priority.
 */
const slotsOf = (definitions: readonly JobDefinition[], concurrencyOf: (d: JobDefinition) => number) =>
  Math.max(
    1,
    definitions.reduce((sum, d) => sum + concurrencyOf(d), 0),
  );
const DEFAULT_CONCURRENCY = 2;

/**
 * The kinds that keep a reserve slot in a worker (workers/fair-claim.ts): the
 * ones that use the CPU, where a light user would otherwise wait for a
 * flood's job to end. Each maps to its own slots without the reserve.
 */
const reserveOf = (definitions: readonly JobDefinition[]): Record<string, number> =>
  Object.fromEntries(definitions.filter((d) => CPU_JOB_NAMES.has(d.name)).map((d) => [d.name, d.concurrency ?? DEFAULT_CONCURRENCY]));

/** How often a worker reads which users run more than their share of the CPU jobs (src/jobs/priority.ts). */
export const SHARE_CHECK_MS = 1000;
/** 5 s, 20 s, 80 s: transient failures (network, a busy platform) get three more tries; jobs are idempotent. */
const DEFAULT_BACKOFF = backoffStrategies.exponential({ delay: BACKOFF_UNIT_MS, factor: 4, maxRetries: 3, jitter: 0.2 });

/**
 * The failure of a run whose lock lapsed (not renewed within the job's lock lifetime, on a worker too busy
 * to renew it): another worker may have taken the job over. The job's work did not fail: a run that lapsed
 * records no outcome (JobContext.lapsed). If no other run has the job, it runs again after LAPSED_RETRY_MS,
 * whatever its own backoff; the LAPSED_RUNS-th run records its outcome, lapsed or not, so a job whose
 * lock keeps lapsing still ends.
 */
export class RunLapsed extends Error {
  constructor(
    jobName: string,
    cause: unknown,
    /** another run has the job now: this one is not followed by a retry */
    readonly takenOver: boolean,
  ) {
    super(`the run of ${jobName} lapsed: its lock was not renewed in time`, { cause });
    this.name = 'RunLapsed';
  }
}
export const LAPSED_RETRY_MS = 1000;
export const LAPSED_RUNS = 10;

/** `backoff`, with a lapsed run that no other run took over retried after LAPSED_RETRY_MS (a job written without retries included). */
export function againAfterLapse(backoff: BackoffStrategy | null): BackoffStrategy {
  return (context) => {
    if (context.error instanceof RunLapsed) return !context.error.takenOver && context.attempt < LAPSED_RUNS ? LAPSED_RETRY_MS : null;
    return backoff ? backoff(context) : null;
  };
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

const TABLE = JOBS_TABLE;
const CHANNEL = JOBS_CHANNEL;

/** Whether the job names a project and it exists (a database that does not answer: yes). */
async function projectExists(app: App, job: Job<Record<string, unknown>>): Promise<boolean> {
  const projectId = job.attrs.data?.projectId;
  if (typeof projectId !== 'string') return false;
  return (await app.db.project.count({ where: { id: projectId } }).catch(() => 1)) > 0;
}

/** How often a run over a project looks whether the project is still there. */
export const PROJECT_CHECK_MS = 2000;

/**
 * A run over a project (its data names projectId) stops once the project is
 * deleted, whichever process deleted it: the project's row is looked up every
 * PROJECT_CHECK_MS; once it is gone the run's signal aborts (a render's ffmpeg
 * is killed) and the job is cancelled (its next progress report throws).
 * Returns what ends the watch.
 */
function stopWhenProjectDeleted(app: App, job: Job<Record<string, unknown>>, stop: AbortController): () => void {
  const projectId = job.attrs.data?.projectId;
  if (typeof projectId !== 'string') return () => {};
  const timer = setInterval(() => {
    void app.db.project
      .count({ where: { id: projectId } })
      .then((n) => {
        if (n > 0 || stop.signal.aborted) return;
        const reason = new Error(`project ${projectId} was deleted`);
        stop.abort(reason);
        job.cancel(reason);
      })
      // a database that does not answer stops nothing
      .catch(() => {});
  }, PROJECT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function createAgenda(opts: CreateAgendaOptions): Promise<Jobs> {
  const { config, databaseUrl, role } = opts;
  const name = `${role}-${config.instanceName}`;
  const log = opts.log.child({ component: 'agenda', agenda: name });
  const runsJobs = role !== 'server';
  const definitions = runsJobs ? (opts.definitions ?? registeredJobs) : [];

  // Our own small pool: job bookkeeping and the LISTEN connection stay off the app's Prisma pool.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: runsJobs ? 5 : 3, application_name: name });
  // pg emits errors of idle clients (server restart) on the pool; unheard, they crash the process.
  pool.on('error', (err) => log.warn({ err }, 'idle agenda database connection failed'));

  let backend: AgendaBackend;
  let notificationChannel: NotificationChannel | undefined;
  // reserve slots need the fair claim: with MongoDB every kind keeps its own slots only
  const reserve = runsJobs && !config.mongodbUrl ? reserveOf(definitions) : {};
  // a kind's slots in this worker: its own, and its reserve slot if it keeps one
  const concurrencyOf = (d: JobDefinition) => (d.concurrency ?? DEFAULT_CONCURRENCY) + (d.name in reserve ? 1 : 0);
  // jobs of a kind locked here now: Agenda's own count (its processor's, read by the fair claim for the reserve slots)
  let agendaRef: Agenda | undefined;
  const held = (jobName: string) =>
    (agendaRef as unknown as { jobProcessor?: { jobStatus?: Record<string, { locked?: number } | undefined> } } | undefined)?.jobProcessor?.jobStatus?.[jobName]
      ?.locked ?? 0;
  try {
    if (config.mongodbUrl) {
      // Mongo stores jobs but has no notification channel: job pick-up and cross-process
      // events still go through LISTEN/NOTIFY on the PostgreSQL database the app uses anyway.
      const { MongoBackend } = await import('@agendajs/mongo-backend');
      backend = new MongoBackend({ address: config.mongodbUrl });
      notificationChannel = new PostgresNotificationChannel({ pool, channelName: CHANNEL, reconnect: { enabled: true } });
    } else {
      await ensureSchema(pool);
      // first come, first served no more: the claim keeps each user's fair share (fair-claim.ts)
      backend = new FairPostgresBackend({ pool, tableName: TABLE, channelName: CHANNEL, userCap: config.jobUserCap, reserve: { slots: reserve, held } });
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }

  const slots = runsJobs ? slotsOf(definitions, concurrencyOf) : 1;
  const agenda = new Agenda({
    backend,
    name,
    ...(notificationChannel ? { notificationChannel } : {}),
    processEvery: config.jobPollMs,
    maxConcurrency: slots,
    defaultConcurrency: DEFAULT_CONCURRENCY,
    // Lock no more than we can run, or one worker hoards the queue while others idle (each kind: its concurrency).
    lockLimit: slots,
    defaultLockLifetime: DEFAULT_LOCK_LIFETIME_MS,
  });
  // Agenda swallows its own 'error' events; the channel emits unheard ones (process crash).
  agenda.on('error', (err) => log.error({ err }, 'agenda error'));
  // the retry Agenda schedules after a failed run (job failed said why); only this process's runs
  agenda.on('retry', (job: Job, details: RetryDetails | undefined, remote?: boolean) => {
    if (remote === true) return;
    log.info(
      { job: job.attrs.name, jobId: String(job.attrs._id), ...subjectsOf(job.attrs.data), attempt: (details?.attempt ?? 0) + 1, nextRunAt: details?.nextRunAt },
      'job retry scheduled',
    );
  });
  const channel = notificationChannel ?? backend.notificationChannel;
  channel?.on('error', (err) => log.warn({ err }, 'agenda notification channel error'));
  // a job's fail, then its complete: another process hears them in that order (ordered-channel.ts)
  if (channel) publishStatesInOrder(channel);
  agendaRef = agenda;
  await agenda.ready;

  let app: App | undefined;
  // ids of runs in progress here: drain() and stop() unlock those they leave behind
  const running = new Set<string>();

  for (const def of definitions) {
    const concurrency = concurrencyOf(def);
    const written = def.backoff === undefined ? DEFAULT_BACKOFF : def.backoff;
    const backoff = againAfterLapse(written && scaled(written, config.jobRetryBaseMs));
    const lockLifetime = def.lockLifetime === 'long' ? config.longJobLockMs : (def.lockLifetime ?? DEFAULT_LOCK_LIFETIME_MS);
    agenda.define(
      def.name,
      async (job: Job<Record<string, unknown>>) => {
        if (!app) throw new Error('createAgenda: attach(app) was not called before start()');
        const jobId = String(job.attrs._id);
        const subjects = subjectsOf(job.attrs.data);
        const jobLog = log.child({ job: def.name, jobId, ...subjects });
        // a person follows the jobs of a project, an export, a clip or a post; recurring sweeps and
        // webhook attempts (logged by the webhook service, one line each) stay at debug
        const level = def.every || !Object.keys(subjects).some((k) => FOLLOWED.has(k)) ? 'debug' : 'info';
        const attempt = (job.attrs.failCount ?? 0) + 1;
        const t0 = performance.now();
        running.add(jobId);
        jobLog[level]({ attempt }, 'job started');
        const stop = new AbortController();
        // a run over a project that exists now stops once it is deleted (one that never existed fails as any run)
        const watched = await projectExists(app, job);
        const unwatch = watched ? stopWhenProjectDeleted(app, job, stop) : () => {};
        const user = typeof job.attrs.data?.userId === 'string' ? job.attrs.data.userId : undefined;
        // lapsed: Agenda gave the run up, or its lock is older than its lifetime (another worker may take the job
        // before Agenda's own check, every half lifetime, notices); the last run a lapse may retry never lapses
        const lastChance = attempt >= LAPSED_RUNS;
        const lockedAt = () => (job.attrs.lockedAt ? new Date(job.attrs.lockedAt).getTime() : Date.now());
        const lapsed = () => !lastChance && (job.getCanceledMessage() !== undefined || Date.now() - lockedAt() >= lockLifetime);
        try {
          await withLog(jobLog, () =>
            runInClass(
              def.name,
              () =>
                def.handler(job, {
                  app: app!,
                  log: jobLog,
                  signal: stop.signal,
                  lapsed,
                  async progress(percent: number) {
                    const p = Math.max(0, Math.min(100, percent));
                    await job.touch(p);
                    // Agenda 6 publishes progress to other processes but emits no local 'progress' event.
                    agenda.emit('progress', job);
                  },
                }),
              user,
            ),
          );
          jobLog[level]({ durationMs: Math.round(performance.now() - t0) }, 'job finished');
        } catch (err) {
          if (stop.signal.aborted || (watched && !(await projectExists(app, job)))) {
            // its project was deleted: nothing to retry, nothing to report
            jobLog.info({ durationMs: Math.round(performance.now() - t0) }, 'job stopped: its project was deleted');
            return;
          }
          if (lapsed()) {
            // a lock not renewed in time (a worker starved of CPU): the run that took the job over, or this job's
            // next run, records the outcome. A run that took it over has run() since this one: its lastRunAt is later.
            const now = await jobById(jobId);
            const takenOver = !!now?.lastRunAt && !!job.attrs.lastRunAt && new Date(now.lastRunAt) > new Date(job.attrs.lastRunAt);
            jobLog.warn(
              { durationMs: Math.round(performance.now() - t0), attempt, err, lapse: errorText(job.getCanceledMessage() ?? 'lock older than its lifetime') },
              takenOver ? 'job run lapsed; another run has the job' : 'job run lapsed; it runs again',
            );
            throw new RunLapsed(def.name, err, takenOver);
          }
          jobLog.warn({ durationMs: Math.round(performance.now() - t0), attempt, reason: errorText(err) }, 'job failed');
          throw err;
        } finally {
          unwatch();
          running.delete(jobId);
        }
      },
      { concurrency, lockLimit: concurrency, lockLifetime, backoff },
    );
  }

  const unlockRunning = async (why: string) => {
    if (running.size === 0) return;
    log.warn({ jobIds: [...running] }, `${why}; unlocking running jobs`);
    await agenda.db.unlockJobs([...running].map(toJobId)).catch((err) => log.warn({ err }, 'unlock failed'));
  };

  // a malformed id is an unknown job (PostgreSQL rejects it as a uuid)
  const jobById = (jobId: string) => agenda.db.getJobById(jobId).catch(() => null);
  const dataOf = async (jobId: string): Promise<Record<string, unknown> | null> => {
    const job = await jobById(jobId);
    return (job?.data as Record<string, unknown> | undefined) ?? null;
  };

  const jobsFor: JobQueue['jobsFor'] = async (data, names) => {
    const { jobs } = await agenda.queryJobs({ data, names: [...names], sort: { lastRunAt: 'desc' } });
    const rank = (j: JobSummary) => (j.running ? 0 : j.waiting ? 1 : 2);
    // a stable sort: within each rank, the latest run first
    return jobs.map(summarize).sort((a, b) => rank(a) - rank(b));
  };

  // which users run more than their share of the CPU jobs, and how many interactive CPU jobs other
  // workers on this machine run, read from the shared queue while this worker runs jobs
  let shareTimer: NodeJS.Timeout | undefined;
  let shareReading = false;
  let sharesStopped = false;
  const readShares = async () => {
    if (shareReading || sharesStopped) return;
    if (running.size === 0) {
      setInteractiveNearby(0);
      return setUsersOverShare([]);
    }
    shareReading = true;
    try {
      // another worker's interactive job counts while its lock is fresh: those jobs renew theirs at
      // least every quarter of longJobLockMs, so a worker that died holds nothing back for long
      const now = Date.now();
      const { rows } = await pool.query<{ user_id: string | null; running: string; nearby: string }>(
        `SELECT data->>'userId' AS user_id, count(*) AS running,
                count(*) FILTER (WHERE name = ANY($3::text[]) AND locked_on = $4 AND locked_at > $5 AND NOT (id = ANY($6::uuid[]))) AS nearby
           FROM "${TABLE}"
          WHERE locked_at IS NOT NULL AND locked_at > $1 AND name = ANY($2::text[])
          GROUP BY 1`,
        [
          new Date(now - DEFAULT_LOCK_LIFETIME_MS),
          [...CPU_JOB_NAMES],
          [...INTERACTIVE_CPU_JOB_NAMES],
          MACHINE_ID,
          new Date(now - config.longJobLockMs),
          [...running].filter(isUuid),
        ],
      );
      // stopped meanwhile: the reading is stale, and nothing would reset it
      if (sharesStopped) return;
      setInteractiveNearby(rows.reduce((sum, r) => sum + Number(r.nearby), 0));
      setUsersOverShare(usersOverShare(new Map(rows.flatMap((r) => (r.user_id === null ? [] : [[r.user_id, Number(r.running)] as const])))));
    } catch (err) {
      // a database that does not answer changes no user's priority, and holds no batch work back
      log.debug({ err }, 'reading the users over their share failed');
      setInteractiveNearby(0);
    } finally {
      shareReading = false;
    }
  };
  const stopShares = () => {
    sharesStopped = true;
    clearInterval(shareTimer);
    setInteractiveNearby(0);
    setUsersOverShare([]);
  };

  let closed = false;
  // Agenda closes the backend only if it was started and leaves a pool it was given open:
  // stop()/drain() keep the connections and close them here, after any last unlock.
  const close = async () => {
    if (closed) return;
    closed = true;
    await backend.disconnect().catch((err) => log.warn({ err }, 'agenda backend disconnect failed'));
    await pool.end().catch((err) => log.warn({ err }, 'agenda pool close failed'));
  };

  return {
    agenda,
    role,
    attach(a) {
      app = a;
    },
    async enqueue(jobName, data, { at, priority, once } = {}) {
      const job = agenda.create(jobName, data);
      if (at) job.schedule(at);
      if (priority !== undefined) job.priority(priority);
      if (once) job.unique(Object.fromEntries(Object.entries(once).map(([k, v]) => [`data.${k}`, v])), { insertOnly: true });
      await job.save();
      return String(job.attrs._id);
    },
    async ownerOf(jobId) {
      const userId = (await dataOf(jobId))?.userId;
      return typeof userId === 'string' ? userId : null;
    },
    dataOf,
    async stateOf(jobId) {
      const job = await jobById(jobId);
      return job ? summarize(job) : null;
    },
    jobsFor,
    async currentJobIds(subject, ids, names) {
      if (ids.length === 0) return [];
      // another store of jobs: one lookup each
      if (config.mongodbUrl) return Promise.all(ids.map(async (id) => (await jobsFor({ [subject]: id }, names))[0]?.id ?? null));
      // jobsFor's order in SQL: the run at work, then one waiting to run, then the latest run
      if (!JOB_SUBJECTS.includes(subject)) throw new Error(`currentJobIds: unknown subject ${subject}`);
      const { rows } = await pool.query<{ subject: string; id: string }>(
        `SELECT DISTINCT ON (subject) subject, id FROM (
           SELECT data->>'${subject}' AS subject, id::text AS id,
                  CASE WHEN locked_at IS NOT NULL THEN 0 WHEN next_run_at IS NOT NULL AND disabled IS NOT TRUE THEN 1 ELSE 2 END AS rank,
                  last_run_at
             FROM "${TABLE}" WHERE name = ANY($1::text[]) AND data->>'${subject}' = ANY($2::text[])
         ) jobs ORDER BY subject, rank, last_run_at DESC NULLS LAST`,
        [[...names], [...ids]],
      );
      const current = new Map(rows.map((r) => [r.subject, r.id]));
      return ids.map((id) => current.get(id) ?? null);
    },
    async removeJobs(data) {
      return agenda.cancel({ data });
    },
    async queueState() {
      if (config.mongodbUrl) return null;
      const deadline = new Date(Date.now() - DEFAULT_LOCK_LIFETIME_MS);
      const waiting = waitingSql('$1');
      const [byName, byUser] = await Promise.all([
        pool.query<{ name: string; waiting: string; running: string; waits: number[] | null }>(
          `SELECT name,
                  count(*) FILTER (WHERE ${waiting}) AS waiting,
                  count(*) FILTER (WHERE locked_at > $1) AS running,
                  percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM now() - next_run_at))
                    FILTER (WHERE ${waiting}) AS waits
             FROM "${TABLE}" WHERE disabled IS NOT TRUE AND (locked_at IS NOT NULL OR next_run_at <= now())
            GROUP BY name ORDER BY name`,
          [deadline],
        ),
        pool.query<{ user_id: string; running: string }>(
          `SELECT data->>'userId' AS user_id, count(*) AS running FROM "${TABLE}"
            WHERE locked_at IS NOT NULL AND locked_at > $1 AND data->>'userId' IS NOT NULL
            GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 100`,
          [deadline],
        ),
      ]);
      return {
        byName: byName.rows.map((r) => {
          const waits = (r.waits ?? [0, 0, 0]).map((w) => Math.round(w * 10) / 10);
          return { name: r.name, waiting: Number(r.waiting), running: Number(r.running), waitP50: waits[0], waitP95: waits[1], waitP99: waits[2] };
        }),
        runningByUser: byUser.rows.map((r) => ({ userId: r.user_id, running: Number(r.running) })),
      };
    },
    async userLoad(userId) {
      if (config.mongodbUrl) return null;
      const deadline = new Date(Date.now() - DEFAULT_LOCK_LIFETIME_MS);
      const { rows } = await pool.query<{ waiting: string; running: string }>(
        `SELECT count(*) FILTER (WHERE ${waitingSql('$2')}) AS waiting,
                count(*) FILTER (WHERE locked_at > $2) AS running
           FROM "${TABLE}" WHERE data->>'userId' = $1 AND disabled IS NOT TRUE AND (locked_at IS NOT NULL OR next_run_at IS NOT NULL)`,
        [userId, deadline],
      );
      return { waiting: Number(rows[0].waiting), running: Number(rows[0].running) };
    },
    async start() {
      if (definitions.length > 0 && !app) throw new Error('createAgenda: attach(app) before start()');
      await agenda.start();
      // 'single' jobs upsert by name and keep a pending nextRunAt, so every worker may (re)declare them.
      for (const def of definitions) if (def.every) await agenda.every(def.every, def.name);
      if (definitions.some((d) => CPU_JOB_NAMES.has(d.name)) && !config.mongodbUrl) {
        shareTimer = setInterval(() => void readShares(), SHARE_CHECK_MS);
        shareTimer.unref();
      }
      log.info({ role, jobs: definitions.map((d) => d.name) }, 'agenda started');
    },
    async drain(timeoutMs) {
      stopShares();
      const result = await agenda.drain({ ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}), closeConnection: false });
      // gave up waiting: another worker retries those now, not after lockLifetime
      await unlockRunning('drain timed out');
      await close();
      return result;
    },
    async stop() {
      stopShares();
      // Agenda's stop() unlocks only jobs it had locked but not begun; ours were begun and
      // die with the process, so free them now rather than after lockLifetime.
      await agenda.stop(false);
      await unlockRunning('stopped');
      await close();
    },
  };
}

/** The job data fields currentJobIds looks up, each with an index of its own (ensureSchema). */
const JOB_SUBJECTS: readonly JobSubject[] = ['projectId', 'exportId'];

/** A job waiting to run: due and not running (never claimed, or its lock older than `deadline`, a query parameter). */
const waitingSql = (deadline: string) => `(locked_at IS NULL OR locked_at <= ${deadline}) AND next_run_at <= now()`;

/** The ids in a job's data that name what it works on, carried by each of its log lines. */
const SUBJECT_KEYS = ['projectId', 'exportId', 'clipId', 'publicationId', 'postId', 'userMediaId', 'deliveryId'] as const;
/** Subjects a person follows: the start and end of their jobs are logged at info. */
const FOLLOWED: ReadonlySet<string> = new Set(['projectId', 'exportId', 'clipId', 'publicationId', 'postId', 'userMediaId']);

function subjectsOf(data: unknown): Record<string, string> {
  const d = (data ?? {}) as Record<string, unknown>;
  return Object.fromEntries(SUBJECT_KEYS.filter((k) => typeof d[k] === 'string').map((k) => [k, d[k] as string]));
}

/** A stored job as the App sees it; a run to come is a nextRunAt, whatever failed before it. */
function summarize(
  job: Pick<JobParameters, 'name' | 'lockedAt' | 'nextRunAt' | 'disabled' | 'failReason' | 'failedAt' | 'lastFinishedAt'> & { _id?: unknown },
): JobSummary {
  // Agenda keeps failReason after a later run succeeds: the last run failed when it finished then
  const failedLast = Boolean(job.failedAt) && (!job.lastFinishedAt || new Date(job.failedAt!) >= new Date(job.lastFinishedAt));
  return {
    id: String(job._id),
    name: job.name,
    running: Boolean(job.lockedAt),
    waiting: !job.lockedAt && Boolean(job.nextRunAt) && !job.disabled,
    failReason: failedLast ? (job.failReason ?? null) : null,
    lastFinishedAt: job.lastFinishedAt ? new Date(job.lastFinishedAt) : null,
  };
}

/**
 * Creates the jobs table once, under an advisory lock: the backend's own CREATE ... IF NOT
 * EXISTS fails with duplicate-key errors when a server and a worker start together on a
 * fresh database (seen here), and inside Agenda's constructor that is an unhandled rejection.
 */
async function ensureSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('agenda:schema:${TABLE}'))`);
    try {
      // connect() runs the backend's schema SQL (table, column migrations, indexes, trigger)
      // on a second connection of the pool; the pool is ours, so it stays open.
      await new PostgresJobRepository({ pool, tableName: TABLE, ensureSchema: true }).connect();
      // the jobs of a page of projects or exports, found by what their data names (currentJobIds; jobsFor's
      // `data @>` filter cannot use them). Built once, on the first start of a version that has them.
      for (const field of JOB_SUBJECTS) {
        await client.query(`CREATE INDEX IF NOT EXISTS "${TABLE}_data_${field}_idx" ON "${TABLE}" ((data->>'${field}'))`);
      }
      // the fair claim's count of each user's running jobs, and a user's load (back-pressure)
      await client.query(fairClaimIndexSql(TABLE));
      // the machine each job is claimed on: workers on one machine see each other's interactive work
      await client.query(lockedOnColumnSql(TABLE));
      await client.query(`CREATE INDEX IF NOT EXISTS "${TABLE}_data_userId_idx" ON "${TABLE}" ((data->>'userId'))`);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext('agenda:schema:${TABLE}'))`);
    }
  } finally {
    client.release();
  }
}
