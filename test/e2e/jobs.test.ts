import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { constant, type JobParameters } from 'agenda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { againAfterLapse, createAgenda, LAPSED_RETRY_MS, LAPSED_RUNS, RunLapsed, type Jobs } from '../../workers/agenda.js';
import { forwardJobEvents } from '../../workers/events.js';
import { JOBS_TABLE } from '../../workers/table.js';
import type { JobDefinition } from '../../workers/types.js';
import { createAiProviders } from '../../src/ai/providers.js';
import type { App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createPrisma, type Db } from '../../src/db/client.js';
import { createRateLimits } from '../../src/limits/rate-limits.js';
import { createLogger } from '../../src/logger.js';
import { configuredTranscriber } from '../../src/media/transcription/transcriber.js';
import { createAppPubSub, isDistributed, type JobEvent, type PubSub } from '../../src/pubsub.js';
import { createStorage } from '../../src/storage/index.js';
import { createEmptyDatabase, serverUrl, type TestDatabase } from '../support/db.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Without a server the database is an embedded PGlite server of this process, where NOTIFY does not cross connections. */
const ON_SERVER = serverUrl() !== undefined;
const REDIS_URL = process.env.TEST_REDIS_URL;
const log = createLogger(process.env.TEST_LOG_LEVEL || 'warn', { test: 'jobs' });
const suffix = crypto.randomBytes(3).toString('hex');
let database: TestDatabase | undefined;
let databaseUrl: string;
/** DATA_DIR of the job processes here (the App's media storage keeps its signing key there) */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-test-'));

// On a server, a long poll interval: jobs found within the test's time can only have come by
// LISTEN/NOTIFY. Over PGlite only the poll finds them (the tests that prove NOTIFY are skipped there).
const POLL_MS = ON_SERVER ? '60000' : '200';

/** A config as loadConfig builds it, from a clean environment (no REDIS_URL/MONGODB_URL of the host). */
const configFor = (instanceName: string, env: Record<string, string> = {}): Config =>
  loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, INSTANCE_NAME: instanceName, JOB_POLL_MS: POLL_MS, LOG_LEVEL: 'warn', ...env });

/** The App handed to the test's jobs: they use neither media storage nor rate limits, but the App has them. */
const appFor = (config: Config, db: Db, pubsub: PubSub, jobs: Jobs): App => ({
  config,
  db,
  log,
  pubsub,
  jobs,
  storage: createStorage(config),
  limits: createRateLimits(),
  ai: createAiProviders(config),
  transcriber: configuredTranscriber(config),
});

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Received extends JobEvent {
  receivedAt: number;
}

/** Subscribes now (synchronously, before any I/O callback can publish) and records what arrives. */
function collect(pubsub: PubSub, jobId: string) {
  const events: Received[] = [];
  const sub = pubsub.subscribe('jobEvent', jobId);
  void (async () => {
    for await (const event of sub) events.push({ ...event, receivedAt: performance.now() });
  })();
  return { events, stop: () => sub.return() };
}

let worker: ChildProcess | undefined;
let workerOutput = '';
let server: Jobs | undefined;
let pubsub: PubSub | undefined;
let unforward: (() => void) | undefined;
let migrated = false;

/** The worker fixture as its own OS process; resolves once it printed "ready". */
function startWorker(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // node --import tsx rather than npx: one process, whose pid is the worker itself (signals reach it)
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/fixtures/job-worker.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        INSTANCE_NAME: `fixture-${suffix}`,
        JOB_POLL_MS: POLL_MS,
        LOG_LEVEL: 'warn',
        WITH_REGISTRY: migrated ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // nobody would stop it otherwise
      reject(new Error(`worker not ready after 20 s:\n${workerOutput}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      workerOutput += chunk.toString();
      if (/^ready$/m.test(workerOutput)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${workerOutput}`));
    });
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

