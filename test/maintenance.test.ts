import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETED_JOB_TTL_MS, FAILED_JOB_TTL_MS, IDEMPOTENCY_KEY_TTL_MS, maintenanceJob } from '../workers/jobs/maintenance.js';
import type { JobContext } from '../workers/types.js';
import { JOBS_TABLE } from '../workers/table.js';
import { createUser, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);
const ctx = (): JobContext => ({ app: app.runtime.app, log: app.runtime.app.log, progress: async () => {} });

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('maintenance.purge: finished jobs', () => {
  it('deletes one-time jobs finished a week ago (failed ones after a month), never pending, running or recurring ones', async () => {
    const db = app.runtime.app.db;
    const insert = (name: string, row: { type?: string; next?: Date | null; locked?: Date | null; finished?: Date | null; failed?: Date | null; every?: string | null }) =>
      db.$queryRawUnsafe<Array<{ id: string }>>(
        `INSERT INTO "${JOBS_TABLE}" (name, type, next_run_at, locked_at, last_finished_at, failed_at, repeat_interval)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text`,
        name,
        row.type ?? 'normal',
        row.next ?? null,
        row.locked ?? null,
        row.finished ?? null,
        row.failed ?? null,
        row.every ?? null,
      );
    const old = ago(COMPLETED_JOB_TTL_MS + DAY);
    const rows = {
      oldDone: await insert('test.old-done', { finished: old }),
      recentDone: await insert('test.recent-done', { finished: ago(DAY) }),
      oldFailed: await insert('test.old-failed', { finished: old, failed: old }),
      ancientFailed: await insert('test.ancient-failed', { finished: ago(FAILED_JOB_TTL_MS + DAY), failed: ago(FAILED_JOB_TTL_MS + DAY) }),
      failedThenRetriedAndDone: await insert('test.retried-done', { finished: old, failed: ago(COMPLETED_JOB_TTL_MS + 2 * DAY) }),
      retryPending: await insert('test.retry-pending', { finished: old, failed: old, next: new Date() }),
      running: await insert('test.running', { finished: old, locked: new Date() }),
      recurring: await insert('test.recurring', { type: 'single', finished: old, every: '1 hour', next: new Date(Date.now() + DAY) }),
    };
    await maintenanceJob.handler({} as never, ctx());
    const left = new Set(
      (await db.$queryRawUnsafe<Array<{ name: string }>>(`SELECT name FROM "${JOBS_TABLE}" WHERE name LIKE 'test.%'`)).map((r) => r.name),
    );
    expect([...left].sort()).toEqual(['test.old-failed', 'test.recent-done', 'test.recurring', 'test.retry-pending', 'test.running']);
    expect(Object.keys(rows)).toHaveLength(8);
  });
});

describe('maintenance.purge: idempotency keys', () => {
  it('deletes keys older than a day and keeps the others', async () => {
    const user = await createUser(app);
    const db = app.runtime.app.db;
    const base = { userId: user.id, operation: 'test', requestHash: 'h' };
    await db.idempotencyKey.createMany({
      data: [
        { ...base, key: 'old', createdAt: ago(IDEMPOTENCY_KEY_TTL_MS + 60_000) },
        { ...base, key: 'fresh', createdAt: ago(60_000) },
      ],
    });
    await maintenanceJob.handler({} as never, ctx());
    expect((await db.idempotencyKey.findMany({ where: { userId: user.id } })).map((k) => k.key)).toEqual(['fresh']);
  });
});
