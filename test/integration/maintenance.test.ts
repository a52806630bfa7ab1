import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../src/idempotency/keys.js';
import { COMPLETED_JOB_TTL_MS, FAILED_JOB_TTL_MS, maintenanceJob, sweepLeftovers } from '../../workers/jobs/maintenance.js';
import type { JobContext } from '../../workers/types.js';
import { HOST_TAG, WRITER_TAG } from '../../src/writer.js';
import { inWorkDir } from '../../src/jobs/work-dir.js';
import { JOBS_TABLE } from '../../workers/table.js';
import { createUser, startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);
const ctx = (): JobContext => ({
  app: app.runtime.app,
  log: app.runtime.app.log,
  progress: async () => {},
  signal: new AbortController().signal,
  lapsed: () => false,
});

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('maintenance.purge: finished jobs', () => {
  it('deletes one-time jobs finished a week ago (failed ones after a month), never pending, running or recurring ones', async () => {
    const db = app.runtime.app.db;
    const insert = (
      name: string,
      row: { type?: string; next?: Date | null; locked?: Date | null; finished?: Date | null; failed?: Date | null; every?: string | null },
    ) =>
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
    const left = new Set((await db.$queryRawUnsafe<Array<{ name: string }>>(`SELECT name FROM "${JOBS_TABLE}" WHERE name LIKE 'test.%'`)).map((r) => r.name));
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

describe('leftovers of cut-off writes', () => {
  /** a file written `age` ms ago under `dir`: its mtime, and its folders' (as its creation left them), set back */
  async function leftover(dir: string, file: string, age: number, body = 'partial bytes') {
    const p = path.join(dir, file);
    await fs.mkdir(path.dirname(p), { recursive: true });
    await fs.writeFile(p, body);
    const t = new Date(Date.now() - age);
    for (let q = p; q.startsWith(dir + path.sep); q = path.dirname(q)) await fs.utimes(q, t, t);
    return p;
  }
  const exists = (p: string) =>
    fs.stat(p).then(
      () => true,
      () => false,
    );
  /** the pid of a process that has ended */
  const deadPid = async () => {
    const child = spawn('true');
    await once(child, 'exit');
    return child.pid!;
  };
  const tmpName = (name: string) => `.${name}.${crypto.randomUUID()}.tmp`;

  /** leftovers of a server and a worker killed mid-write, a day and more ago, and the same of the last hour */
  async function scene(dataDir: string, userId: string) {
    const media = path.join(dataDir, 'media');
    const db = app.runtime.app.db;
    const project = crypto.randomUUID();
    const deadUpload = await db.userMedia.create({ data: { userId, type: 'VIDEO', status: 'pending', fileName: 'talk.mp4', createdAt: ago(DAY + HOUR) } });
    const liveUpload = await db.userMedia.create({ data: { userId, type: 'VIDEO', status: 'pending', fileName: 'talk.mp4', createdAt: ago(HOUR) } });
    const byUrl = await db.userMedia.create({
      data: { userId, type: 'AUDIO', status: 'pending', fileName: 'a.mp3', sourceUrl: 'https://example.com/a.mp3', createdAt: ago(2 * DAY) },
    });
    const ready = await db.userMedia.create({
      data: { userId, type: 'IMAGE', status: 'ready', fileName: 'i.png', storageKey: 'user-media/x/source.png', createdAt: ago(2 * DAY) },
    });
    const failed = await db.userMedia.create({
      data: { userId, type: 'IMAGE', status: 'failed', fileName: 'f.png', failureReason: 'x', createdAt: ago(2 * DAY) },
    });
    const gone = {
      projectPartial: await leftover(media, `projects/${project}/${tmpName('source.mp4')}`, DAY + HOUR),
      uploadPartial: await leftover(media, `user-media/${deadUpload.id}/${tmpName('source.mp4')}`, DAY + HOUR),
      // the upload's bytes were whole, the process died before the entry was marked ready
      deadUploadBytes: await leftover(media, `user-media/${deadUpload.id}/source.mp4`, DAY + HOUR),
      sidecarPartial: await leftover(media, `projects/${crypto.randomUUID()}/exports/${tmpName('.x.mp4.meta.json')}`, 3 * DAY),
      exportDir: await leftover(dataDir, `tmp/export-${crypto.randomUUID()}/output.mp4`, DAY + HOUR),
      // a job folder of this host's process that died a minute ago: no need to wait a day
      deadWorkersClip: await leftover(dataDir, `tmp/clip-${crypto.randomUUID()}/.owner`, 60_000, `${await deadPid()}@${HOST_TAG}`),
      wav: await leftover(dataDir, `tmp/${crypto.randomUUID()}.wav`, 2 * DAY),
    };
    const kept = {
      freshPartial: await leftover(media, `projects/${crypto.randomUUID()}/${tmpName('source.mp4')}`, HOUR),
      wholeOldFile: await leftover(media, `projects/${project}/source.mp4`, 3 * DAY),
      liveUploadPartial: await leftover(media, `user-media/${liveUpload.id}/${tmpName('source.mp4')}`, 10_000),
      // an export still writing: its folder holds an old file and one written now
      renderingCaptions: await leftover(dataDir, 'tmp/export-live/captions.ass', 2 * DAY),
      renderingOutput: await leftover(dataDir, 'tmp/export-live/output.mp4', 1000),
      freshWav: await leftover(dataDir, `tmp/${crypto.randomUUID()}.wav`, HOUR),
      // a job folder of a process that runs, and one of another host's (whose pids say nothing here)
      liveWorkersClip: await leftover(dataDir, `tmp/clip-${crypto.randomUUID()}/.owner`, 60_000, WRITER_TAG),
      otherHostsClip: await leftover(dataDir, `tmp/clip-${crypto.randomUUID()}/.owner`, 60_000, `${await deadPid()}@00000000`),
    };
    return { project, gone, kept, rows: { deadUpload, liveUpload, byUrl, ready, failed } };
  }

  async function expectSwept(dataDir: string, s: Awaited<ReturnType<typeof scene>>) {
    for (const [what, p] of Object.entries(s.gone)) expect({ what, exists: await exists(p) }).toEqual({ what, exists: false });
    for (const [what, p] of Object.entries(s.kept)) expect({ what, exists: await exists(p) }).toEqual({ what, exists: true });
    // the folders that held only a partial write go with it; the project's own folder stays with its source
    expect(await exists(path.dirname(s.gone.uploadPartial))).toBe(false);
    expect(await exists(path.dirname(path.dirname(s.gone.sidecarPartial)))).toBe(false);
    expect(await fs.readdir(path.join(dataDir, 'media', 'projects', s.project))).toEqual(['source.mp4']);
    const left = await app.runtime.app.db.userMedia.findMany({ where: { id: { in: Object.values(s.rows).map((r) => r.id) } }, select: { id: true } });
    const { deadUpload, ...others } = s.rows;
    expect(left.map((r) => r.id).sort()).toEqual(
      Object.values(others)
        .map((r) => r.id)
        .sort(),
    );
    expect(left.map((r) => r.id)).not.toContain(deadUpload.id);
  }

  it('the hourly maintenance removes partial files, working files and dead uploads untouched for a day; nothing younger', async () => {
    const user = await createUser(app);
    const s = await scene(app.dataDir, user.id);
    await maintenanceJob.handler({} as never, ctx());
    await expectSwept(app.dataDir, s);
  });

  it('a sweep that fails (a store that cannot list its partial uploads) leaves the others to run, and says why', async () => {
    const user = await createUser(app);
    const s = await scene(app.dataDir, user.id);
    const core = app.runtime.app;
    const warned: unknown[] = [];
    const log = { ...core.log, info: () => {}, warn: (o: unknown) => void warned.push(o) } as unknown as typeof core.log;
    const storage = { ...core.storage, sweepPartials: () => Promise.reject(new Error('The store does not list incomplete multipart uploads')) };
    const result = await sweepLeftovers({ ...core, storage }, log);
    expect(result).toMatchObject({ partials: 0, workFiles: expect.any(Number), uploads: 1 });
    expect(await exists(s.gone.exportDir)).toBe(false);
    expect(await exists(s.gone.wav)).toBe(false);
    expect(await exists(s.gone.projectPartial)).toBe(true);
    expect(await core.db.userMedia.count({ where: { id: s.rows.deadUpload.id } })).toBe(0);
    expect(warned).toEqual([{ err: expect.objectContaining({ message: 'The store does not list incomplete multipart uploads' }) }]);
    // the rest, for the next tests
    await sweepLeftovers(core, log);
  });

  it("a job's folder is its run's own and names its process; a run removes the folders of dead runs, never a live one's", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'work-dir-'));
    try {
      const tmp = path.join(dataDir, 'tmp');
      const dead = await leftover(dataDir, 'tmp/export-e1.0dead000/.owner', 1000, `${await deadPid()}@${HOST_TAG}`);
      const live = await leftover(dataDir, 'tmp/export-e1.11ve0000/.owner', 1000, WRITER_TAG);
      const other = await leftover(dataDir, 'tmp/export-e2.0dead000/.owner', 1000, `${await deadPid()}@${HOST_TAG}`);
      // a run killed between creating its tag's file and writing it: empty for a minute, it is dead; a moment ago, maybe not
      const empty = await leftover(dataDir, 'tmp/export-e3.0empty00/.owner', 60_000, '');
      const fresh = await leftover(dataDir, 'tmp/export-e3.0fresh00/.owner', 0, '');
      let inside: string[] = [];
      const seen = await inWorkDir(dataDir, 'export-e1', async (dir) => {
        inside = await fs.readdir(tmp);
        return { dir, owner: await fs.readFile(path.join(dir, '.owner'), 'utf8') };
      });
      expect(seen.owner).toBe(WRITER_TAG);
      expect(path.basename(seen.dir)).toMatch(/^export-e1\.[0-9a-f]{8}$/);
      // during the run: its own folder beside the live run's; the dead runs, of this work and another, are gone
      expect(inside.sort()).toEqual([path.basename(seen.dir), 'export-e1.11ve0000', 'export-e3.0fresh00'].sort());
      expect(await exists(empty)).toBe(false);
      expect(await exists(fresh)).toBe(true);
      expect(await exists(dead)).toBe(false);
      expect(await exists(live)).toBe(true);
      expect(await exists(other)).toBe(false);
      expect(await exists(seen.dir)).toBe(false);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a process sweeps them as it starts', async () => {
    const user = await createUser(app);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweep-start-'));
    const s = await scene(dataDir, user.id);
    const restarted = await startTestApp({ role: 'server', database: app.database, env: { DATA_DIR: dataDir } });
    try {
      // the sweep runs beside the start: look until it is through, for 10 s at most
      for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
        const seen = await expectSwept(dataDir, s).then(
          () => null,
          (e: unknown) => e,
        );
        if (!seen) break;
        if (Date.now() - t0 > 10_000) throw seen;
      }
    } finally {
      await restarted.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
