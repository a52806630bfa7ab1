// Job state notifications over PostgreSQL's LISTEN/NOTIFY reach another process in the order a worker
// published them. Agenda publishes fire-and-forget, one NOTIFY per pooled connection that is free; this
// drives the real channel the same way, many jobs' `fail` then `complete` at once, and reads them back
// on a second channel, as an API process does.
import { PostgresNotificationChannel } from '@agendajs/postgres-backend';
import type { JobStateNotification } from 'agenda';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStatesInOrder } from '../../workers/ordered-channel.js';
import { createEmptyDatabase, type TestDatabase } from '../support/db.js';
import { eventually } from '../support/http.js';

const CHANNEL = 'ordered_jobs';
const JOBS = 200;
let database: TestDatabase;
let pools: pg.Pool[];
let sender: PostgresNotificationChannel;
let listener: PostgresNotificationChannel;
const heard: JobStateNotification[] = [];

beforeAll(async () => {
  database = await createEmptyDatabase('ordered');
  // the sender's pool as a worker's: several connections, each NOTIFY on whichever is free
  pools = [new pg.Pool({ connectionString: database.url, max: 5 }), new pg.Pool({ connectionString: database.url, max: 2 })];
  sender = new PostgresNotificationChannel({ pool: pools[0], channelName: CHANNEL });
  listener = new PostgresNotificationChannel({ pool: pools[1], channelName: CHANNEL });
  await sender.connect();
  await listener.connect();
  listener.subscribeState((n) => {
    heard.push(n);
  });
  publishStatesInOrder(sender);
});

afterAll(async () => {
  await sender?.disconnect();
  await listener?.disconnect();
  await Promise.all((pools ?? []).map((p) => p.end()));
  await database?.drop();
});

const note = (type: 'fail' | 'complete', i: number): JobStateNotification => ({
  type,
  jobId: `job-${i}` as JobStateNotification['jobId'],
  jobName: 'test.echo',
  timestamp: new Date(),
  ...(type === 'fail' ? { error: 'asked to fail' } : {}),
});

describe('job state notifications', () => {
  it("reach a listener in the order they were published: every job's fail before its complete", async () => {
    // as Agenda does: neither publish awaited
    const sent: Promise<void>[] = [];
    for (let i = 0; i < JOBS; i++) sent.push(sender.publishState!(note('fail', i)), sender.publishState!(note('complete', i)));
    await Promise.all(sent);
    await eventually(async () => expect(heard).toHaveLength(2 * JOBS), 10_000);
    const order = heard.map((n) => `${n.type} ${String(n.jobId)}`);
    const expected = Array.from({ length: JOBS }, (_, i) => [`fail job-${i}`, `complete job-${i}`]).flat();
    expect(order).toEqual(expected);
  });

  it('a publish that fails does not stop the ones after it', async () => {
    heard.length = 0;
    const escaped = pools[0].query.bind(pools[0]);
    let calls = 0;
    // the first NOTIFY after this fails as a lost connection would
    pools[0].query = ((...args: Parameters<typeof escaped>) =>
      calls++ === 0 ? Promise.reject(new Error('connection lost')) : escaped(...args)) as (typeof pools)[0]['query'];
    try {
      const first = sender.publishState!(note('fail', 0));
      const second = sender.publishState!(note('complete', 0));
      await expect(first).rejects.toThrow('connection lost');
      await second;
    } finally {
      pools[0].query = escaped;
    }
    await eventually(async () => expect(heard.map((n) => n.type)).toEqual(['complete']));
  });
});
