import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createUser, gql, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { spawnReady, type Child } from '../support/process.js';
import { readSse } from '../support/sse.js';
import { JOBS_TABLE } from '../../workers/table.js';

const SUBSCRIPTION = 'subscription($id: ID!) { jobEvents(jobId: $id) { jobId jobName type progress error } }';
type Event = { jobId: string; jobName: string; type: string; progress: number | null; error: string | null };

/**
 * How long a subscriber waits for its last event. Well under the test timeout: a subscription
 * whose events never come fails with what did come, and its connection is closed (a test that
 * merely timed out would leave it open, still waiting).
 */
const EVENTS_WITHIN_MS = 20_000;
const noFinalEvent = (events: Event[]) => new Error(`no final event within ${EVENTS_WITHIN_MS} ms; received: [${events.map((e) => e.type).join(', ')}]`);

function wsEvents(app: TestApp, key: string, jobId: string, until: (e: Event) => boolean): Promise<Event[]> {
  const client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { 'x-api-key': key },
    retryAttempts: 0,
  });
  const events: Event[] = [];
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  return new Promise<Event[]>((resolve, reject) => {
    timer = setTimeout(() => reject(noFinalEvent(events)), EVENTS_WITHIN_MS);
    const stop = client.subscribe<{ jobEvents: Event }>(
      { query: SUBSCRIPTION, variables: { id: jobId } },
      {
        next: (r) => {
          // messages already on the wire when it stopped are not part of the answer
          if (done) return;
          if (r.errors) return reject(new Error(JSON.stringify(r.errors)));
          events.push(r.data!.jobEvents);
          if (until(r.data!.jobEvents)) {
            done = true;
            stop();
            resolve(events);
          }
        },
        error: reject,
        complete: () => resolve(events),
      },
    );
  }).finally(() => {
    clearTimeout(timer);
    return client.dispose();
  });
}

const finished = (e: Event) => e.type === 'complete' || e.type === 'fail';

interface TwoProcesses {
  database: TestDatabase;
  api: TestApp;
  worker: Child;
  user: TestUser;
}

/** The API and a worker in two OS processes sharing one database (and, optionally, Redis). */
async function twoProcesses(env: Record<string, string>, started: Partial<TwoProcesses>): Promise<void> {
  // each part is recorded as soon as it runs, so that afterAll stops it even when a later one fails to start
  const database = (started.database = await createTestDatabase());
  const api = (started.api = await startTestApp({ role: 'server', database, env }));
  started.worker = await spawnReady('test/fixtures/worker-process.ts', {
    DATABASE_URL: database.url,
    DATA_DIR: api.dataDir,
    LOG_LEVEL: 'warn',
    JOB_POLL_MS: '500',
    INSTANCE_NAME: `worker-${process.pid}`,
    ...env,
  });
  started.user = await createUser(api);
}

const variants = [
  {
    label: 'in-process pub/sub: remote job events forwarded by Agenda',
    env: {} as Record<string, string>,
    // the API hears of the worker's jobs by NOTIFY, which PGlite delivers only to the connection that sent it
    skip: serverUrl() ? undefined : 'needs a PostgreSQL server',
  },
  {
    label: 'Redis pub/sub',
    env: { REDIS_URL: process.env.TEST_REDIS_URL ?? '' },
    // over PGlite too: the worker finds the jobs by polling and publishes their events to Redis
    skip: process.env.TEST_REDIS_URL ? undefined : 'needs TEST_REDIS_URL',
  },
];

for (const { label, env, skip } of variants) {
  describe.skipIf(skip)(`a job run by a worker process reaches GraphQL subscribers of the API (${label})${skip ? `: skipped, ${skip}` : ''}`, () => {
    let api: TestApp;
    let user: TestUser;
    const started: Partial<TwoProcesses> = {};

    beforeAll(async () => {
      await twoProcesses(env, started);
      ({ api, user } = started as TwoProcesses);
    });
    afterAll(async () => {
      try {
        await started.worker?.stop();
      } finally {
        try {
          await started.api?.stop();
        } finally {
          await started.database?.drop();
        }
      }
    });

    /**
     * A job queued to start once `listeners` subscriptions of it listen: each subscription listens, then reads
     * the job's state (src/graphql/jobs.ts), so the job is made due after that many reads of its state; the
     * worker's poll (500 ms) starts it. A fixed head start was not enough on a machine busy with other suites.
     */
    async function jobStartingOnceHeard(data: Record<string, unknown>, listeners: number): Promise<string> {
      const jobs = api.runtime.app.jobs;
      const jobId = await jobs.enqueue('test.echo', data, { at: new Date(Date.now() + 10 * 60_000) });
      const stateOf = jobs.stateOf;
      let reads = 0;
      jobs.stateOf = async (id) => {
        const state = await stateOf.call(jobs, id);
        if (id === jobId && ++reads === listeners) {
          jobs.stateOf = stateOf;
          await api.runtime.app.db.$executeRawUnsafe(`UPDATE "${JOBS_TABLE}" SET next_run_at = now() WHERE id = $1::uuid`, jobId);
        }
        return state;
      };
      return jobId;
    }

    it('over SSE and graphql-ws: start, progress 50, complete', async () => {
      const jobId = await jobStartingOnceHeard({ userId: user.id, delayMs: 300 }, 2);
      const signal = AbortSignal.timeout(EVENTS_WITHIN_MS);
      const sse = fetch(new URL('/graphql', api.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': user.key },
        body: JSON.stringify({ query: SUBSCRIPTION, variables: { id: jobId } }),
        signal,
      }).then((res) => {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
        return readSse(res, (d) => d.jobEvents as Event | undefined, finished, { signal, aborted: noFinalEvent });
      });
      const ws = wsEvents(api, user.key, jobId, finished);
      for (const events of await Promise.all([sse, ws])) {
        expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['start', 'progress', 'complete']));
        expect(events.at(-1)!.type).toBe('complete');
        expect(events.find((e) => e.type === 'progress')!.progress).toBe(50);
        expect(new Set(events.map((e) => e.jobId))).toEqual(new Set([jobId]));
        expect(events[0].jobName).toBe('test.echo');
      }
    });

    it('a failing job reaches subscribers as fail with its error', async () => {
      const jobId = await jobStartingOnceHeard({ userId: user.id, delayMs: 100, fail: true }, 1);
      const events = await wsEvents(api, user.key, jobId, finished);
      expect(events.at(-1)).toMatchObject({ type: 'fail', error: 'echo asked to fail' });
    });

    it("another user's job is NOT_FOUND", async () => {
      const jobId = await api.runtime.app.jobs.enqueue('test.echo', { userId: user.id }, { at: new Date(Date.now() + 60_000) });
      const other = await createUser(api);
      await expect(wsEvents(api, other.key, jobId, finished)).rejects.toThrow(/NOT_FOUND/);
      const r = await gql(api, other.key, SUBSCRIPTION, { id: jobId });
      expect(r.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    });
  });
}
