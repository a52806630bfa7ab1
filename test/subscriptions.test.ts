import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createUser, gql, startTestApp, type TestApp, type TestUser } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/db.js';
import { spawnReady, type Child } from './support/process.js';

const SUBSCRIPTION = 'subscription($id: ID!) { jobEvents(jobId: $id) { jobId jobName type progress error } }';
type Event = { jobId: string; jobName: string; type: string; progress: number | null; error: string | null };

/** Reads a GraphQL SSE response until `until` says stop; returns the events' data. */
async function readSse(res: Response, until: (e: Event) => boolean): Promise<Event[]> {
  const events: Event[] = [];
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
      if (!data) continue;
      const payload = JSON.parse(data);
      if (payload.errors) throw new Error(JSON.stringify(payload.errors));
      const e = payload.data?.jobEvents as Event | undefined;
      if (!e) continue;
      events.push(e);
      if (until(e)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

function wsEvents(app: TestApp, key: string, jobId: string, until: (e: Event) => boolean): Promise<Event[]> {
  const client = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': key }, retryAttempts: 0 });
  const events: Event[] = [];
  return new Promise<Event[]>((resolve, reject) => {
    const stop = client.subscribe<{ jobEvents: Event }>(
      { query: SUBSCRIPTION, variables: { id: jobId } },
      {
        next: (r) => {
          if (r.errors) return reject(new Error(JSON.stringify(r.errors)));
          events.push(r.data!.jobEvents);
          if (until(r.data!.jobEvents)) {
            stop();
            resolve(events);
          }
        },
        error: reject,
        complete: () => resolve(events),
      },
    );
  }).finally(() => client.dispose());
}

const finished = (e: Event) => e.type === 'complete' || e.type === 'fail';

/** The API and a worker in two OS processes sharing one database (and, optionally, Redis). */
async function twoProcesses(env: Record<string, string>) {
  const database = await createTestDatabase();
  const api = await startTestApp({ role: 'server', database, env });
  const worker = await spawnReady('test/fixtures/worker-process.ts', {
    DATABASE_URL: database.url,
    DATA_DIR: api.dataDir,
    LOG_LEVEL: 'warn',
    JOB_POLL_MS: '500',
    INSTANCE_NAME: `worker-${process.pid}`,
    ...env,
  });
  const user = await createUser(api);
  return { database, api, worker, user };
}

describe.each([
  { label: 'in-process pub/sub: remote job events forwarded by Agenda', env: {} as Record<string, string> },
  ...(process.env.TEST_REDIS_URL ? [{ label: 'Redis pub/sub', env: { REDIS_URL: process.env.TEST_REDIS_URL } }] : []),
])('a job run by a worker process reaches GraphQL subscribers of the API ($label)', ({ env }) => {
  let api: TestApp;
  let worker: Child;
  let user: TestUser;
  let database: TestDatabase;

  beforeAll(async () => {
    ({ api, worker, user, database } = await twoProcesses(env));
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await database?.drop();
  });

  it('over SSE and graphql-ws: start, progress 50, complete', async () => {
    // the job starts in 1.5 s, time for both subscribers to connect
    const jobId = await api.runtime.app.jobs.enqueue('test.echo', { userId: user.id, delayMs: 300 }, { at: new Date(Date.now() + 1500) });
    const sse = fetch(new URL('/graphql', api.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': user.key },
      body: JSON.stringify({ query: SUBSCRIPTION, variables: { id: jobId } }),
    }).then((res) => {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      return readSse(res, finished);
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
    const jobId = await api.runtime.app.jobs.enqueue('test.echo', { userId: user.id, delayMs: 100, fail: true }, { at: new Date(Date.now() + 1200) });
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