beforeAll(async () => {
  database = await createEmptyDatabase('jobs');
  databaseUrl = database.url;
  // src/db/migrate/index.ts is written elsewhere; without it, nothing here needs the app's tables
  const migrate = path.join(root, 'src/db/migrate/index.ts');
  if (fs.existsSync(migrate)) {
    const mod = (await import(pathToFileURL(migrate).href)) as { applyMigrations(url: string): Promise<unknown> };
    await mod.applyMigrations(databaseUrl);
  }
  // the purge job needs its table; until migrations create it, the fixture leaves the registry out
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(`SELECT to_regclass('public."IdempotencyKey"') IS NOT NULL AS present`);
  await client.end();
  migrated = rows[0].present === true;
  // the server and the worker start together on a fresh database: exercises the schema lock
  const [child, jobs] = await Promise.all([startWorker(), createAgenda({ config: configFor(`api-${suffix}`), databaseUrl, log, role: 'server' })]);
  worker = child;
  server = jobs;
  pubsub = createAppPubSub();
  unforward = forwardJobEvents(server.agenda, pubsub, {
    includeRemote: !isDistributed(pubsub),
    log,
    ownerOf: (id) => jobs.ownerOf(id),
  });
  await server.start();
}, 60_000);

afterAll(async () => {
  if (worker) await stopWorker(worker);
  unforward?.();
  await server?.stop();
  await pubsub?.close();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('jobs across processes', () => {
  // events of a job another process ran come by NOTIFY, which PGlite delivers only to the connection that sent it
  it.skipIf(!ON_SERVER)('the server receives start, progress and complete of a job another OS process ran (needs a PostgreSQL server)', async () => {
    expect(Object.keys(server!.agenda.definitions)).toEqual([]); // the server runs nothing itself
    expect(isDistributed(pubsub!)).toBe(false);
    // Redis absent: remote events must not be forwarded a second time by a forwarder set up for Redis
    const quiet = createAppPubSub();
    const unforwardQuiet = forwardJobEvents(server!.agenda, quiet, { includeRemote: false, log });

    const userId = crypto.randomUUID();
    const t0 = performance.now();
    const jobId = await server!.enqueue('test.echo', { userId, delayMs: 100 });
    const enqueuedAt = performance.now();
    const { events, stop } = collect(pubsub!, jobId);
    const quietEvents = collect(quiet, jobId);
    try {
      // The worker sends each NOTIFY fire-and-forget from a pool, so only start-first is a
      // guaranteed order: on a busy machine success has come after complete.
      await waitFor('remote complete and success', () => ['complete', 'success'].every((t) => events.some((e) => e.type === t)));
      expect(events.map((e) => e.type).sort()).toEqual(['complete', 'progress', 'start', 'success']);
      expect(events[0].type).toBe('start');
      for (const e of events) {
        expect(e).toMatchObject({ jobId, jobName: 'test.echo', userId, error: null });
        expect(Number.isNaN(Date.parse(e.at))).toBe(false);
      }
      expect(events.find((e) => e.type === 'progress')?.progress).toBe(50);
      const complete = events.find((e) => e.type === 'complete')!;
      console.info(
        `enqueue ${(enqueuedAt - t0).toFixed(1)} ms; remote start after ${(events[0].receivedAt - t0).toFixed(1)} ms,` +
          ` complete after ${(complete.receivedAt - t0).toFixed(1)} ms (job body sleeps 200 ms)`,
      );
      // picked up through NOTIFY: the worker polls only every 60 s
      expect(complete.receivedAt - t0).toBeLessThan(3000);
      const stored = await server!.agenda.db.getJobById(jobId);
      expect(stored?.lastFinishedAt).toBeInstanceOf(Date);
      expect(stored?.lastModifiedBy).toBe(`worker-fixture-${suffix}`);
      expect(quietEvents.events).toEqual([]);
    } finally {
      await stop();
      await quietEvents.stop();
      unforwardQuiet();
      await quiet.close();
    }
  });

  it.skipIf(!ON_SERVER)('a failure in the worker arrives as a remote fail event with its message (needs a PostgreSQL server)', async () => {
    const jobId = await server!.enqueue('test.echo', { delayMs: 10, fail: true });
    const { events, stop } = collect(pubsub!, jobId);
    try {
      await waitFor('remote complete', () => events.some((e) => e.type === 'complete'));
      expect(events.map((e) => e.type).sort()).toEqual(['complete', 'fail', 'progress', 'start']);
      expect(events.find((e) => e.type === 'fail')).toMatchObject({ error: 'echo asked to fail', userId: null });
    } finally {
      await stop();
    }
  });

  it('a job queued once per key is queued again only under another key, done or not', async () => {
    const key = crypto.randomUUID();
    const first = await server!.enqueue('test.not-run-by-anyone', { clipId: key, n: 1 }, { at: new Date(Date.now() + 3_600_000), once: { clipId: key } });
    const again = await server!.enqueue('test.not-run-by-anyone', { clipId: key, n: 2 }, { at: new Date(Date.now() + 3_600_000), once: { clipId: key } });
    expect(again).toBe(first);
    expect(await server!.dataOf(first)).toMatchObject({ n: 1 });
    const other = await server!.enqueue(
      'test.not-run-by-anyone',
      { clipId: crypto.randomUUID() },
      { at: new Date(Date.now() + 3_600_000), once: { clipId: 'x' } },
    );
    expect(other).not.toBe(first);
    // without `once` the same data is queued twice
    const plain = await server!.enqueue('test.not-run-by-anyone', { clipId: key }, { at: new Date(Date.now() + 3_600_000) });
    expect(plain).not.toBe(first);
  });

  it('ownerOf reads data.userId of a stored job and is null for unknown ids', async () => {
    const userId = crypto.randomUUID();
    const jobId = await server!.enqueue('test.not-run-by-anyone', { userId }, { at: new Date(Date.now() + 3_600_000) });
    expect(await server!.ownerOf(jobId)).toBe(userId);
    expect(await server!.ownerOf(crypto.randomUUID())).toBeNull();
    expect(await server!.ownerOf('not-a-uuid')).toBeNull();
  });
});

/** Jobs run in this process (role all), their events forwarded to a pub/sub of its own; close() drains and disconnects. */
async function localJobs(config: Config, definitions: JobDefinition<{ userId: string }>[]) {
  const jobs = await createAgenda({ config, databaseUrl, log, role: 'all', definitions });
  const db = createPrisma(databaseUrl, { max: 1 });
  const local = createAppPubSub();
  jobs.attach(appFor(config, db, local, jobs));
  const unforward = forwardJobEvents(jobs.agenda, local, { includeRemote: false, log });
  await jobs.start();
  return {
    jobs,
    local,
    async close() {
      unforward();
      await jobs.drain(1000);
      await Promise.all([local.close(), db.$disconnect()]);
    },
  };
}

describe('events of jobs run in this process', () => {
  it('carry data.userId, progress, and a retry scheduled by the backoff', async () => {
    const config = configFor(`local-${crypto.randomBytes(3).toString('hex')}`, { JOB_POLL_MS: '200' });
    let attempts = 0;
    const flaky: JobDefinition<{ userId: string }> = {
      name: 'test.flaky',
      // Agenda 6 reschedules a failed run itself; saving the retry sends no NOTIFY, so the poll finds it
      backoff: constant({ delay: 50, maxRetries: 1 }),
      async handler(_job, { progress }) {
        attempts++;
        await progress(30);
        if (attempts === 1) throw new Error('first attempt fails');
      },
    };
    const { jobs, local, close } = await localJobs(config, [flaky]);
    const userId = crypto.randomUUID();
    const jobId = await jobs.enqueue('test.flaky', { userId });
    const { events, stop } = collect(local, jobId);
    try {
      await waitFor('second run to complete', () => events.filter((e) => e.type === 'complete').length === 2);
      expect(events.map((e) => e.type)).toEqual(['start', 'progress', 'fail', 'retry', 'complete', 'start', 'progress', 'success', 'complete']);
      expect(events.every((e) => e.userId === userId && e.jobName === 'test.flaky')).toBe(true);
      expect(events.filter((e) => e.type === 'progress').map((e) => e.progress)).toEqual([30, 30]);
      expect(events.find((e) => e.type === 'fail')?.error).toBe('first attempt fails');
      expect(events.find((e) => e.type === 'retry')?.error).toBe('first attempt fails');
    } finally {
      await stop();
      await close();
    }
  });
});

describe('maintenance', () => {
  it('a worker schedules the hourly purge (idempotency keys, finished jobs), which runs once at once', async (ctx) => {
    if (!migrated) ctx.skip(); // the fixture runs the registry's jobs only when their tables exist
    const name = 'maintenance.purge';
    let job: JobParameters | undefined;
    await waitFor('the purge to run', async () => {
      job = (await server!.agenda.queryJobs({ name })).jobs[0];
      return Boolean(job?.lastFinishedAt);
    });
    expect(job).toMatchObject({ type: 'single', repeatInterval: '1 hour' });
    expect(job?.failReason ?? null).toBeNull();
  });
});

describe.skipIf(!REDIS_URL)('pub/sub over Redis (needs TEST_REDIS_URL)', () => {
  it('an event published by one instance reaches a subscriber of another', async () => {
    const a = createAppPubSub(REDIS_URL);
    const b = createAppPubSub(REDIS_URL);
    expect(isDistributed(a) && isDistributed(b)).toBe(true);
    const jobId = crypto.randomUUID();
    const { events, stop } = collect(b, jobId);
    const event: JobEvent = { jobId, jobName: 'test.echo', type: 'progress', progress: 42, userId: null, at: new Date().toISOString() };
    try {
      // b's SUBSCRIBE reaches Redis asynchronously: publish until it has
      const deadline = Date.now() + 5000;
      while (events.length === 0 && Date.now() < deadline) {
        a.publish('jobEvent', jobId, event);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(events[0]).toMatchObject(event);
    } finally {
      await stop();
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('a run whose lock lapses', () => {
  /**
   * A job written without retries whose first run never renews its lock of a second (a worker too busy to
   * renew it): that run waits until it sees itself lapsed, `before` does what it is given, then the run
   * fails; later runs succeed.
   */
  async function lapsingJob(before: (jobId: string) => Promise<void> = async () => {}) {
    const config = configFor(`lapse-${crypto.randomBytes(3).toString('hex')}`, { JOB_POLL_MS: '200' });
    const runs: Array<{ lapsedSeen: boolean; ended: 'threw' | 'succeeded' }> = [];
    const lapsing: JobDefinition<{ userId: string }> = {
      name: 'test.lapsing',
      // one at a time: this worker, the only one, cannot take the job over from its own lapsed run
      concurrency: 1,
      lockLifetime: 1000,
      backoff: null,
      async handler(job, { progress, lapsed }) {
        const run = { lapsedSeen: false, ended: 'threw' as 'threw' | 'succeeded' };
        runs.push(run);
        if (runs.length === 1) {
          const t0 = Date.now();
          while (!lapsed() && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
          run.lapsedSeen = lapsed();
          await before(String(job.attrs._id));
          throw new Error('its render broke after the lock lapsed');
        }
        await progress(100);
        run.ended = 'succeeded';
      },
    };
    const { jobs, local, close } = await localJobs(config, [lapsing]);
    const jobId = await jobs.enqueue('test.lapsing', { userId: crypto.randomUUID() });
    return { jobId, runs, ...collect(local, jobId), close };
  }

  it('records nothing of its own, and its job runs again though the job is written without retries', async () => {
    const { runs, events, stop, close } = await lapsingJob();
    try {
      await waitFor('the job to succeed', () => events.some((e) => e.type === 'success'), 20_000);
      expect(runs[0]).toEqual({ lapsedSeen: true, ended: 'threw' });
      expect(runs.at(-1)).toEqual({ lapsedSeen: false, ended: 'succeeded' });
      // the lapse is told as that run's failure, followed by a retry: not the error of the work it gave up
      expect(events.find((e) => e.type === 'fail')?.error).toBe('the run of test.lapsing lapsed: its lock was not renewed in time');
      expect(events.find((e) => e.type === 'retry')?.error).toBe('the run of test.lapsing lapsed: its lock was not renewed in time');
    } finally {
      await stop();
      await close();
    }
  });

  it('is not followed by a retry when another run has taken the job over', async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    // as a worker taking the job over does: its run starts (Agenda writes lastRunAt) after this one's
    const takeOver = async (jobId: string) =>
      void (await db.query(`UPDATE "${JOBS_TABLE}" SET last_run_at = now() + interval '1 second' WHERE id = $1`, [jobId]));
    const { runs, events, stop, close } = await lapsingJob(takeOver);
    try {
      await waitFor('the lapsed run to fail', () => events.some((e) => e.type === 'fail'), 20_000);
      expect(events.find((e) => e.type === 'fail')?.error).toBe('the run of test.lapsing lapsed: its lock was not renewed in time');
      // longer than the retry would wait, and the poll after it
      await new Promise((r) => setTimeout(r, LAPSED_RETRY_MS + 1500));
      expect(runs).toEqual([{ lapsedSeen: true, ended: 'threw' }]);
      expect(events.some((e) => e.type === 'retry')).toBe(false);
    } finally {
      await stop();
      await close();
      await db.end();
    }
  });

  it('backoff: a lapse no other run took over is retried, up to the last run; any other failure as the job says', () => {
    const strategy = againAfterLapse(null);
    const context = { attempt: 1, jobName: 'test.x', jobData: {} };
    const lapse = (takenOver: boolean) => new RunLapsed('test.x', new Error('broken'), takenOver);
    expect(strategy({ ...context, error: new Error('broken') })).toBeNull();
    expect(strategy({ ...context, error: lapse(false) })).toBe(LAPSED_RETRY_MS);
    expect(strategy({ ...context, error: lapse(true) })).toBeNull();
    expect(strategy({ ...context, attempt: LAPSED_RUNS, error: lapse(false) })).toBeNull();
    expect(againAfterLapse(() => 777)({ ...context, error: new Error('broken') })).toBe(777);
  });
});

describe('drain', () => {
  const slow = (state: { started: number; finished: number }, ms: number): JobDefinition<{ ms?: number }> => ({
    name: 'test.slow',
    backoff: null,
    async handler(job) {
      state.started++;
      await new Promise((r) => setTimeout(r, job.attrs.data?.ms ?? ms));
      state.finished++;
    },
  });

  async function slowWorker(state: { started: number; finished: number }, ms: number) {
    const config = configFor(`drain-${crypto.randomBytes(3).toString('hex')}`);
    const jobs = await createAgenda({ config, databaseUrl, log, role: 'worker', definitions: [slow(state, ms)] });
    const db = createPrisma(databaseUrl, { max: 1 }); // lazy: never connects here
    jobs.attach(appFor(config, db, createAppPubSub(), jobs));
    await jobs.start();
    return { jobs, close: () => db.$disconnect() };
  }

  it('waits for a running job to finish before it resolves', async () => {
    const state = { started: 0, finished: 0 };
    const { jobs, close } = await slowWorker(state, 1000);
    const jobId = await jobs.enqueue('test.slow', {});
    await waitFor('slow job start', () => state.started === 1);
    const result = await jobs.drain(10_000);
    expect(state.finished).toBe(1);
    expect(result).toMatchObject({ timedOut: false, running: 0, completed: 1 });
    const stored = await server!.agenda.db.getJobById(jobId);
    expect(stored?.lastFinishedAt).toBeInstanceOf(Date);
    expect(stored?.lockedAt ?? null).toBeNull();
    await close();
  });

  it('after its timeout, unlocks the jobs still running so another worker can take them', async () => {
    const state = { started: 0, finished: 0 };
    const { jobs, close } = await slowWorker(state, 1500);
    const jobId = await jobs.enqueue('test.slow', {});
    await waitFor('slow job start', () => state.started === 1);
    expect((await server!.agenda.db.getJobById(jobId))?.lockedAt).toBeInstanceOf(Date);
    const result = await jobs.drain(200);
    expect(result).toMatchObject({ timedOut: true, running: 1 });
    expect(state.finished).toBe(0);
    expect((await server!.agenda.db.getJobById(jobId))?.lockedAt ?? null).toBeNull();
    // the abandoned run ends on its own without its (closed) connections; it must not throw
    await waitFor('abandoned run to end', () => state.finished === 1, 3000);
    await new Promise((r) => setTimeout(r, 50));
    await close();
  });
});
